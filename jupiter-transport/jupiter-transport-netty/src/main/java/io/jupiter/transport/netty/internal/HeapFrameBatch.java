package io.jupiter.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

/**
 * Event loop only: the heap frames of one {@link OutboundQueue} drain, copied together into pooled direct buffers of
 * up to {@value #BATCH_BYTES} bytes before they reach the channel.
 *
 * <p>Frames made on application threads are heap buffers (see {@code Frames.newFrameOnCallingThread}). A socket
 * channel copies each heap buffer into a direct buffer of its own before writing it: one pooled allocation, one
 * outbound-buffer entry and one release per frame. Copied here, consecutive small frames share one direct buffer
 * from the event loop's cache and one entry. A lone frame, or one larger than a batch, is written as it is.
 *
 * <p>A batch starts at twice its first two frames and doubles as it fills, so it holds at most about twice the
 * bytes it carries: the outbound limit that {@link OverloadGuard} counts in bytes written stays a bound on memory.
 */
final class HeapFrameBatch {

    /** Most bytes of one batch buffer: small enough for the event loop's buffer cache. */
    static final int BATCH_BYTES = 16 * 1024;

    private final Channel channel;
    /** The only heap frame so far, not copied yet: written as it is if no other follows. */
    private ByteBuf first;
    private ByteBuf batch;

    HeapFrameBatch(Channel channel) {
        this.channel = channel;
    }

    /** Takes {@code frame} (its reference too): holds it for the batch, or writes it and what was held before it. */
    void add(ByteBuf frame) {
        int size = frame.readableBytes();
        if (frame.isDirect() || size > BATCH_BYTES) {
            writeHeld();
            channel.write(frame, channel.voidPromise());
        } else if (batch != null && batch.maxWritableBytes() >= size) {
            copyAndRelease(frame);
        } else if (batch != null || first != null && first.readableBytes() + size > BATCH_BYTES) {
            writeHeld();
            first = frame;
        } else if (first == null) {
            first = frame;
        } else {
            startBatch(frame);
        }
    }

    /** Writes (without flushing) everything held, in order. */
    void writeHeld() {
        if (first != null) {
            ByteBuf lone = first;
            first = null;
            channel.write(lone, channel.voidPromise());
        }
        if (batch != null) {
            ByteBuf full = batch;
            batch = null;
            channel.write(full, channel.voidPromise());
        }
    }

    private void startBatch(ByteBuf second) {
        try {
            batch = channel.alloc().directBuffer(
                    Math.min(BATCH_BYTES, 2 * (first.readableBytes() + second.readableBytes())), BATCH_BYTES);
        } catch (OutOfMemoryError e) {
            // No direct memory for a batch: both go as they are, and the channel fails (and releases) them itself.
            writeHeld();
            channel.write(second, channel.voidPromise());
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
}
