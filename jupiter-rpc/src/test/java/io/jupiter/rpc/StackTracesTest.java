package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.serialization.SerializerType;
import java.net.InetSocketAddress;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a caller learns of a provider's failure: the exception's class and message, and the provider's stack frames
 * only when the server was built to send them. Client and server share this JVM, so a frame of
 * {@link EchoServiceImpl} in what the caller got can only have come over the wire. Hessian and Java serialization
 * write a throwable's stack trace as {@code getStackTrace()} gives it, so they show it; protostuff writes the field,
 * which the JDK fills only once someone asked for the trace.
 */
class StackTracesTest {

    @ParameterizedTest
    @CsvSource({"false, HESSIAN", "true, HESSIAN", "false, JAVA", "true, JAVA", "false, PROTOSTUFF"})
    void theProvidersFramesTravelOnlyWhenEnabled(boolean send, SerializerType serializer) throws Exception {
        JupiterServer.Builder builder = JupiterServer.builder().host("127.0.0.1").port(0)
                .serializers(SerializerType.values());
        if (send) {
            builder.sendStackTraces(true); // false: the default
        }
        try (JupiterServer server = builder.build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(new EchoServiceImpl());
            InetSocketAddress address = server.start();
            EchoService echo = client.proxy(EchoService.class).address("127.0.0.1", address.getPort())
                    .serializer(serializer).build();

            Throwable declared = catchThrowable(() -> echo.failChecked("declared"));
            assertThat(declared).isInstanceOf(EchoService.CheckedFailure.class).hasMessage("declared");
            assertThat(hasProviderFrame(declared)).isEqualTo(send);

            Throwable undeclared = catchThrowable(() -> echo.failUnchecked("undeclared"));
            assertThat(undeclared).isInstanceOf(RemoteServiceException.class).hasMessageContaining("undeclared");
            assertThat(undeclared.getCause()).isInstanceOf(IllegalStateException.class);
            assertThat(hasProviderFrame(undeclared.getCause())).isEqualTo(send);
        }
    }

    private static boolean hasProviderFrame(Throwable t) {
        return Arrays.stream(t.getStackTrace()).anyMatch(e -> e.getClassName().equals(EchoServiceImpl.class.getName()));
    }
}
