package io.jupiter.rpc.internal.stream;

import io.jupiter.common.NamedThreadFactory;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.stream.StreamDeadlines;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Stands between a stream and its subscriber and enforces {@link StreamDeadlines}: a deadline that passes cancels
 * the stream and signals {@code SERVER_TIMEOUT} to the subscriber, once; signals after that are dropped.
 */
public final class DeadlineSubscriber<T> implements Flow.Subscriber<T>, Flow.Subscription {

    /** One daemon thread fires every stream's deadlines; the tasks only cancel and signal. */
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(
            new NamedThreadFactory("jupiter-stream-deadlines", true));

    /** Held while signalling the subscriber, so that a deadline's error never overlaps an {@code onNext}. */
    private final ReentrantLock signalling = new ReentrantLock();
    private final Flow.Subscriber<? super T> downstream;
    private final StreamDeadlines deadlines;
    private Flow.Subscription upstream;
    private ScheduledFuture<?> whole;
    private ScheduledFuture<?> next;
    private boolean first = true;
    private boolean done;

    public DeadlineSubscriber(Flow.Subscriber<? super T> downstream, StreamDeadlines deadlines) {
        this.downstream = downstream;
        this.deadlines = deadlines;
    }

    /** The deadlines this subscriber enforces, which a stream call sends its provider too. */
    public StreamDeadlines deadlines() {
        return deadlines;
    }

    /** The subscriber this one passes to. */
    public Flow.Subscriber<? super T> downstream() {
        return downstream;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        synchronized (this) {
            upstream = subscription;
            if (deadlines.whole() != null) {
                whole = schedule(deadlines.whole(), "the whole stream");
            }
            armNext();
        }
        downstream.onSubscribe(this);
    }

    /** The deadline for the next message: the first one's, or the idle one. Called holding this. */
    private void armNext() {
        if (next != null) {
            next.cancel(false);
            next = null;
        }
        Duration wait = first && deadlines.firstMessage() != null ? deadlines.firstMessage() : deadlines.idle();
        if (wait != null) {
            next = schedule(wait, first && deadlines.firstMessage() != null ? "the first message" : "the next message");
        }
    }

    private ScheduledFuture<?> schedule(Duration wait, String what) {
        return TIMER.schedule(() -> expired(wait, what), wait.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void expired(Duration wait, String what) {
        Flow.Subscription s;
        synchronized (this) {
            if (done) {
                return;
            }
            done = true;
            cancelTimers();
            s = upstream;
        }
        s.cancel();
        StreamException error = new StreamException(StatusTable.SERVER_TIMEOUT.status(), "stream deadline passed: "
                + what
                + " did not come within " + wait.toMillis() + " ms");
        // Not on the timer's one thread: the subscriber may be inside a long onNext, which this must wait for.
        ForkJoinPool.commonPool().execute(() -> signal(() -> downstream.onError(error)));
    }

    private void signal(Runnable signal) {
        signalling.lock();
        try {
            signal.run();
        } finally {
            signalling.unlock();
        }
    }

    private void cancelTimers() {
        if (whole != null) {
            whole.cancel(false);
        }
        if (next != null) {
            next.cancel(false);
        }
    }

    @Override
    public void onNext(T item) {
        synchronized (this) {
            if (done) {
                return;
            }
            first = false;
            armNext();
        }
        signal(() -> downstream.onNext(item));
    }

    @Override
    public void onError(Throwable throwable) {
        if (finish()) {
            signal(() -> downstream.onError(throwable));
        }
    }

    @Override
    public void onComplete() {
        if (finish()) {
            signal(downstream::onComplete);
        }
    }

    private synchronized boolean finish() {
        if (done) {
            return false;
        }
        done = true;
        cancelTimers();
        return true;
    }

    @Override
    public void request(long n) {
        upstream.request(n);
    }

    @Override
    public void cancel() {
        finish();
        upstream.cancel();
    }
}
