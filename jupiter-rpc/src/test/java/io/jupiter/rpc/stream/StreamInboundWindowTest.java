package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #28: the provider's window for a consumer's stream is the server's {@code streamInboundWindow}: a method that
 * asks for everything but reads slowly lets a producer that never pauses run at most the window (plus the
 * consumer's own buffer) ahead, so a larger window lets it run further ahead and a smaller one holds it closer.
 */
@Timeout(60)
class StreamInboundWindowTest {

    private static final int MESSAGES = 300;
    private static final int SENDER_BUFFER = 4;

    @Test
    void aSmallWindowHoldsAFastProducerClose() throws Exception {
        long ahead = maxAhead(4);
        System.out.printf("StreamInboundWindowTest: window 4: the sender got at most %d messages ahead%n", ahead);
        // The window, the sender's buffer, and the one message the sender holds while it waits for room.
        assertThat(ahead).isPositive().isLessThanOrEqualTo(4 + SENDER_BUFFER + 1);
    }

    @Test
    void aLargeWindowLetsAFastProducerRunFurtherAhead() throws Exception {
        long ahead = maxAhead(256);
        System.out.printf("StreamInboundWindowTest: window 256: the sender got at most %d messages ahead%n", ahead);
        // Beyond what a window of 32 (the default before byte counting) and the buffer allow; within the larger one.
        assertThat(ahead).isGreaterThan(32 + SENDER_BUFFER + 1)
                .isLessThanOrEqualTo(256 + SENDER_BUFFER + 1);
    }

    @Test
    void aWindowOutOfBoundsIsRefusedWithAClearError() {
        assertThatThrownBy(() -> JupiterServer.builder().streamInboundWindow(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("streamInboundWindow");
        assertThatThrownBy(() -> JupiterServer.builder().streamInboundWindow(1_000_000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("streamInboundWindow");
    }

    /** The most messages the consumer's producer got ahead of the method, reading at 2 ms a message. */
    private static long maxAhead(int window) throws Exception {
        IntakeServiceImpl impl = new IntakeServiceImpl();
        JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).streamInboundWindow(window).build();
        server.register(impl);
        server.start();
        try (server; JupiterClient client = JupiterClient.builder().build()) {
            IntakeService intake = client.proxy(IntakeService.class)
                    .address("127.0.0.1", server.localAddress().getPort()).connections(1).timeoutMillis(30_000)
                    .build();
            Sender numbers = new Sender(MESSAGES, SENDER_BUFFER);
            impl.senderProgress = numbers.sends::get;
            CompletableFuture<Long> count = intake.slowCount(numbers.publisher, 2);
            assertThat(count.get(30, TimeUnit.SECONDS)).isEqualTo(MESSAGES);
            return impl.latest.get().maxAhead.get();
        }
    }
}
