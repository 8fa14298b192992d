package io.jupiter.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;

/**
 * Outbound, just below the flush consolidation: the frames written between two flushes are copied together into
 * pooled direct buffers of up to {@value #BATCH_BYTES} bytes, which go down the pipeline at the flush.
 *
 * <p>Each buffer written to a socket channel costs an outbound-buffer entry, a vector of its own in the system call
 * and a release once sent; a heap frame (made on an application thread, see {@code Frames.newFrameOnCallingThread})
 * is first copied into a direct buffer of its own as well. A read batch of requests answered on the IO thread, or a
 * drain of frames queued by application threads, is many small frames between two flushes: copied here, they share
 * one buffer from the event loop's cache, and each frame goes back to its pool at once. A frame alone between two
 * flushes, one larger than a batch, and any write whose promise is not void go down as they are, in order.
 *
 * <p>A batch starts at twice its first two frames and doubles as it fills, so it takes at most about twice the
 * bytes it carries: {@link OverloadGuard}'s limit on the bytes waiting to be sent stays a bound on memory. Frames
 * held when the channel goes away are released, as Netty fails the writes it had not flushed.
 */
final class FrameCoalescer extends ChannelOutboundHandlerAdapter {

    /** Most bytes of one batch buffer: small enough for the event loop's buffer cache. */
    static final int BATCH_BYTES = 16 * 1024;

    /** The only frame since the last flush, not copied: written as it is if no other follows. */
    private ByteBuf first;
    private ByteBuf batch;

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf frame && promise.isVoid() && frame.readableBytes() <= BATCH_BYTES) {
            add(ctx, frame);
        } else {
            writeHeld(ctx);
            ctx.write(msg, promise);
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        writeHeld(ctx);
        ctx.flush();
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        releaseHeld();
        ctx.close(promise);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseHeld();
    }

    private void add(ChannelHandlerContext ctx, ByteBuf frame) {
        int size = frame.readableBytes();
        if (batch != null && batch.maxWritableBytes() >= size) {
            copyAndRelease(frame);
        } else if (batch != null || first != null && first.readableBytes() + size > BATCH_BYTES) {
            writeHeld(ctx);
            first = frame;
        } else if (first == null) {
            first = frame;
        } else {
            startBatch(ctx, frame);
        }
    }

    private void startBatch(ChannelHandlerContext ctx, ByteBuf second) {
        try {
            batch = ctx.alloc().directBuffer(
                    Math.min(BATCH_BYTES, 2 * (first.readableBytes() + second.readableBytes())), BATCH_BYTES);
        } catch (OutOfMemoryError e) {
            // No direct memory for a batch: both go as they are, and the channel fails (and releases) them itself.
            writeHeld(ctx);
            ctx.write(second, ctx.voidPromise());
            return;
        }
        ByteBuf held = first;
        first = null;
        copyAndRelease(held);
        copyAndRelease(second);
    }

    private void copyAndRelease(ByteBuf frame) {
        try {
            batch.writeBytes(frame, frame.readerIndex(), frame.readableBytes());
        } finally {
            frame.release();
        }
    }

    /** Writes (without flushing) everything held, in order. */
    private void writeHeld(ChannelHandlerContext ctx) {
        if (first != null) {
            ByteBuf lone = first;
            first = null;
            ctx.write(lone, ctx.voidPromise());
        }
        if (batch != null) {
            ByteBuf full = batch;
            batch = null;
            ctx.write(full, ctx.voidPromise());
        }
    }

    private void releaseHeld() {
        if (first != null) {
            first.release();
            first = null;
        }
        if (batch != null) {
            batch.release();
            batch = null;
        }
    }
}
