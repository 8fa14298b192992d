package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.Test;

/**
 * A peer that sends requests but never reads the answers cannot make the provider buffer without bound: the water
 * marks stop reading its requests, and once the answers it owes pass the pending-write limit its connection is
 * closed. Other clients are served throughout.
 */
class SlowConsumerTest {

    private static final int REQUESTS = 3_000;
    private static final int RESPONSE_BYTES = 64 * 1024;

    @Test
    void aPeerThatNeverReadsIsCutOffBeforeMemoryRunsOut() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(new EchoServiceImpl());
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
                // ~100 bytes each: they all fit in the socket buffers, so the provider takes all of them at once
                // and owes ~190 MiB of answers to a peer that reads none.
                for (int i = 0; i < REQUESTS; i++) {
                    out.write(request);
                }
                out.flush();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (server.connectionCount() > 1 && System.nanoTime() < deadline) {
                    peak = Math.max(peak, PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory());
                    TimeUnit.MILLISECONDS.sleep(5);
                }
                assertThat(server.connectionCount()).as("the stuck peer's connection is closed").isEqualTo(1);
            }
            long grew = peak - baseline;
            System.out.printf("SlowConsumerTest: pooled direct memory grew by at most %d KiB while %d MiB of "
                    + "answers were owed%n", grew / 1024, (long) REQUESTS * RESPONSE_BYTES / (1024 * 1024));
            assertThat(grew).as("growth of pooled direct memory, limit 16 MiB + allocator chunks")
                    .isLessThan(40L * 1024 * 1024);
            assertThat(good.fill(RESPONSE_BYTES)).hasSize(RESPONSE_BYTES);
        }
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
