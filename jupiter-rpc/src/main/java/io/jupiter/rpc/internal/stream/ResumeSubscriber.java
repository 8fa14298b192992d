package io.jupiter.rpc.internal.stream;

import java.util.concurrent.Flow;

/**
 * Passes every signal through to its subscriber and marks the stream it subscribes to as a resumption: a stream
 * call finds it between itself and the subscriber and sends {@link #lastSeen()} in the open.
 */
public final class ResumeSubscriber<T> implements Flow.Subscriber<T> {

    /** The open's attachment that carries the last sequence the consumer saw, as a decimal string. */
    public static final String KEY = "jupiter.stream.resume";

    private final Flow.Subscriber<? super T> downstream;
    private final long lastSeen;

    public ResumeSubscriber(Flow.Subscriber<? super T> downstream, long lastSeen) {
        this.downstream = downstream;
        this.lastSeen = lastSeen;
    }

    /** The last sequence the consumer saw. */
    public long lastSeen() {
        return lastSeen;
    }

    /** The subscriber this one passes to. */
    public Flow.Subscriber<? super T> downstream() {
        return downstream;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        downstream.onSubscribe(subscription);
    }

    @Override
    public void onNext(T item) {
        downstream.onNext(item);
    }

    @Override
    public void onError(Throwable throwable) {
        downstream.onError(throwable);
    }

    @Override
    public void onComplete() {
        downstream.onComplete();
    }
}
