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
 * A subscriber read with blocking calls: it asks for {@code prefetch} messages, then for more each time half was
 * read, so it holds at most {@code prefetch} messages. Reading a stream of ours, it holds no more than the stream's
 * byte window lets be on the way ({@link InboundStream#messagesWithinWindow}), so large messages are held by the
 * window's bytes, not by the prefetch's count; and it reports the bytes it hands out (in batches), so the messages it
 * holds count towards that stream's byte ceiling as the ones still queued there do.
 */
public final class BlockingSubscriber<T> implements Flow.Subscriber<T>, StreamIterator<T> {

    /** Frame bytes handed out that are reported to the stream at the latest. */
    private static final long REPORT_BYTES = 64 * 1024;

    private final int prefetch;
    /** Asked for and not yet delivered. */
    private long outstanding;
    private final ArrayDeque<T> queue = new ArrayDeque<>();
    /** The stream of ours read, if it is one: told of each message handed out. */
    private InboundStream<?> stream;
    /** The frame bytes of each message in {@link #queue}, in order, when reading a stream of ours. */
    private final ArrayDeque<Integer> sizes = new ArrayDeque<>();
    /** Frame bytes handed out and not yet reported to the stream: reported in batches, not a lock a message. */
    private long untold;
    private Flow.Subscription subscription;
    private boolean done;
    private Throwable error;
    private boolean closed;

    public BlockingSubscriber(int prefetch) {
        this.prefetch = prefetch;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        boolean cancel;
        synchronized (this) {
            cancel = subscription != null || closed;
            if (!cancel) {
                subscription = s;
                if (s instanceof InboundStream<?> ours) {
                    stream = ours;
                    ours.holdsDelivered();
                }
            }
        }
        if (cancel) {
            s.cancel();
            return;
        }
        long first = target(s);
        synchronized (this) {
            outstanding += first;
        }
        s.request(first);
    }

    /** The most messages to hold, asked for or queued: the prefetch, or fewer when the stream's bytes say so. */
    private long target(Flow.Subscription s) {
        return s instanceof InboundStream<?> stream ? Math.max(1, Math.min(prefetch, stream.messagesWithinWindow()))
                : prefetch;
    }

    @Override
    public synchronized void onNext(T item) {
        outstanding--;
        if (!closed) {
            queue.add(item);
            if (stream != null) {
                sizes.add((int) CreditWindow.frameBytes(stream.deliveringBytes()));
            }
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
        long more = 0;
        long taken = 0;
        synchronized (this) {
            item = queue.poll();
            if (stream != null) {
                untold += sizes.poll();
            }
            if (!done) {
                long target = target(subscription);
                // In batches: asks again once half the target was read.
                more = target - outstanding - queue.size();
                if (more > 0 && more >= Math.max(1, target / 2)) {
                    outstanding += more;
                    s = subscription;
                }
            }
            // Reported with each request, else once 64 KiB: the ceiling counts at most that much more than is held.
            if (untold > 0 && (s != null || untold >= REPORT_BYTES)) {
                taken = untold;
                untold = 0;
            }
        }
        if (taken > 0) {
            stream.taken(taken);
        }
        if (s != null) {
            s.request(more);
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
            sizes.clear();
            notifyAll();
            s = done ? null : subscription;
        }
        if (s != null) {
            s.cancel();
        }
    }
}
