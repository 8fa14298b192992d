package io.jupiter.rpc.internal.stream;

import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.metrics.StreamMetrics;
import io.jupiter.rpc.stream.SlowConsumerPolicy;
import io.jupiter.rpc.stream.StreamOptions;
import io.jupiter.serialization.Serializer;
import io.jupiter.transport.Connection;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntConsumer;

/**
 * The sending side of one stream: the receiver's credit, the messages buffered beyond it (bounded by the stream's
 * {@link StreamOptions}), the {@link SlowConsumerPolicy} applied when that buffer is full, and the stream's end. A
 * message goes out only against credit, so the connection never holds more of this stream than its receiver asked
 * for, and this object never more than its buffer. On the provider every message taken, sent or buffered, counts in
 * its connection's {@link ConnectionStreamBudget} until it is handed to the connection: with that full, the policy
 * applies as with a full buffer, whatever credit the receiver granted. Thread-safe: producers offer on their
 * threads, credit and cancel arrive on the IO thread.
 */
public final class OutboundStream {

    /** Hears how a stream ended, once. */
    @FunctionalInterface
    public interface EndListener {
        void ended(Status status, String reason);
    }

    private final long id;
    private final Connection connection;
    private final Serializer serializer;
    private final StreamOptions options;
    /** The connection's cap across its streams (without a limit on the consumer's side). */
    private final ConnectionStreamBudget budget;
    /** What the budget runs when room was freed for this stream's waiting producer. */
    private final Runnable roomFreed = this::roomFreed;
    /** Writes the frames sent, in order, on the connection's IO thread; gives their bytes back to the budget. */
    private final StreamWriter writer;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition space = lock.newCondition();
    private final ArrayDeque<ByteBuf> buffer = new ArrayDeque<>();
    private final List<EndListener> listeners = new CopyOnWriteArrayList<>();
    private long bufferedBytes;
    private long credit;
    private long dropped;
    private boolean completing;
    /** Non-null once the stream ended. */
    private Status endStatus;
    private String endReason;
    /** Told of every credit frame (a publisher bridge turns it into demand); {@code null}: nobody. Under the lock. */
    private IntConsumer creditListener;
    /** Credit that arrived before the listener was set, which it is told of when it is; under the lock. */
    private long creditBeforeListener;
    private int sizeHint = 64;
    /** Runs once, when the first credit arrives; {@code null} once run (or never set). */
    private Runnable onFirstCredit;
    /** The stream's metrics; {@code null}: none installed, nothing recorded. */
    private volatile StreamMetrics metrics;
    /** Told of every message the producer sends (the reader's first-message and idle deadlines); may be null. */
    private volatile SilenceDeadline silence;

    /** A stream with a writer of its own and no cap but its buffer's (the consumer's side). */
    OutboundStream(long id, Connection connection, Serializer serializer, StreamOptions options) {
        this(id, connection, serializer, options,
                new StreamWriter(connection, new ConnectionStreamBudget(Long.MAX_VALUE)));
    }

    /** @param writer its connection's writer, with the cap on the bytes the connection's streams hold together */
    OutboundStream(long id, Connection connection, Serializer serializer, StreamOptions options,
                   StreamWriter writer) {
        this.id = id;
        this.connection = connection;
        this.serializer = serializer;
        this.options = options;
        this.writer = writer;
        this.budget = writer.budget();
    }

    public long id() {
        return id;
    }

    public Connection connection() {
        return connection;
    }

    public Serializer serializer() {
        return serializer;
    }

    public StreamOptions options() {
        return options;
    }

    /** Records this stream's messages and slow-consumer events in {@code recorder} ({@code null}: nowhere). */
    void metrics(StreamMetrics recorder) {
        this.metrics = recorder;
    }

    /** Tells {@code watch} of every message the producer sends, from now on ({@code null}: nobody). */
    void silence(SilenceDeadline watch) {
        this.silence = watch;
    }

    /** Adds a listener of the end; runs it at once if the stream already ended. */
    public void onEnd(EndListener listener) {
        listeners.add(listener);
        Status status;
        String reason;
        lock.lock();
        try {
            status = endStatus;
            reason = endReason;
        } finally {
            lock.unlock();
        }
        if (status != null && listeners.remove(listener)) {
            listener.ended(status, reason);
        }
    }

    /** Runs {@code start} when the receiver first asks for messages (at once if it already did). */
    void onFirstCredit(Runnable start) {
        boolean now;
        lock.lock();
        try {
            now = credit > 0 && endStatus == null;
            if (!now) {
                onFirstCredit = start;
            }
        } finally {
            lock.unlock();
        }
        if (now) {
            start.run();
        }
    }

    /**
     * Sets who hears of each credit frame, and tells it at once of the credit that arrived before (on the consumer,
     * the provider's first credit can come before the consumer's publisher is subscribed to).
     */
    void creditListener(IntConsumer listener) {
        long early;
        lock.lock();
        try {
            creditListener = listener;
            early = creditBeforeListener;
            creditBeforeListener = 0;
        } finally {
            lock.unlock();
        }
        if (early > 0) {
            listener.accept((int) Math.min(early, Integer.MAX_VALUE));
        }
    }

    /** Serializes {@code value} on the calling thread and {@link #offer offers} it. */
    public boolean send(Object value) throws InterruptedException {
        checkOpen();
        ByteBuf frame = StreamFrames.message(connection, serializer, id, value, sizeHint);
        sizeHint = frame.readableBytes();
        return offer(frame);
    }

    /**
     * {@link #offer Offers} a message frame of this stream whose body is a copy of {@code body} (shared with other
     * streams and left as it is), or a retained duplicate of it when it is large ({@link StreamFrames#sharedMessage}).
     * When the message goes out at once (credit, nothing buffered, room in the connection's budget), is small and the
     * connection takes runs of frames, no frame is made: the writer copies the header and the body into what it
     * writes next.
     *
     * @throws StreamException if the stream ended
     */
    boolean offerShared(byte serializerCode, ByteBuf body) throws InterruptedException {
        int size = ProtocolHeader.HEADER_SIZE + body.readableBytes();
        if (body.readableBytes() <= StreamFrames.COPY_BODY_BYTES && writer.takesFrameRuns()) {
            lock.lock();
            try {
                if (endStatus == null && !completing && credit > 0 && buffer.isEmpty() && budget.trySend(size)) {
                    SilenceDeadline watch = silence;
                    if (watch != null) {
                        watch.touched();
                    }
                    credit--;
                    countSent(size);
                    writer.writeMessage(serializerCode, id, body);
                    return true;
                }
            } finally {
                lock.unlock();
            }
        }
        return offer(StreamFrames.sharedMessage(connection.alloc(), serializerCode, id, body));
    }

    /**
     * Sends a complete message frame (taking ownership): at once against credit, else into the buffer, else as the
     * policy says. Returns {@code false} if it (or, for drop-oldest, nothing) was dropped.
     *
     * @throws StreamException if the stream ended (the frame is released)
     */
    public boolean offer(ByteBuf frame) throws InterruptedException {
        SilenceDeadline watch = silence;
        if (watch != null) {
            watch.touched();
        }
        boolean failedSlow = false;
        boolean overBudget = false;
        boolean toSend = false;
        boolean waitingForBudget = false;
        boolean freed = false;
        lock.lock();
        try {
            while (true) {
                if (endStatus != null || completing) {
                    frame.release();
                    throw ended();
                }
                int size = frame.readableBytes();
                overBudget = false;
                toSend = credit > 0 && buffer.isEmpty();
                if (toSend) {
                    if (budget.trySend(size)) {
                        credit--;
                        countSent(frame);
                        writer.write(frame);
                        return true;
                    }
                    overBudget = true; // credit, but its connection sends all it may: as good as a full buffer
                } else if (buffer.size() < options.bufferMessages()
                        && (buffer.isEmpty() || bufferedBytes + size <= options.bufferBytes())) {
                    if (budget.tryBuffer(size)) {
                        buffer.add(frame);
                        bufferedBytes += size;
                        return true;
                    }
                    overBudget = true; // room in the stream's buffer, none in its connection's
                }
                SlowConsumerPolicy policy = options.policy();
                if (policy == SlowConsumerPolicy.WAIT) {
                    if (overBudget && !waitingForBudget) {
                        // Other streams free the connection's bytes and wake the waiters: register, then try once
                        // more, so that a release in between is not missed.
                        budget.await(roomFreed, size, toSend);
                        waitingForBudget = true;
                        continue;
                    }
                    try {
                        space.await();
                    } catch (InterruptedException e) {
                        frame.release();
                        throw e;
                    }
                } else if (policy == SlowConsumerPolicy.DROP_OLDEST) {
                    ByteBuf oldest = buffer.poll();
                    if (oldest == null) {
                        // Nothing of this stream's to drop: the connection's other streams hold its bytes.
                        frame.release();
                        dropped++;
                        countSlow(policy);
                        return false;
                    }
                    bufferedBytes -= oldest.readableBytes();
                    unreserve(oldest.readableBytes());
                    freed = true;
                    oldest.release();
                    dropped++;
                    countSlow(policy);
                } else if (policy == SlowConsumerPolicy.DROP_NEWEST) {
                    frame.release();
                    dropped++;
                    countSlow(policy);
                    return false;
                } else {
                    frame.release();
                    failedSlow = true;
                    break;
                }
            }
        } finally {
            lock.unlock();
            if (waitingForBudget) {
                budget.stopWaiting(roomFreed);
            }
            if (freed) {
                budget.wakeWaiters();
            }
        }
        if (failedSlow) {
            countSlow(SlowConsumerPolicy.FAIL);
            end(StatusTable.SLOW_CONSUMER.status(), overBudget
                    ? "the receiver read too slowly: the streams of its connection"
                    + (toSend ? " wait to write " : " buffer ") + budget.limit() + " bytes"
                    + (toSend ? "" : " beyond their credit") + ", the provider's cap"
                    : "the receiver read too slowly: " + options.bufferMessages() + " messages or "
                    + options.bufferBytes() + " bytes buffered beyond its credit");
        }
        throw ended();
    }

    /** The receiver asked for {@code messages} more: sends buffered messages against them, wakes waiting producers. */
    void credit(int messages) {
        boolean ended = false;
        Runnable start;
        IntConsumer listener;
        lock.lock();
        try {
            if (endStatus != null) {
                return;
            }
            listener = creditListener;
            if (listener == null) {
                creditBeforeListener = Math.min(creditBeforeListener + messages, Integer.MAX_VALUE);
            }
            start = onFirstCredit;
            onFirstCredit = null;
            credit = Math.min(credit + messages, Integer.MAX_VALUE * 4L);
            while (credit > 0 && !buffer.isEmpty()) {
                ByteBuf frame = buffer.poll();
                bufferedBytes -= frame.readableBytes();
                budget.sendBuffered(frame.readableBytes()); // counted until the writer hands it over
                credit--;
                countSent(frame);
                writer.write(frame);
            }
            space.signalAll();
            if (completing && buffer.isEmpty()) {
                writeEnd(StreamFrames.end(connection.alloc(), id, Status.OK, null));
                ended = markEnded(Status.OK, null);
            }
        } finally {
            lock.unlock();
        }
        // Nothing was given back to the budget: the messages sent stay counted until the writer hands them over.
        if (ended) {
            notifyEnded(Status.OK, null);
            return;
        }
        if (start != null) {
            start.run();
        }
        if (listener != null) {
            listener.accept(messages);
        }
    }

    /** Ends the stream normally once every buffered message went out. Idempotent. */
    public void complete() {
        boolean ended = false;
        lock.lock();
        try {
            if (endStatus != null || completing) {
                return;
            }
            completing = true;
            space.signalAll();
            if (buffer.isEmpty()) {
                writeEnd(StreamFrames.end(connection.alloc(), id, Status.OK, null));
                ended = markEnded(Status.OK, null);
            }
        } finally {
            lock.unlock();
        }
        if (ended) {
            notifyEnded(Status.OK, null);
        }
    }

    /** Ends the stream now with {@code status}: buffered messages are dropped, the receiver is told why. */
    public void end(Status status, String reason) {
        closeNow(status, reason, true);
    }

    /** The receiver cancelled: nothing more is sent. */
    void cancelled(String reason) {
        closeNow(StatusTable.STREAM_CANCELLED.status(), reason == null || reason.isEmpty()
                ? "cancelled by the receiver" : reason,
                false);
    }

    /** The connection closed: nothing can be sent. */
    void connectionLost() {
        closeNow(StatusTable.CLIENT_ERROR.status(), "the connection to " + connection.remoteAddress() + " closed",
                false);
    }

    /** Ends the stream without a frame: its receiver already knows (it cancelled, or was told). */
    void closeSilently(Status status, String reason) {
        closeNow(status, reason, false);
    }

    private void closeNow(Status status, String reason, boolean tell) {
        boolean ended;
        lock.lock();
        try {
            if (endStatus != null) {
                return;
            }
            releaseBuffer();
            if (tell) {
                writeEnd(StreamFrames.end(connection.alloc(), id, status, reason));
            }
            ended = markEnded(status, reason);
        } finally {
            lock.unlock();
        }
        wakeBudgetWaiters();
        if (ended) {
            notifyEnded(status, reason);
        }
    }

    /**
     * Bytes of the connection's budget were given back (by this stream or another): a producer of this stream waiting
     * for room tries again. Called holding no stream's lock.
     */
    void roomFreed() {
        lock.lock();
        try {
            space.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** After giving bytes back, outside the lock: wakes the producers of the connection that wait for room. */
    private void wakeBudgetWaiters() {
        budget.wakeWaiters();
    }

    private void countSent(ByteBuf frame) {
        countSent(frame.readableBytes());
    }

    private void countSent(int frameBytes) {
        StreamMetrics recorder = metrics;
        if (recorder != null) {
            recorder.sent(frameBytes - ProtocolHeader.HEADER_SIZE);
        }
    }

    private void countSlow(SlowConsumerPolicy policy) {
        StreamMetrics recorder = metrics;
        if (recorder != null) {
            recorder.slowConsumer(policy);
        }
    }

    /** Queues the stream's end frame, counted in the budget like the messages, though it may pass the cap. */
    private void writeEnd(ByteBuf frame) {
        budget.sendAnyway(frame.readableBytes());
        writer.write(frame);
    }

    private boolean markEnded(Status status, String reason) {
        endStatus = status;
        endReason = reason;
        releaseBuffer();
        space.signalAll();
        return true;
    }

    private void notifyEnded(Status status, String reason) {
        for (EndListener listener : listeners) {
            if (listeners.remove(listener)) {
                listener.ended(status, reason);
            }
        }
    }

    private void releaseBuffer() {
        ByteBuf frame;
        while ((frame = buffer.poll()) != null) {
            frame.release();
        }
        unreserve(bufferedBytes);
        bufferedBytes = 0;
    }

    /** Gives bytes that left the buffer back to the connection's budget. */
    private void unreserve(long bytes) {
        if (bytes > 0) {
            budget.releaseBuffered(bytes);
        }
    }

    /** Whether the stream is neither ended nor completing. */
    public boolean isOpen() {
        lock.lock();
        try {
            return endStatus == null && !completing;
        } finally {
            lock.unlock();
        }
    }

    private void checkOpen() {
        lock.lock();
        try {
            if (endStatus != null || completing) {
                throw ended();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Messages buffered now (for tests and metrics). */
    public int bufferedMessages() {
        lock.lock();
        try {
            return buffer.size();
        } finally {
            lock.unlock();
        }
    }

    /** Bytes buffered now. */
    public long bufferedBytes() {
        lock.lock();
        try {
            return bufferedBytes;
        } finally {
            lock.unlock();
        }
    }

    /** Messages dropped by a drop policy so far. */
    public long dropped() {
        lock.lock();
        try {
            return dropped;
        } finally {
            lock.unlock();
        }
    }

    private StreamException ended() {
        Status status = endStatus;
        if (status == null) {
            return new StreamException(StatusTable.SERVER_ERROR.status(), "stream " + id
                    + " was completed: nothing more may be"
                    + " sent");
        }
        return new StreamException(status, "stream " + id + " is over (" + status + "): " + endReason);
    }

    @Override
    public String toString() {
        return "OutboundStream{id=" + id + ", to " + connection.remoteAddress() + '}';
    }
}
