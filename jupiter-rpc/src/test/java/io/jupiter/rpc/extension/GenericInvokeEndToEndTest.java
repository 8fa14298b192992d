package io.jupiter.rpc.extension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.EchoServiceAccess;
import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.exception.BadRequestException;
import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.filter.Side;
import io.jupiter.rpc.generic.GenericInvoker;
import io.jupiter.serialization.SerializerType;
import io.jupiter.transport.Status;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Generic calls, by method name, with every serializer; served through the ordinary provider path. */
class GenericInvokeEndToEndTest {

    private static final List<String> providerEvents = new CopyOnWriteArrayList<>();
    private static final Recorder providerRecorder = new Recorder("p", providerEvents, 0, Side.PROVIDER);
    private static JupiterServer server;
    private static JupiterClient client;
    private static String address;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).serializers(SerializerType.values())
                .interceptor(providerRecorder).build();
        EchoServiceAccess.register(server);
        address = "127.0.0.1:" + server.start().getPort();
        client = JupiterClient.builder().build();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    private static GenericInvoker generic(SerializerType serializer, InvokeType type) {
        return client.generic(new ServiceKey("test", "echo", "1.0.0")).address(address).serializer(serializer)
                .invokeType(type).timeoutMillis(10_000).build();
    }

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void syncGenericCallsReachTheSameMethodsAsTheInterface(SerializerType serializer) {
        GenericInvoker echo = generic(serializer, InvokeType.SYNC);
        assertThat(echo.$invoke("hello", "generic")).isEqualTo("hello, generic");
        assertThat(echo.$invoke("add", 40, 2)).isEqualTo(42);
        assertThat(echo.$invoke("ping")).isEqualTo("pong");
        assertThat(echo.$invoke("describe", 7)).isEqualTo("int:7");
        assertThat(echo.$invoke("describe", "7")).isEqualTo("string:7");
        assertThat(echo.$invoke("list", List.of("a"))).isEqualTo(List.of("a", "!"));
        assertThat(echo.$invoke("map", Map.of("one", 1))).isEqualTo(Map.of("one", 1, "size", 1));
        assertThat((BigDecimal) echo.$invoke("decimal", new BigDecimal("1.5"))).isEqualByComparingTo("2.5");
        Object person = EchoServiceAccess.person("ada", 36);
        assertThat(echo.$invoke("person", person)).isEqualTo(person);
        assertThat(providerEvents).contains("p:before", "p:after:OK");
    }

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void asyncGenericCallsCompleteTheirFutures(SerializerType serializer) throws Exception {
        GenericInvoker echo = generic(serializer, InvokeType.SYNC);
        assertThat(echo.$invokeAsync("hello", "later").get(10, TimeUnit.SECONDS)).isEqualTo("hello, later");
        assertThat(echo.$invokeAsync("helloLater", "x").get(10, TimeUnit.SECONDS)).isEqualTo("later, x");

        GenericInvoker async = generic(serializer, InvokeType.ASYNC);
        assertThat(async.$invoke("add", 1, 2)).isNull();
        assertThat(InvokeFutureContext.future(Integer.class).get(10, TimeUnit.SECONDS)).isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void genericFailuresSayWhatHappened(SerializerType serializer) {
        GenericInvoker echo = generic(serializer, InvokeType.SYNC);
        assertThatThrownBy(() -> echo.$invoke("failUnchecked", "boom")).hasMessageContaining("boom");
        // No declaration is known on this side: a declared checked exception arrives wrapped.
        assertThatThrownBy(() -> echo.$invoke("failChecked", "checked"))
                .isInstanceOfSatisfying(RemoteServiceException.class,
                        e -> assertThat(e.status()).isEqualTo(Status.SERVICE_EXPECTED_ERROR))
                .hasMessageContaining("checked");
        assertThatThrownBy(() -> echo.$invoke("noSuchMethod", 1)).isInstanceOf(RemoteServiceException.class)
                .hasMessageContaining("noSuchMethod");
        // Arguments are cast, never converted: a Long for an int is refused before the method is looked at further.
        assertThatThrownBy(() -> echo.$invoke("add", 1L, 2L)).isInstanceOfSatisfying(BadRequestException.class,
                e -> assertThat(e.status()).isEqualTo(Status.BAD_REQUEST))
                .hasMessageContaining("argument 1 of 2 for add(Integer, Integer) is a java.lang.Long");
        assertThat(echo.$invoke("add", 1, 2)).as("the connection still serves").isEqualTo(3);
    }
}
