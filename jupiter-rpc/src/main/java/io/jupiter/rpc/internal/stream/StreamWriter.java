package io.jupiter.rpc.internal.stream;

import io.jupiter.transport.Connection;
import io.netty.buffer.ByteBuf;
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
 */
final class StreamWriter {

    private final Connection connection;
    private final ConnectionStreamBudget budget;
    private final ConcurrentLinkedQueue<ByteBuf> frames = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();

    StreamWriter(Connection connection, ConnectionStreamBudget budget) {
        this.connection = connection;
        this.budget = budget;
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
        if (!scheduled.compareAndSet(false, true)) {
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
        while ((frame = frames.poll()) != null) {
            bytes += frame.readableBytes();
            connection.write(frame);
        }
        giveBack(bytes);
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
