package io.jupiter.rpc.metrics;

import io.jupiter.rpc.stream.SlowConsumerPolicy;
import io.jupiter.transport.Status;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The recorder of one open stream on one side, made by {@link RpcMetrics#streamOpened} only when some
 * {@link RpcMetrics.Listener} wants stream events: the stream machinery holds {@code null} otherwise and records
 * nothing. Passes each event to the listeners' {@link RpcMetrics.StreamListener}s; {@link #ended} passes on the first
 * end only, with the stream's age.
 */
public final class StreamMetrics {

    private static final AtomicIntegerFieldUpdater<StreamMetrics> ENDED =
            AtomicIntegerFieldUpdater.newUpdater(StreamMetrics.class, "ended");

    private final RpcMetrics.StreamListener[] listeners;
    private final long startNanos = System.nanoTime();
    private volatile int ended;

    StreamMetrics(RpcMetrics.StreamListener[] listeners) {
        this.listeners = listeners;
    }

    /** A message of {@code bodyBytes} (without the 16-byte header) went to the connection. */
    public void sent(int bodyBytes) {
        for (RpcMetrics.StreamListener listener : listeners) {
            listener.messageSent(bodyBytes);
        }
    }

    /** A message of {@code bodyBytes} (without the 16-byte header) arrived within the credit granted. */
    public void received(int bodyBytes) {
        for (RpcMetrics.StreamListener listener : listeners) {
            listener.messageReceived(bodyBytes);
        }
    }

    /** The receiver read too slowly: a message dropped ({@code DROP_*}), or the stream ended ({@code FAIL}). */
    public void slowConsumer(SlowConsumerPolicy policy) {
        for (RpcMetrics.StreamListener listener : listeners) {
            listener.slowConsumer(policy);
        }
    }

    /** The stream ended with {@code status}; only the first call counts. */
    public void ended(Status status) {
        if (ENDED.compareAndSet(this, 0, 1)) {
            long nanos = System.nanoTime() - startNanos;
            for (RpcMetrics.StreamListener listener : listeners) {
                listener.ended(status, nanos);
            }
        }
    }
}
