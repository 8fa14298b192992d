package io.jupiter.rpc.internal.stream;

import io.jupiter.transport.Connection;
import io.netty.buffer.ByteBuf;
import io.netty.util.internal.PlatformDependent;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writes the frames of one connection's outbound streams on its IO thread, in the order they were queued, and gives
 * their bytes back to the connection's {@link ConnectionStreamBudget} once handed to the connection. A frame sent
 * against credit stays counted in the budget until then, so the frames waiting for the IO thread are bounded however
 * much credit the receiver grants; what the connection holds beyond is bounded by the transport, which closes a
 * connection whose peer does not read ({@code maxPendingWriteBytes}).
 *
 * <p>Only the IO thread writes: a write from another thread is queued by the connection and could be overtaken by a
 * later one made on the IO thread (credit arrives there), so a stream's frames never are.
 *
 * <p>Small frames queued one after another are copied into one buffer of up to {@value #COALESCE_BYTES} bytes and
 * handed to the connection as one write: a fan-out queues thousands of frames of a few dozen bytes at once, and each
 * write costs a pass through the pipeline and an entry in the channel's outbound buffer. The bytes on the wire are
 * the same.
 */
final class StreamWriter {

    private final Connection connection;
    private final ConnectionStreamBudget budget;
    /** Frames up to this size are copied into a shared buffer of this size rather than written one by one. */
    static final int COALESCE_BYTES = 16 * 1024;
    /** Frames larger than this are written as they are. */
    static final int COALESCE_FRAME_BYTES = 1024;

    /** Slots of each chunk of a connection's queue. */
    private static final int QUEUE_CHUNK = 256;

    /** Producers (a topic's publisher, the IO thread's credit) add, the IO thread takes. */
    private final Queue<ByteBuf> frames;
    private final AtomicBoolean scheduled = new AtomicBoolean();

    /** A writer for all the streams of a connection (the provider's). */
    StreamWriter(Connection connection, ConnectionStreamBudget budget) {
        // Padded: a publisher adding thousands of frames while the IO thread takes them does not share a cache line
        // with it, as a linked queue's head and tail do.
        this(connection, budget, PlatformDependent.newMpscQueue(QUEUE_CHUNK, 1 << 30));
    }

    /** A writer for one stream: a small queue (a padded one costs more than a kilobyte each). */
    static StreamWriter ofOneStream(Connection connection, ConnectionStreamBudget budget) {
        return new StreamWriter(connection, budget, new ConcurrentLinkedQueue<>());
    }

    private StreamWriter(Connection connection, ConnectionStreamBudget budget, Queue<ByteBuf> frames) {
        this.connection = connection;
        this.budget = budget;
        this.frames = frames;
    }

    ConnectionStreamBudget budget() {
        return budget;
    }

    /**
     * Queues {@code frame}, whose bytes the caller reserved in the budget, to be written on the IO thread (taking
     * ownership). A stream calls it under its own lock, so its frames keep their order.
     */
    void write(ByteBuf frame) {
        frames.add(frame);
        // Read first: while a drain is due, the flag's cache line stays shared instead of bouncing per frame.
        if (scheduled.get() || !scheduled.compareAndSet(false, true)) {
            return;
        }
        try {
            connection.ioExecutor().execute(this::drain);
        } catch (RejectedExecutionException e) {
            // The IO thread is shutting down: nobody will write these.
            scheduled.set(false);
            discard();
        }
    }

    /** On the IO thread: hands what was queued to the connection, then frees its bytes for the producers waiting. */
    private void drain() {
        scheduled.set(false);
        long bytes = 0;
        ByteBuf frame;
        // Ends: what is queued meanwhile needs room the budget gives back only below, or an end frame (one a stream).
        ByteBuf held = null; // a small frame not copied yet: a lone one is written as it is
        ByteBuf batch = null;
        while ((frame = frames.poll()) != null) {
            int size = frame.readableBytes();
            bytes += size;
            if (size > COALESCE_FRAME_BYTES) {
                writeOut(held, batch);
                held = null;
                batch = null;
                connection.write(frame);
                continue;
            }
            if (held == null && batch == null) {
                held = frame;
                continue;
            }
            if (batch != null && batch.writableBytes() < size) {
                connection.write(batch);
                batch = null;
            }
            if (batch == null) {
                batch = connection.alloc().ioBuffer(COALESCE_BYTES, COALESCE_BYTES);
            }
            if (held != null) {
                copy(held, batch);
                held = null;
            }
            copy(frame, batch);
        }
        writeOut(held, batch);
        giveBack(bytes);
    }

    private void writeOut(ByteBuf held, ByteBuf batch) {
        if (held != null) {
            connection.write(held);
        }
        if (batch != null) {
            connection.write(batch);
        }
    }

    private static void copy(ByteBuf frame, ByteBuf batch) {
        try {
            batch.writeBytes(frame, frame.readerIndex(), frame.readableBytes());
        } finally {
            frame.release();
        }
    }

    private void discard() {
        long bytes = 0;
        ByteBuf frame;
        while ((frame = frames.poll()) != null) {
            bytes += frame.readableBytes();
            frame.release();
        }
        giveBack(bytes);
    }

    private void giveBack(long bytes) {
        if (bytes > 0) {
            budget.releaseSending(bytes);
            budget.wakeWaiters();
        }
    }
}
