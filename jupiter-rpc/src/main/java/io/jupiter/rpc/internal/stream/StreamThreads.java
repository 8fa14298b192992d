package io.jupiter.rpc.internal.stream;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads of a provider's streams, a resource of the whole provider. A stream's open (whose method may read the
 * consumer's messages with a blocking iterator, and so keep the thread as long as the stream lasts) and a sink-driven
 * producer each <em>hold</em> a thread while they run; at most {@code limit} do at once, across every connection,
 * and a stream beyond is refused {@code SERVER_BUSY}. Short tasks (delivering a message, ending a stream at its
 * deadline) run on the same executor without counting.
 *
 * <p>An open beyond the limit first waits, in order, for a thread given back ({@link #open}): a burst of opens whose
 * methods return at once (a topic's subscribers after a restart) is served as threads turn over, not refused. The
 * wait is bounded three ways, each a refusal once passed: {@link #MAX_WAITING_OPENS} opens,
 * {@link #MAX_WAITING_BYTES} of their bodies, and {@code streamOpenWaitMillis} each. A thread given back runs the next
 * waiting open itself, so a burst does not start a thread per open.
 *
 * <p>A platform thread's start waits for the new thread to run, which on a busy machine takes long: the tasks that
 * hold a thread are handed to it by a starter thread of their own, never by the IO thread that read the open.
 */
final class StreamThreads {

    /** Refused: every thread a stream may hold is held. */
    static final class Busy extends RejectedExecutionException {
        private static final long serialVersionUID = 1L;

        Busy(int limit) {
            super("provider busy: " + limit + " streams hold a thread");
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this; // a refusal a peer causes at will: no stack to fill
        }
    }

    /** Opens that may wait for a thread at once, across every connection. */
    static final int MAX_WAITING_OPENS = 4_096;
    /** Bytes of the waiting opens' bodies, held until their method runs. */
    static final long MAX_WAITING_BYTES = 16L * 1024 * 1024;

    /** An open waiting for a thread. */
    private record Waiting(Runnable task, Runnable busy, Runnable shuttingDown, long bytes, long deadlineNanos) {
    }

    private final ExecutorService threads;
    /** Hands the holding tasks to {@link #threads}; {@code null}: the caller does (virtual threads start at once). */
    private final ExecutorService starter;
    private final AtomicInteger held = new AtomicInteger();
    private volatile int limit;
    private volatile long openWaitNanos;
    /** Fires the waiting opens' deadlines. */
    private final ScheduledExecutorService timer;
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>(); // guarded by this
    private long waitingBytes; // guarded by this
    private boolean expiryArmed; // guarded by this
    private boolean shutDown; // guarded by this

    /**
     * @param starter hands the tasks that hold a thread to {@link #threads}; {@code null}: the caller does
     * @param timer fires the deadlines of the opens waiting for a thread
     * @param openWaitMillis how long an open beyond the limit waits for a thread
     */
    StreamThreads(ExecutorService threads, ExecutorService starter, ScheduledExecutorService timer, int limit,
                  long openWaitMillis) {
        this.threads = threads;
        this.starter = starter;
        this.timer = timer;
        this.limit = limit;
        openWait(openWaitMillis);
    }

    void openWait(long millis) {
        this.openWaitNanos = TimeUnit.MILLISECONDS.toNanos(millis);
    }

    void limit(int streams) {
        this.limit = streams;
    }

    int limit() {
        return limit;
    }

    /** Opens waiting for a thread now. */
    synchronized int waiting() {
        return waiting.size();
    }

    /** Streams holding a thread now. */
    int held() {
        return held.get();
    }

    /** Takes a thread for a stream if one is left under the limit; then {@link #runHeld} must follow. */
    boolean tryHold() {
        while (true) {
            int now = held.get();
            if (now >= limit) {
                return false;
            }
            if (held.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /**
     * Runs {@code task} on the thread taken by {@link #tryHold}, and gives it back when the task returns; if the
     * pool refuses it (the provider is shutting down), gives it back and runs {@code refused} instead, on the caller
     * or on the starter.
     */
    void runHeld(Runnable task, Runnable refused) {
        Runnable holding = () -> {
            Runnable next = task;
            while (next != null) {
                try {
                    next.run();
                } catch (RuntimeException | Error e) {
                    // Reported as the pool would, but the thread still owes the waiting opens their turn.
                    Thread thread = Thread.currentThread();
                    thread.getUncaughtExceptionHandler().uncaughtException(thread, e);
                }
                next = handOver();
            }
        };
        if (starter == null) {
            start(holding, refused);
            return;
        }
        try {
            starter.execute(() -> start(holding, refused));
        } catch (RejectedExecutionException e) {
            held.decrementAndGet();
            refused.run();
        }
    }

    private void start(Runnable holding, Runnable refused) {
        try {
            threads.execute(holding);
        } catch (RejectedExecutionException e) {
            held.decrementAndGet();
            refused.run();
        }
    }

    /**
     * Runs an open's {@code task} on a thread of its own: at once while under the limit, else after waiting its turn;
     * runs {@code busy} instead (on some thread) if it cannot wait or waited too long, {@code shuttingDown} if the
     * provider stops first. {@code bodyBytes} is what the open holds while it waits.
     */
    void open(Runnable task, long bodyBytes, Runnable busy, Runnable shuttingDown) {
        if (tryHold()) {
            runHeld(task, shuttingDown);
            return;
        }
        Runnable instead;
        synchronized (this) {
            if (tryHold()) { // under the lock: a thread given back meanwhile looks at the queue under it too
                instead = null;
            } else if (shutDown) {
                instead = shuttingDown;
            } else if (openWaitNanos == 0 || waiting.size() >= MAX_WAITING_OPENS
                    || waitingBytes + bodyBytes > MAX_WAITING_BYTES) {
                instead = busy;
            } else {
                waiting.add(new Waiting(task, busy, shuttingDown, bodyBytes, System.nanoTime() + openWaitNanos));
                waitingBytes += bodyBytes;
                armExpiry();
                return;
            }
        }
        if (instead == null) {
            runHeld(task, shuttingDown);
        } else {
            instead.run();
        }
    }

    /** A held thread's task returned: the thread takes the next waiting open, or is given back. */
    private Runnable handOver() {
        List<Waiting> late = null;
        Runnable next = null;
        synchronized (this) {
            Waiting w;
            long now = System.nanoTime();
            while ((w = waiting.poll()) != null) {
                waitingBytes -= w.bytes;
                if (now - w.deadlineNanos < 0) {
                    next = w.task;
                    break;
                }
                late = late == null ? new ArrayList<>() : late;
                late.add(w);
            }
            if (next == null) {
                held.decrementAndGet();
            }
        }
        refuse(late);
        return next;
    }

    private void armExpiry() {
        if (expiryArmed || waiting.isEmpty()) {
            return;
        }
        expiryArmed = true;
        try {
            timer.schedule(this::expire, waiting.peek().deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            expiryArmed = false; // the provider is closing: shutDown() refuses what waits
        }
    }

    /** Refuses the opens whose wait is over. */
    private void expire() {
        List<Waiting> late = new ArrayList<>();
        synchronized (this) {
            expiryArmed = false;
            long now = System.nanoTime();
            while (!waiting.isEmpty() && now - waiting.peek().deadlineNanos >= 0) {
                Waiting w = waiting.poll();
                waitingBytes -= w.bytes;
                late.add(w);
            }
            armExpiry();
        }
        refuse(late);
    }

    private static void refuse(List<Waiting> late) {
        if (late != null) {
            for (Waiting w : late) {
                w.busy.run();
            }
        }
    }

    /** An executor for tasks that hold a thread (a stream's producer): each is refused with {@link Busy} beyond. */
    Executor holding() {
        return task -> {
            if (!tryHold()) {
                throw new Busy(limit);
            }
            runHeld(task, () -> { }); // shutting down: the stream ends with SHUTTING_DOWN anyway
        };
    }

    /** Stops the starter and tells the waiting opens; call once {@link #threads} is shut down. */
    void shutDown() {
        List<Waiting> told;
        synchronized (this) {
            shutDown = true;
            told = new ArrayList<>(waiting);
            waiting.clear();
            waitingBytes = 0;
        }
        for (Waiting w : told) {
            w.shuttingDown.run();
        }
        if (starter != null) {
            starter.shutdown();
        }
    }
}
