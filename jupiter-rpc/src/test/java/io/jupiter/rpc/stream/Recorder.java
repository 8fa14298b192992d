package io.jupiter.rpc.stream;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

/** A subscriber that records what it gets and asks for messages only when told to. */
final class Recorder<T> implements Flow.Subscriber<T> {

    final List<T> items = new CopyOnWriteArrayList<>();
    final CountDownLatch ended = new CountDownLatch(1);
    volatile Throwable error;
    volatile boolean completed;
    volatile Flow.Subscription subscription;
    private final long initial;

    Recorder(long initial) {
        this.initial = initial;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        if (initial > 0) {
            s.request(initial);
        }
    }

    @Override
    public void onNext(T item) {
        items.add(item);
    }

    @Override
    public void onError(Throwable throwable) {
        error = throwable;
        ended.countDown();
    }

    @Override
    public void onComplete() {
        completed = true;
        ended.countDown();
    }

    boolean awaitEnd(long seconds) throws InterruptedException {
        return ended.await(seconds, TimeUnit.SECONDS);
    }
}
