package io.jupiter.rpc.internal;

import io.jupiter.common.ThrottledWarning;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the work of one method runs: on the IO thread that read its message, or on a pool. On a provider, that work is
 * a call of a provided method (name), and the pool is the provider pool; on a consumer, it is the completion of an
 * async call of a proxy method (reading the response, running the future's callbacks), and the pool is the consumer
 * threads. The rules below are written for the provider; the consumer's are the same with "completion" for "call".
 *
 * <p>A method declared {@link io.jupiter.rpc.NonBlocking} (or {@code @NonBlocking(false)}) runs where declared. An
 * undeclared one, when the server learns dispatch, starts on the pool and is watched:
 * <ul>
 * <li>it moves to the IO threads after a window of calls on the pool ({@value #FIRST_WINDOW} at first) in which
 *     at most 1 % took {@link #FAST_NANOS} or longer, at most 1 in {@value #CALLS_PER_STALL} took
 *     {@link #STALL_NANOS} or longer, and none waited for a synchronous call of another service. The times are wall
 *     clock, so a garbage collection or a preempted thread makes a fast call look slow: a few such calls in a window
 *     are tolerated (a pause stalls every call running at the time), while a method that blocks in more than one
 *     call in {@value #CALLS_PER_STALL} stays on the pool;</li>
 * <li>a method that waited for a synchronous call stays on the pool for good, wherever it was;</li>
 * <li>on the IO threads, a method goes back to the pool (with a warning) to be watched again when one call takes
 *     {@link #LONG_STALL_NANOS} or longer, or when more than one call in {@value #CALLS_PER_STALL} of those since
 *     its move took {@link #STALL_NANOS} or longer (two at least: on two busy cores a preempted IO thread holds up
 *     a call for a few milliseconds now and then, and a pause holds up every IO thread's call at once). A method
 *     sent back before it made a window's worth of calls on the IO threads, and a method that fails a window, has
 *     its next window made ten times longer (up to {@value #MAX_WINDOW} calls), so a method that blocks now and
 *     then soon stops coming back; one that ran a window's worth of calls on the IO threads before it was caught
 *     starts again from the first window.</li>
 * </ul>
 * The times are wall-clock times of the whole call on the provider (interceptors, method, response written).
 */
public final class AdaptiveDispatch {

    private static final Logger log = LoggerFactory.getLogger(AdaptiveDispatch.class);
    private static final ThrottledWarning stalls = new ThrottledWarning(log, 1, TimeUnit.MINUTES);

    /**
     * The largest message body an IO thread reads itself to run its work there (a request on a provider, a
     * response on a consumer): 16 KiB. A larger one, whose reading takes longer (a hostile body up to the read limits:
     * many milliseconds), is read on the pool.
     */
    public static final int MAX_BODY_READ_ON_IO_THREAD = 16 * 1024;
    /** Calls in the first window on the pool. */
    public static final int FIRST_WINDOW = 1_000;
    /** The longest window. */
    public static final int MAX_WINDOW = 100_000;
    /** A call at least this long is not fast: 100 µs. */
    public static final long FAST_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    /** A call at least this long is taken for one that blocked: 2 ms. */
    public static final long STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    /**
     * More than one stalled call in this many fails a window on the pool, and sends a method back from the IO threads.
     */
    public static final int CALLS_PER_STALL = 500;
    /**
     * One call this long on an IO thread sends its method back to the pool: 50 ms, longer than a busy core delays one.
     */
    public static final long LONG_STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** Where calls run now, and why. */
    public enum Mode {
        /** Declared {@code @NonBlocking}. */
        IO_THREAD_DECLARED,
        /** Declared {@code @NonBlocking(false)}, or not learned (learning off, or no pool). */
        POOL_DECLARED,
        /** On the pool, watched. */
        LEARNING,
        /** On the IO threads, having proved fast. */
        IO_THREAD_LEARNED,
        /** On the pool for good: it waited for a synchronous call. */
        POOL_LEARNED
    }

    /** What the log lines say: where the work runs, and how to keep it off the IO threads. */
    private enum Wording {
        PROVIDER("{} runs on the IO threads from now on: its last {} calls on the provider pool were fast (declare it"
                + " @NonBlocking(false) to keep it on the pool)",
                "{} took {} ms on an IO thread, stalling the connections that thread serves; it runs on the provider"
                        + " pool again until it proves fast (declare it @NonBlocking(false) if it may block)",
                "{} waited for a synchronous call on an IO thread; it runs on the provider pool from now on"),
        CONSUMER("{} completes its async calls on the IO threads from now on: its last {} completions on the"
                + " consumer threads were fast (JupiterClient.Builder.adaptiveCallbacks(false) keeps them there)",
                "completing an async call of {} took {} ms on an IO thread (its callbacks), stalling the connections"
                        + " that thread serves; its completions run on the consumer threads again until they prove"
                        + " fast",
                "a callback of {} waited for a synchronous call on an IO thread; its completions run on the consumer"
                        + " threads from now on");

        final String moved;
        final String back;
        final String waited;

        Wording(String moved, String back, String waited) {
            this.moved = moved;
            this.back = back;
            this.waited = waited;
        }
    }

    private final String name;
    private final Wording wording;
    private volatile Mode mode;
    private volatile int window = FIRST_WINDOW;
    private final AtomicInteger windowCalls = new AtomicInteger();
    private final AtomicInteger windowSlowCalls = new AtomicInteger();
    private final AtomicInteger windowStalls = new AtomicInteger();
    // Calls on the IO threads since the move, counted by every IO thread: striped, so they do not contend.
    private final LongAdder callsOnIoThread = new LongAdder();
    private final AtomicInteger stallsOnIoThread = new AtomicInteger();
    private volatile int moves;

    private AdaptiveDispatch(String name, Wording wording, Mode mode) {
        this.name = name;
        this.wording = wording;
        this.mode = mode;
    }

    /** A provided method declared to run on the IO threads ({@code ioThread}) or on the pool. */
    public static AdaptiveDispatch declared(String name, boolean ioThread) {
        return new AdaptiveDispatch(name, Wording.PROVIDER, ioThread ? Mode.IO_THREAD_DECLARED : Mode.POOL_DECLARED);
    }

    /** A provided method declared neither way: learned if {@code learn}, else on the pool. */
    public static AdaptiveDispatch undeclared(String name, boolean learn) {
        return new AdaptiveDispatch(name, Wording.PROVIDER, learn ? Mode.LEARNING : Mode.POOL_DECLARED);
    }

    /** The completions of a proxy method's async calls: learned if {@code learn}, else on the consumer threads. */
    public static AdaptiveDispatch completions(String name, boolean learn) {
        return new AdaptiveDispatch(name, Wording.CONSUMER, learn ? Mode.LEARNING : Mode.POOL_DECLARED);
    }

    public Mode mode() {
        return mode;
    }

    /** Whether a call read now runs on the IO thread that read it. */
    public boolean runsOnIoThread() {
        Mode m = mode;
        return m == Mode.IO_THREAD_DECLARED || m == Mode.IO_THREAD_LEARNED;
    }

    /** Whether calls are timed (they are while learning, and while on the IO threads by learning). */
    public boolean timed() {
        Mode m = mode;
        return m == Mode.LEARNING || m == Mode.IO_THREAD_LEARNED;
    }

    /** Whether the method may ever run on an IO thread. */
    public boolean mayRunOnIoThread() {
        Mode m = mode;
        return m != Mode.POOL_DECLARED && m != Mode.POOL_LEARNED;
    }

    /** Moves between the pool and the IO threads so far (for tests and the monitor). */
    public int moves() {
        return moves;
    }

    /** The current window, in calls. */
    public int window() {
        return window;
    }

    /**
     * A timed run ended: it took {@code nanos}, on an IO thread or a pool thread; it waited for a synchronous call if
     * the thread's {@link SyncWaits#count()} moved from {@code waitsBefore}, read as the run started.
     */
    public void ran(long nanos, long waitsBefore, boolean onIoThread) {
        boolean waited = SyncWaits.count() != waitsBefore;
        if (onIoThread) {
            ranOnIoThread(nanos, waited);
        } else {
            ranOnPool(nanos, waited);
        }
    }

    /** A call ran on a pool thread for {@code nanos}; {@code waited}: it waited for a synchronous call. */
    public void ranOnPool(long nanos, boolean waited) {
        if (mode != Mode.LEARNING) {
            return;
        }
        if (waited) {
            keepOnPool();
            return;
        }
        if (nanos >= FAST_NANOS) {
            windowSlowCalls.incrementAndGet();
            if (nanos >= STALL_NANOS) {
                windowStalls.incrementAndGet();
            }
        }
        if (windowCalls.incrementAndGet() >= window) {
            endWindow();
        }
    }

    /** A call ran on an IO thread for {@code nanos}; {@code waited}: it waited for a synchronous call. */
    public void ranOnIoThread(long nanos, boolean waited) {
        if (mode != Mode.IO_THREAD_LEARNED) {
            return;
        }
        if (waited) {
            stalls.warnFor(this, wording.waited, name);
            keepOnPool();
        } else if (nanos < STALL_NANOS) {
            callsOnIoThread.increment();
        } else {
            int stalled = stallsOnIoThread.incrementAndGet();
            if (nanos >= LONG_STALL_NANOS
                    || (stalled > 1 && (long) stalled * CALLS_PER_STALL > callsOnIoThread.sum())) {
                backToPool(nanos);
            }
        }
    }

    // The moves hold a plain lock for a few field writes, never while logging: a provider thread may be virtual.

    private void endWindow() {
        int calls;
        boolean fast;
        synchronized (this) {
            calls = windowCalls.get();
            if (mode != Mode.LEARNING || calls < window) {
                return;
            }
            fast = windowSlowCalls.get() * 100 <= calls && (long) windowStalls.get() * CALLS_PER_STALL <= calls;
            windowCalls.set(0);
            windowSlowCalls.set(0);
            windowStalls.set(0);
            if (fast) {
                mode = Mode.IO_THREAD_LEARNED;
                callsOnIoThread.reset();
                stallsOnIoThread.set(0);
                moves++;
            } else {
                lengthenWindow();
            }
        }
        if (fast) {
            log.info(wording.moved, name, calls);
        }
    }

    private void backToPool(long nanos) {
        synchronized (this) {
            if (mode != Mode.IO_THREAD_LEARNED) {
                return;
            }
            mode = Mode.LEARNING;
            moves++;
            if (callsOnIoThread.sum() < window) {
                lengthenWindow();
            } else {
                window = FIRST_WINDOW;
            }
        }
        stalls.warnFor(this, wording.back, name, TimeUnit.NANOSECONDS.toMillis(nanos));
    }

    private void lengthenWindow() {
        window = (int) Math.min((long) window * 10, MAX_WINDOW);
    }

    private synchronized void keepOnPool() {
        if (mode != Mode.POOL_LEARNED) {
            mode = Mode.POOL_LEARNED;
            moves++;
        }
    }

    @Override
    public String toString() {
        return name + " (" + mode + ")";
    }
}
