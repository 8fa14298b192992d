package io.jupiter.rpc.internal.stream;

import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.stream.StreamIterator;
import java.util.ArrayDeque;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.Flow;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A subscriber read with blocking calls: it asks for {@code prefetch} messages, then for half that again each time
 * half was read, so it holds at most {@code prefetch} messages.
 */
public final class BlockingSubscriber<T> implements Flow.Subscriber<T>, StreamIterator<T> {

    private final int prefetch;
    private final int batch;
    private final ArrayDeque<T> queue = new ArrayDeque<>();
    private Flow.Subscription subscription;
    private int readSinceRequest;
    private boolean done;
    private Throwable error;
    private boolean closed;

    public BlockingSubscriber(int prefetch) {
        this.prefetch = prefetch;
        this.batch = Math.max(1, prefetch / 2);
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        boolean cancel;
        synchronized (this) {
            cancel = subscription != null || closed;
            if (!cancel) {
                subscription = s;
            }
        }
        if (cancel) {
            s.cancel();
        } else {
            s.request(prefetch);
        }
    }

    @Override
    public synchronized void onNext(T item) {
        if (!closed) {
            queue.add(item);
            notifyAll();
        }
    }

    @Override
    public synchronized void onError(Throwable throwable) {
        error = throwable;
        done = true;
        notifyAll();
    }

    @Override
    public synchronized void onComplete() {
        done = true;
        notifyAll();
    }

    @Override
    public boolean hasNext() {
        synchronized (this) {
            while (queue.isEmpty() && !done && !closed) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new StreamException(StatusTable.CLIENT_ERROR.status(),
                            "interrupted while waiting for a message", e);
                }
            }
            if (!queue.isEmpty()) {
                return true;
            }
            if (error != null && !closed) {
                Throwable failure = error;
                error = null;
                if (failure instanceof RuntimeException runtime) {
                    throw runtime;
                }
                throw new StreamException(StatusTable.CLIENT_ERROR.status(), failure.toString(), failure);
            }
            return false;
        }
    }

    @Override
    public T next() {
        if (!hasNext()) {
            throw new NoSuchElementException("the stream ended");
        }
        T item;
        Flow.Subscription s = null;
        synchronized (this) {
            item = queue.poll();
            if (++readSinceRequest >= batch && !done) {
                readSinceRequest = 0;
                s = subscription;
            }
        }
        if (s != null) {
            s.request(batch);
        }
        return item;
    }

    @Override
    public Stream<T> stream() {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(this, Spliterator.ORDERED), false)
                .onClose(this::close);
    }

    @Override
    public void close() {
        Flow.Subscription s;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            queue.clear();
            notifyAll();
            s = done ? null : subscription;
        }
        if (s != null) {
            s.cancel();
        }
    }
}
