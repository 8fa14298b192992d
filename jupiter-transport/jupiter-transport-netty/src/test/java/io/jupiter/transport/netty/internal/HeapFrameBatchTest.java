package io.jupiter.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What reaches the channel when the frames of one drain go through {@link HeapFrameBatch}. */
class HeapFrameBatchTest {

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final HeapFrameBatch batch = new HeapFrameBatch(channel);
    private final List<ByteBuf> given = new ArrayList<>();
    private final ByteArrayOutputStream expected = new ByteArrayOutputStream();

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    @Test
    void aLoneHeapFrameIsWrittenAsItIs() {
        ByteBuf frame = heap("only one");
        batch.add(frame);
        batch.writeHeld();

        List<ByteBuf> written = written();
        assertThat(written).containsExactly(frame);
        assertThat(frame.refCnt()).isEqualTo(1);
        written.forEach(ByteBuf::release);
    }

    @Test
    void consecutiveHeapFramesShareOneDirectBuffer() {
        for (int i = 0; i < 50; i++) {
            batch.add(heap("request " + i));
        }
        batch.writeHeld();

        List<ByteBuf> written = written();
        assertThat(written).hasSize(1);
        assertThat(written.get(0).isDirect()).isTrue();
        // Grown as it filled: not much larger than what it carries.
        assertThat(written.get(0).capacity()).isLessThanOrEqualTo(2 * written.get(0).readableBytes());
        assertThat(bytes(written)).isEqualTo(expected.toByteArray());
        assertThat(given).allMatch(frame -> frame.refCnt() == 0, "released once copied");
        written.forEach(ByteBuf::release);
    }

    @Test
    void framesKeepTheirOrderAroundDirectAndLargeFrames() {
        batch.add(heap("a"));
        batch.add(heap("b"));
        batch.add(direct("c, direct"));
        batch.add(heap("d"));
        batch.add(heap("x".repeat(HeapFrameBatch.BATCH_BYTES + 1)));
        batch.add(heap("e"));
        batch.add(heap("f"));
        batch.writeHeld();

        List<ByteBuf> written = written();
        // [a b] copied, c as it is, d alone as it is, the large one as it is, [e f] copied.
        assertThat(written).hasSize(5);
        assertThat(written.get(1)).isSameAs(given.get(2));
        assertThat(written.get(2)).isSameAs(given.get(3));
        assertThat(written.get(3)).isSameAs(given.get(4));
        assertThat(bytes(written)).isEqualTo(expected.toByteArray());
        written.forEach(ByteBuf::release);
    }

    @Test
    void aFullBatchIsWrittenAndTheNextStarts() {
        String body = "y".repeat(1000);
        for (int i = 0; i < 40; i++) {
            batch.add(heap(body));
        }
        batch.writeHeld();

        List<ByteBuf> written = written();
        assertThat(written).hasSizeGreaterThan(2)
                .allMatch(buffer -> buffer.capacity() <= HeapFrameBatch.BATCH_BYTES);
        assertThat(bytes(written)).isEqualTo(expected.toByteArray());
        assertThat(given).allMatch(frame -> frame.refCnt() == 0);
        written.forEach(ByteBuf::release);
    }

    @Test
    void twoFramesThatDoNotFitOneBatchGoAsTheyAre() {
        String body = "z".repeat(HeapFrameBatch.BATCH_BYTES / 2 + 1);
        batch.add(heap(body));
        batch.add(heap(body));
        batch.add(heap("small"));
        batch.writeHeld();

        List<ByteBuf> written = written();
        assertThat(written).hasSize(2);
        assertThat(written.get(0)).isSameAs(given.get(0));
        // The second large frame and the small one after it share a batch.
        assertThat(written.get(1).isDirect()).isTrue();
        assertThat(bytes(written)).isEqualTo(expected.toByteArray());
        written.forEach(ByteBuf::release);
    }

    private ByteBuf heap(String body) {
        return remember(Unpooled.buffer().writeBytes(body.getBytes(StandardCharsets.UTF_8)));
    }

    private ByteBuf direct(String body) {
        return remember(channel.alloc().directBuffer().writeBytes(body.getBytes(StandardCharsets.UTF_8)));
    }

    private ByteBuf remember(ByteBuf frame) {
        given.add(frame);
        expected.writeBytes(ByteBufUtil.getBytes(frame));
        return frame;
    }

    private List<ByteBuf> written() {
        channel.flush();
        List<ByteBuf> written = new ArrayList<>();
        ByteBuf next;
        while ((next = channel.readOutbound()) != null) {
            written.add(next);
        }
        return written;
    }

    private static byte[] bytes(List<ByteBuf> buffers) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        buffers.forEach(buffer -> out.writeBytes(ByteBufUtil.getBytes(buffer)));
        return out.toByteArray();
    }
}
