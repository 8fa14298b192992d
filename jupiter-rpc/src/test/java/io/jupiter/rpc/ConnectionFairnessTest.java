package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.common.config.JupiterSettings;
import io.jupiter.rpc.exception.ServerBusyException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * One connection that floods a provider with slow requests gets SERVER_BUSY beyond its own limit, and cannot take
 * the provider queue from another connection.
 */
class ConnectionFairnessTest {

    private static final int FLOOD = 200;
    private static final int PER_CONNECTION = 16;

    @Test
    void aFloodingConnectionCannotStarveAnother() throws Exception {
        try (JupiterServer server = withoutQueueTarget(() -> JupiterServer.builder().host("127.0.0.1").port(0)
                .providerThreads(2)
                .queueCapacity(64).connectionLimits(PER_CONNECTION, 64L << 20).build());
             JupiterClient flooder = JupiterClient.builder().appName("flooder").build();
             JupiterClient good = JupiterClient.builder().appName("good").build()) {
            server.register(new EchoServiceImpl());
            InetSocketAddress address = server.start();
            EchoService flood = flooder.proxy(EchoService.class).address("127.0.0.1", address.getPort())
                    .invokeType(InvokeType.ASYNC).timeoutMillis(30_000).build();
            EchoService echo = good.proxy(EchoService.class).address("127.0.0.1", address.getPort()).build();

            // Without a per-connection limit these 200 slow calls would fill the 64-slot queue for seconds.
            List<CompletableFuture<String>> calls = new ArrayList<>();
            for (int i = 0; i < FLOOD; i++) {
                flood.sleep(100);
                calls.add(InvokeFutureContext.future(String.class));
            }
            assertThat(echo.hello("still served")).isEqualTo("hello, still served");

            int busy = 0;
            int served = 0;
            for (CompletableFuture<String> call : calls) {
                try {
                    assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("slept 100");
                    served++;
                } catch (ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(ServerBusyException.class)
                            .hasMessageContaining("requests in flight");
                    busy++;
                }
            }
            assertThat(served).isGreaterThanOrEqualTo(PER_CONNECTION);
            assertThat(busy).isEqualTo(FLOOD - served).isPositive();
        }
    }

    /**
     * Builds a server with the queue of before issue #35 (no queue target): this test holds its provider threads on
     * purpose, which makes the queue stand, and is about something else than shedding it.
     */
    private static JupiterServer withoutQueueTarget(Supplier<JupiterServer> build) {
        String property = JupiterSettings.QUEUE_TARGET_MILLIS.property();
        System.setProperty(property, "0");
        try {
            return build.get();
        } finally {
            System.clearProperty(property);
        }
    }
}
