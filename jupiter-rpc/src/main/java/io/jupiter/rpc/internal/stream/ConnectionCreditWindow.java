package io.jupiter.rpc.internal.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes the receiving streams of one connection hold together: frames arrived and not yet delivered to their
 * readers, and the credit on the wire reserved at the size messages have had. A stream grants credit only for what
 * fits in the room left here as well as in its own window ({@code CreditWindow}), so readers that stop reading hold
 * about this window's limit ({@code streamConnectionWindowBytes}) of one connection between them; it also carries
 * each of its streams' limit ({@code streamWindowBytes}), both per server or client ({@link StreamWindows}). A stream
 * held back by this window with nothing on its way registers ({@link #await}) and is asked to grant again (the task
 * it registered runs) when a reader takes bytes out or a stream ends; it registers first and looks once more, so a
 * release in between is not missed.
 *
 * <p><b>Shares.</b> Half the window is shared out evenly: each stream that holds credit may hold
 * {@link #fairShare}, half the window / the streams holding credit, and takes more only while the connection holds
 * less than a quarter of the window ({@link #spare()}). So streams that were granted first cannot hoard the
 * window while the others run at one message of credit (and send a credit frame for each message they read: 5,000
 * subscribers of a fan-out did), and one busy stream among idle ones still gets a quarter of the window (2 MiB by
 * default, more than a stream's own window).
 *
 * <p>Lock-free: streams count under their own locks; waking runs holding none.
 */
final class ConnectionCreditWindow {

    private final long limit;
    private final long streamLimit;
    /** Frames queued and credit reserved, in bytes, across the connection's receiving streams. */
    private final AtomicLong held = new AtomicLong();
    /** Receiving streams that were granted credit and have not ended. */
    private final AtomicInteger streams = new AtomicInteger();
    /** The size of the latest message to arrive on the connection: a new stream's first guess. */
    private volatile long latestMessageBytes;
    /** Streams held back by this window with nothing on their way; touched only when one is. */
    private final ConcurrentLinkedQueue<Runnable> waiting = new ConcurrentLinkedQueue<>();

    /**
     * @param limit       bytes the connection's receiving streams hold together
     * @param streamLimit bytes of frames each of them lets be on their way or queued
     */
    ConnectionCreditWindow(long limit, long streamLimit) {
        this.limit = limit;
        this.streamLimit = streamLimit;
    }

    /** A connection's window as {@code windows} say. */
    ConnectionCreditWindow(StreamWindows windows) {
        this(windows.connectionBytes(), windows.streamBytes());
    }

    /** Bytes of frames each receiving stream of the connection lets be on their way or queued. */
    long streamLimit() {
        return streamLimit;
    }

    /** Bytes there is room for now (0 when full). */
    long room() {
        return Math.max(0, limit - held.get());
    }

    /**
     * Bytes each stream that holds credit may hold whatever the others took: half the window, shared evenly; with
     * {@code joining} streams about to join ({@code 1} for a stream's first grant).
     */
    long fairShare(int joining) {
        return limit / 2 / Math.max(1, streams.get() + joining);
    }

    /**
     * Bytes beyond their fair shares the streams may still take: what the connection holds below a quarter of the
     * window (0 when none). With the fair shares' half that leaves a quarter for what changes after a grant (streams
     * that join, sizes that grow), so the fair shares fit in the room.
     */
    long spare() {
        return Math.max(0, limit / 4 - held.get());
    }

    /** A stream was granted its first credit: it counts in the fair share until it {@link #left}. */
    void joined() {
        streams.incrementAndGet();
    }

    /** A stream that {@link #joined} takes nothing more. */
    void left() {
        streams.decrementAndGet();
    }

    long latestMessageBytes() {
        return latestMessageBytes;
    }

    /** {@code bytes} of credit granted (negative: given back, as when a stream ends with credit unused). */
    void reserve(long bytes) {
        if (bytes != 0) {
            held.addAndGet(bytes);
        }
    }

    /** A frame of {@code bytes} arrived against credit reserved at {@code reserved} bytes. */
    void arrived(long bytes, long reserved) {
        latestMessageBytes = bytes;
        held.addAndGet(bytes - reserved);
    }

    /** A frame of {@code bytes} left its stream (delivered or dropped); then {@link #wakeWaiting} holding no lock. */
    void released(long bytes) {
        held.addAndGet(-bytes);
    }

    /** A stream grants nothing until bytes are given back; then {@code grantAgain} runs (once). */
    void await(Runnable grantAgain) {
        waiting.add(grantAgain);
    }

    /** Asks the streams held back to grant again, if there is room; call holding no stream's lock. */
    void wakeWaiting() {
        if (waiting.isEmpty() || room() == 0) {
            return;
        }
        List<Runnable> now = new ArrayList<>();
        Runnable next;
        while ((next = waiting.poll()) != null) {
            now.add(next);
        }
        for (Runnable grantAgain : now) {
            grantAgain.run();
        }
    }

    /** Bytes held now across the connection's receiving streams (for tests). */
    long held() {
        return held.get();
    }

    /** Streams held back now (for tests). */
    int waiting() {
        return waiting.size();
    }
}
