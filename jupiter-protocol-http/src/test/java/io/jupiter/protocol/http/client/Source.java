package io.jupiter.protocol.http.client;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/**
 * A cold publisher of {@code count} messages made on demand, in the thread that asks (one subscriber), counting
 * what it was asked for; then it completes, fails with {@code error}, or (with {@code end} false) stays open.
 */
final class Source<T> implements Flow.Publisher<T> {

    private final long count;
    private final LongFunction<T> message;
    private final RuntimeException error;
    private final boolean end;
    /** Messages asked for, in total. */
    final AtomicLong requested = new AtomicLong();
    /** Messages given. */
    final AtomicLong sent = new AtomicLong();
    final AtomicBoolean cancelled = new AtomicBoolean();
    final CountDownLatch subscribed = new CountDownLatch(1);
    /** Subscriptions made (a stream read twice would make two). */
    final AtomicLong subscriptions = new AtomicLong();
    private volatile boolean released;
    private volatile Runnable pending = () -> { };

    private Source(long count, LongFunction<T> message, RuntimeException error, boolean end) {
        this.count = count;
        this.message = message;
        this.error = error;
        this.end = end;
        this.released = true;
    }

    /** {@code count} messages, then the end. */
    static <T> Source<T> of(long count, LongFunction<T> message) {
        return new Source<>(count, message, null, true);
    }

    /** {@code count} messages, then {@code error}. */
    static <T> Source<T> failing(long count, LongFunction<T> message, RuntimeException error) {
        return new Source<>(count, message, error, true);
    }

    /** {@code count} messages, then nothing: never ends. */
    static <T> Source<T> open(long count, LongFunction<T> message) {
        return new Source<>(count, message, null, false);
    }

    /** {@code count} messages, then the end once {@link #release()} was called. */
    static <T> Source<T> held(long count, LongFunction<T> message) {
        Source<T> source = new Source<>(count, message, null, true);
        source.released = false;
        return source;
    }

    /** Lets a {@link #held} source end (once its messages were asked for). */
    void release() {
        released = true;
        pending.run();
    }

    @Override
    public void subscribe(Flow.Subscriber<? super T> subscriber) {
        subscriptions.incrementAndGet();
        Flow.Subscription subscription = new Flow.Subscription() {
            private long demand;
            private boolean done;

            @Override
            public synchronized void request(long n) {
                requested.addAndGet(n);
                demand += n;
                while (!done && !cancelled.get() && demand > 0 && sent.get() < count) {
                    demand--;
                    subscriber.onNext(message.apply(sent.incrementAndGet()));
                }
                if (!done && !cancelled.get() && sent.get() == count && end && released) {
                    done = true;
                    if (error == null) {
                        subscriber.onComplete();
                    } else {
                        subscriber.onError(error);
                    }
                }
            }

            @Override
            public void cancel() {
                cancelled.set(true);
            }
        };
        // A request of 1 from the test's thread: ends a released source whose messages were all sent.
        pending = () -> subscription.request(1);
        subscriber.onSubscribe(subscription);
        subscribed.countDown();
    }
}
