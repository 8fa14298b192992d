package io.jupiter.rpc.internal.stream;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads of a provider's streams, a resource of the whole provider. A stream's open (whose method may read the
 * consumer's messages with a blocking iterator, and so keep the thread as long as the stream lasts) and a sink-driven
 * producer each <em>hold</em> a thread while they run; at most {@code limit} do at once, across every connection,
 * and a stream beyond is refused {@code SERVER_BUSY}. Short tasks (delivering a message, ending a stream at its
 * deadline) run on the same executor without counting.
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

    private final ExecutorService threads;
    /** Hands the holding tasks to {@link #threads}; {@code null}: the caller does (virtual threads start at once). */
    private final ExecutorService starter;
    private final AtomicInteger held = new AtomicInteger();
    private volatile int limit;

    /** @param starter hands the tasks that hold a thread to {@code threads}; {@code null}: the caller does */
    StreamThreads(ExecutorService threads, ExecutorService starter, int limit) {
        this.threads = threads;
        this.starter = starter;
        this.limit = limit;
    }

    void limit(int streams) {
        this.limit = streams;
    }

    int limit() {
        return limit;
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
            try {
                task.run();
            } finally {
                held.decrementAndGet();
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

    /** An executor for tasks that hold a thread (a stream's producer): each is refused with {@link Busy} beyond. */
    Executor holding() {
        return task -> {
            if (!tryHold()) {
                throw new Busy(limit);
            }
            runHeld(task, () -> { }); // shutting down: the stream ends with SHUTTING_DOWN anyway
        };
    }

    /** Stops the starter; call once {@link #threads} is shut down. */
    void shutDown() {
        if (starter != null) {
            starter.shutdown();
        }
    }
}
