package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A peer that sends requests but never reads the answers cannot make the provider buffer without bound: the water
 * marks stop reading its requests, and once the answers it owes pass the pending-write limit its connection is
 * closed. Other clients are served throughout.
 */
class SlowConsumerTest {

    // 200 requests of ~100 bytes arrive in one read; each owes a 1 MiB answer, so whatever the timing the answers
    // owed pass the 16 MiB limit long before the water marks could stop the provider from reading them. The queue
    // rule is off: on a slow machine it rightly answers most of them SERVER_BUSY after their second in the queue
    // (small answers: the peer then owes too little to be cut off), which is not what this test is about.
    private static final int REQUESTS = 200;
    private static final int RESPONSE_BYTES = 1024 * 1024;

    @RegisterExtension
    final CapturedLog logged = new CapturedLog();

    @Test
    void aPeerThatNeverReadsIsCutOffBeforeMemoryRunsOut() throws Exception {
        AtomicInteger fills = new AtomicInteger();
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).queueTargetMillis(0).build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(new EchoServiceImpl() {
                @Override
                public byte[] fill(int size) {
                    fills.incrementAndGet();
                    return super.fill(size);
                }
            });
            int port = server.start().getPort();
            EchoService good = client.proxy(EchoService.class).address("127.0.0.1", port).timeoutMillis(20_000)
                    .build();
            assertThat(good.fill(10)).hasSize(10);
            long baseline = PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();

            long peak = baseline;
            try (Socket stuck = new Socket("127.0.0.1", port)) {
                stuck.setReceiveBufferSize(64 * 1024);
                OutputStream out = stuck.getOutputStream();
                byte[] request = fillRequest();
                byte[] all = new byte[request.length * REQUESTS];
                for (int i = 0; i < REQUESTS; i++) {
                    System.arraycopy(request, 0, all, i * request.length, request.length);
                }
                out.write(all);
                out.flush();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (server.connectionCount() > 1 && System.nanoTime() < deadline) {
                    peak = Math.max(peak, PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory());
                    TimeUnit.MILLISECONDS.sleep(5);
                }
                assertThat(server.connectionCount()).as("the stuck peer's connection is closed (%d of its %d answers"
                        + " made; logged: %s)", fills.get() - 1, REQUESTS, warnings()).isEqualTo(1);
            }
            long grew = peak - baseline;
            System.out.printf("SlowConsumerTest: pooled direct memory grew by at most %d KiB while %d MiB of "
                    + "answers were owed%n", grew / 1024, (long) REQUESTS * RESPONSE_BYTES / (1024 * 1024));
            // 16 MiB owed + the answers being built (1 MiB each, 4 provider threads) + the allocator's 4 MiB chunks;
            // a provider without the limit would hold all 200 MiB.
            assertThat(grew).as("growth of pooled direct memory").isLessThan(64L * 1024 * 1024);
            assertThat(good.fill(64 * 1024)).hasSize(64 * 1024);
        }
    }

    private String warnings() {
        return logged.events().stream().filter(event -> event.getLevel().isGreaterOrEqual(Level.WARN))
                .map(ILoggingEvent::getFormattedMessage).collect(Collectors.joining(" | "));
    }

    private static byte[] fillRequest() {
        MessageWrapper message = new MessageWrapper("stuck", new ServiceMetadata("test", "echo", "1.0.0"), "fill",
                new Object[] {RESPONSE_BYTES}, null);
        ByteBuf frame = Frames.newFrame(UnpooledByteBufAllocator.DEFAULT, 64);
        try {
            Serializers.get(SerializerType.PROTOSTUFF).write(frame, message);
            Frames.fillHeader(frame, ProtocolHeader.toSign(SerializerType.PROTOSTUFF.code(), ProtocolHeader.REQUEST),
                    (byte) 0, 1L);
            byte[] bytes = new byte[frame.readableBytes()];
            frame.readBytes(bytes);
            return bytes;
        } finally {
            frame.release();
        }
    }
}
