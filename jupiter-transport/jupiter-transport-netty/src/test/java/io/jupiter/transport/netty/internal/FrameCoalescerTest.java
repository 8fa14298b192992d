package io.jupiter.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What goes down the pipeline when frames are written through a {@link FrameCoalescer} and flushed. */
class FrameCoalescerTest {

    private final EmbeddedChannel channel = new EmbeddedChannel(new FrameCoalescer());
    private final List<ByteBuf> given = new ArrayList<>();
    private final ByteArrayOutputStream expected = new ByteArrayOutputStream();

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    @Test
    void aLoneHeapFrameIsWrittenAsItIs() {
        ByteBuf frame = heap("only one");
        write(frame);

        List<ByteBuf> written = written();
        assertThat(written).containsExactly(frame);
        assertThat(frame.refCnt()).isEqualTo(1);
        written.forEach(ByteBuf::release);
    }

    @Test
    void consecutiveHeapFramesShareOneDirectBuffer() {
        for (int i = 0; i < 50; i++) {
            write(heap("request " + i));
        }

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
    void framesKeepTheirOrderAroundLargeFramesAndWritesWithAPromise() {
        write(heap("a"));
        write(direct("b, direct"));
        write(heap("x".repeat(FrameCoalescer.BATCH_BYTES + 1)));
        write(heap("c"));
        ByteBuf promised = heap("d, with a promise");
        ChannelPromise promise = channel.newPromise();
        channel.write(promised, promise);
        write(heap("e"));
        write(heap("f"));

        List<ByteBuf> written = written();
        // [a b] copied, the large one as it is, c alone as it is, d as it is, [e f] copied.
        assertThat(written).hasSize(5);
        assertThat(written.get(1)).isSameAs(given.get(2));
        assertThat(written.get(2)).isSameAs(given.get(3));
        assertThat(written.get(3)).isSameAs(promised);
        assertThat(promise.isSuccess()).isTrue();
        assertThat(bytes(written)).isEqualTo(expected.toByteArray());
        written.forEach(ByteBuf::release);
    }

    @Test
    void eachFlushWritesWhatCameBeforeIt() {
        write(direct("one"));
        write(direct("two"));
        List<ByteBuf> firstFlush = written();
        write(direct("three"));
        List<ByteBuf> secondFlush = written();

        assertThat(firstFlush).hasSize(1);
        assertThat(firstFlush.get(0).toString(StandardCharsets.UTF_8)).isEqualTo("onetwo");
        assertThat(secondFlush).containsExactly(given.get(2));
        firstFlush.forEach(ByteBuf::release);
        secondFlush.forEach(ByteBuf::release);
    }

    @Test
    void framesHeldWhenTheChannelClosesAreReleased() {
        // Not flushed: one frame held as it is, and a batch.
        write(direct("held"));
        ByteBuf lone = given.get(0);
        channel.close();
        assertThat(lone.refCnt()).isZero();

        EmbeddedChannel another = new EmbeddedChannel(new FrameCoalescer());
        another.write(direct("copied"), another.voidPromise());
        another.write(direct("into a batch"), another.voidPromise());
        another.pipeline().remove(FrameCoalescer.class);

        assertThat(given).allMatch(frame -> frame.refCnt() == 0);
        assertThat(another.finishAndReleaseAll()).as("nothing was written").isFalse();
    }

    @Test
    void aFullBatchIsWrittenAndTheNextStarts() {
        String body = "y".repeat(1000);
        for (int i = 0; i < 40; i++) {
            write(heap(body));
        }

        List<ByteBuf> written = written();
        assertThat(written).hasSizeGreaterThan(2)
                .allMatch(buffer -> buffer.capacity() <= FrameCoalescer.BATCH_BYTES);
        assertThat(bytes(written)).isEqualTo(expected.toByteArray());
        assertThat(given).allMatch(frame -> frame.refCnt() == 0);
        written.forEach(ByteBuf::release);
    }

    @Test
    void twoFramesThatDoNotFitOneBatchGoAsTheyAre() {
        String body = "z".repeat(FrameCoalescer.BATCH_BYTES / 2 + 1);
        write(heap(body));
        write(heap(body));
        write(heap("small"));

        List<ByteBuf> written = written();
        assertThat(written).hasSize(2);
        assertThat(written.get(0)).isSameAs(given.get(0));
        // The second large frame and the small one after it share a batch.
        assertThat(written.get(1).isDirect()).isTrue();
        assertThat(bytes(written)).isEqualTo(expected.toByteArray());
        written.forEach(ByteBuf::release);
    }

    private void write(ByteBuf frame) {
        channel.write(frame, channel.voidPromise());
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
