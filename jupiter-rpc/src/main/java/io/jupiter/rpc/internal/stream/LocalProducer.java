package io.jupiter.rpc.internal.stream;

import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.stream.StreamProducer;
import io.jupiter.rpc.stream.StreamSink;
import java.util.concurrent.Flow;

/**
 * A producer body run in process for one subscriber, on a thread of its own: {@code send} waits for the
 * subscriber's demand and calls its {@code onNext} on the producer's thread.
 */
final class LocalProducer<T> implements StreamSink<T>, Flow.Subscription {

    private final Flow.Subscriber<? super T> subscriber;
    private long demand;
    private boolean over;

    private LocalProducer(Flow.Subscriber<? super T> subscriber) {
        this.subscriber = subscriber;
    }

    static <T> void start(StreamProducer<T> producer, Flow.Subscriber<? super T> subscriber) {
        LocalProducer<T> sink = new LocalProducer<>(subscriber);
        subscriber.onSubscribe(sink);
        Thread thread = new Thread(() -> {
            try {
                producer.produce(sink);
                sink.complete();
            } catch (StreamException e) {
                // cancelled by the subscriber: nothing to tell
            } catch (Exception | Error e) {
                sink.fail(e);
            }
        }, "jupiter-local-stream");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public boolean send(T message) throws InterruptedException {
        synchronized (this) {
            while (demand == 0 && !over) {
                wait();
            }
            if (over) {
                throw new StreamException(StatusTable.STREAM_CANCELLED.status(), "the subscriber cancelled the stream");
            }
            demand--;
        }
        subscriber.onNext(message);
        return true;
    }

    @Override
    public void complete() {
        if (end()) {
            subscriber.onComplete();
        }
    }

    @Override
    public void fail(Throwable error) {
        if (end()) {
            subscriber.onError(error);
        }
    }

    private synchronized boolean end() {
        if (over) {
            return false;
        }
        over = true;
        notifyAll();
        return true;
    }

    @Override
    public synchronized boolean isOpen() {
        return !over;
    }

    @Override
    public synchronized void request(long n) {
        if (n <= 0) {
            over = true;
            notifyAll();
            subscriber.onError(new IllegalArgumentException("request: " + n + " (expected: > 0)"));
            return;
        }
        demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
        notifyAll();
    }

    @Override
    public void cancel() {
        end();
    }
}
