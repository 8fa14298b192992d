package io.jupiter.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Which flushes {@link FlushConsolidation} lets through, and when: the ones of a read batch at its end, the ones
 * outside a read batch in one run of the event loop's queue, every {@code flushAfter}-th at once, and what is pending
 * when the channel closes; a run queued before a flush went through flushes nothing more.
 */
class FlushConsolidationTest {

    /** Counts the flushes that reach the socket's side of the pipeline. */
    private static final class Flushes extends ChannelOutboundHandlerAdapter {
        int count;

        @Override
        public void flush(ChannelHandlerContext ctx) {
            count++;
            ctx.flush();
        }
    }

    private final Flushes flushes = new Flushes();
    private EmbeddedChannel channel;

    @AfterEach
    void close() {
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
    }

    private ChannelPipeline pipeline(int flushAfter) {
        channel = new EmbeddedChannel(flushes, new FlushConsolidation(flushAfter));
        return channel.pipeline();
    }

    @Test
    void flushesOutsideAReadGoOutTogetherWhenTheLoopRunsItsQueue() {
        ChannelPipeline pipeline = pipeline(256);
        pipeline.flush();
        pipeline.flush();
        pipeline.flush();
        assertThat(flushes.count).isZero();

        channel.runPendingTasks();
        assertThat(flushes.count).isEqualTo(1);
        channel.runPendingTasks();
        assertThat(flushes.count).isEqualTo(1);

        pipeline.flush(); // a new batch: a new run
        channel.runPendingTasks();
        assertThat(flushes.count).isEqualTo(2);
    }

    @Test
    void flushesDuringAReadGoOutAtItsEnd() {
        ChannelPipeline pipeline = pipeline(256);
        pipeline.fireChannelRead("request");
        pipeline.flush();
        pipeline.flush();
        channel.runPendingTasks();
        assertThat(flushes.count).isZero();

        pipeline.fireChannelReadComplete();
        assertThat(flushes.count).isEqualTo(1);
        channel.runPendingTasks();
        assertThat(flushes.count).isEqualTo(1);
        Object read = channel.readInbound();
        assertThat(read).isEqualTo("request");
    }

    @Test
    void aRunQueuedBeforeAFlushWentThroughFlushesNothingMore() {
        ChannelPipeline pipeline = pipeline(256);
        pipeline.flush(); // queues a run
        pipeline.fireChannelRead("request");
        pipeline.flush();
        pipeline.fireChannelReadComplete(); // the pending flushes go out here
        assertThat(flushes.count).isEqualTo(1);

        channel.runPendingTasks(); // the run queued first: nothing left to flush
        assertThat(flushes.count).isEqualTo(1);

        pipeline.flush(); // queues a new run
        pipeline.fireChannelRead("request");
        pipeline.fireChannelReadComplete();
        assertThat(flushes.count).isEqualTo(2);
        pipeline.flush(); // outside a read: a new run, and the one queued before leaves the flush to it
        channel.runPendingTasks();
        assertThat(flushes.count).isEqualTo(3);
        channel.runPendingTasks();
        assertThat(flushes.count).isEqualTo(3);
    }

    @Test
    void everyFlushAfterThFlushGoesOutAtOnce() {
        ChannelPipeline pipeline = pipeline(3);
        pipeline.flush();
        pipeline.flush();
        assertThat(flushes.count).isZero();
        pipeline.flush();
        assertThat(flushes.count).isEqualTo(1);
        channel.runPendingTasks(); // the run queued by the first flush: it went out already
        assertThat(flushes.count).isEqualTo(1);

        pipeline.fireChannelRead("request");
        for (int i = 0; i < 7; i++) {
            pipeline.flush();
        }
        assertThat(flushes.count).isEqualTo(3); // the 3rd and the 6th
        pipeline.fireChannelReadComplete();
        assertThat(flushes.count).isEqualTo(4);
    }

    @Test
    void pendingFlushesGoOutWhenTheChannelCloses() {
        ChannelPipeline pipeline = pipeline(256);
        pipeline.fireChannelRead("request");
        pipeline.flush();
        assertThat(flushes.count).isZero();
        channel.close();
        assertThat(flushes.count).isEqualTo(1);
        Object read = channel.readInbound();
        assertThat(read).isEqualTo("request");
    }
}
