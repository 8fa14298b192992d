package io.jupiter.rpc.internal.stream;

import io.jupiter.transport.Connection;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

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
 * <p>Frames of at most {@value #COALESCE_FRAME_BYTES} bytes are copied, as they are queued, into a buffer of up to
 * {@value #COALESCE_BYTES} bytes, which the IO thread writes as one: a fan-out queues thousands of frames of a few
 * dozen bytes at once, and each frame handed over one by one costs a queue slot both threads touch, a pass through
 * the pipeline and an entry in the channel's outbound buffer. A topic's message goes into that buffer without a frame
 * of its own at all ({@link #writeMessage}). Larger frames are queued as they are, after what was copied before
 * them. The bytes on the wire are the same. A connection that takes one frame a write (one another protocol took
 * over, {@link Connection#takesFrameRuns}) gets every frame as it is.
 */
final class StreamWriter {

    /** Frames up to this size are copied into the buffer being filled rather than queued one by one. */
    static final int COALESCE_FRAME_BYTES = 1024;
    /** The most one buffer of copied frames holds. */
    static final int COALESCE_BYTES = 16 * 1024;
    /** What a fresh buffer of copied frames starts at; it grows up to {@link #COALESCE_BYTES}. */
    private static final int FIRST_BATCH_BYTES = 1024;

    private final Connection connection;
    private final ConnectionStreamBudget budget;
    /** Guarded by this: what the IO thread writes next, in order (buffers of copied frames, larger frames). */
    private final ArrayDeque<ByteBuf> queued = new ArrayDeque<>();
    /** Guarded by this: the buffer small frames are copied into now, not yet in {@link #queued}; may be null. */
    private ByteBuf filling;
    /** Guarded by this: the bytes of the frames queued or copied, given back to the budget once written. */
    private long queuedBytes;
    /** Guarded by this: whether a drain is due on the IO thread. */
    private boolean scheduled;

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
        int size = frame.readableBytes();
        boolean schedule;
        synchronized (this) {
            if (size > COALESCE_FRAME_BYTES || !connection.takesFrameRuns()) {
                closeFilling();
                queued.add(frame);
            } else {
                try {
                    room(size).writeBytes(frame, frame.readerIndex(), size);
                } finally {
                    frame.release();
                }
            }
            schedule = queuedOne(size);
        }
        if (schedule) {
            schedule();
        }
    }

    /**
     * Queues a message frame of stream {@code id} whose body is a copy of {@code body} (left as it is), of at most
     * {@link #COALESCE_FRAME_BYTES} bytes with its header, whose bytes the caller reserved in the budget: the frame a
     * {@link StreamFrames#sharedMessage} would be, without making it; only where {@link #takesFrameRuns}.
     */
    void writeMessage(byte serializerCode, long id, ByteBuf body) {
        int bodySize = body.readableBytes();
        int size = ProtocolHeader.HEADER_SIZE + bodySize;
        boolean schedule;
        synchronized (this) {
            ByteBuf to = room(size);
            to.writeShort(ProtocolHeader.MAGIC);
            to.writeByte(ProtocolHeader.toSign(serializerCode, ProtocolHeader.STREAM_MESSAGE));
            to.writeByte(Status.OK.value());
            to.writeLong(id);
            to.writeInt(bodySize);
            to.writeBytes(body, body.readerIndex(), bodySize);
            schedule = queuedOne(size);
        }
        if (schedule) {
            schedule();
        }
    }

    /** Whether {@link #writeMessage} may be used: the connection takes runs of frames in one write. */
    boolean takesFrameRuns() {
        return connection.takesFrameRuns();
    }

    /** The buffer being filled, with room for {@code size} more bytes. Holding this. */
    private ByteBuf room(int size) {
        if (filling != null && filling.maxWritableBytes() < size) {
            closeFilling();
        }
        if (filling == null) {
            filling = connection.alloc().ioBuffer(FIRST_BATCH_BYTES, COALESCE_BYTES);
        }
        return filling;
    }

    /** Queues the buffer being filled, if any. Holding this. */
    private void closeFilling() {
        if (filling != null) {
            queued.add(filling);
            filling = null;
        }
    }

    /** Counts a frame queued; returns whether a drain must be scheduled. Holding this. */
    private boolean queuedOne(int size) {
        queuedBytes += size;
        if (scheduled) {
            return false;
        }
        scheduled = true;
        return true;
    }

    private void schedule() {
        try {
            connection.ioExecutor().execute(this::drain);
        } catch (RejectedExecutionException e) {
            // The IO thread is shutting down: nobody will write these.
            discard();
        }
    }

    /** On the IO thread: hands what was queued to the connection, then frees its bytes for the producers waiting. */
    private void drain() {
        List<ByteBuf> out;
        long bytes;
        // Takes what is there now; what is queued meanwhile schedules another drain.
        synchronized (this) {
            scheduled = false;
            closeFilling();
            out = new ArrayList<>(queued);
            queued.clear();
            bytes = queuedBytes;
            queuedBytes = 0;
        }
        for (ByteBuf buffer : out) {
            connection.write(buffer);
        }
        giveBack(bytes);
    }

    private void discard() {
        long bytes;
        synchronized (this) {
            scheduled = false;
            closeFilling();
            ByteBuf buffer;
            while ((buffer = queued.poll()) != null) {
                buffer.release();
            }
            bytes = queuedBytes;
            queuedBytes = 0;
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
