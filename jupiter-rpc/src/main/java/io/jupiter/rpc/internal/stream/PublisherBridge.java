package io.jupiter.rpc.internal.stream;

import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.transport.Status;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Feeds a stream from any {@link Flow.Publisher} a provider method returned (one of Reactor, Mutiny, or the JDK's
 * {@code SubmissionPublisher}): the receiver's credit becomes the publisher's demand, so the publisher is never asked
 * for more than the receiver wants; its completion or error ends the stream, and the stream's end cancels it.
 */
final class PublisherBridge implements Flow.Subscriber<Object> {

    private final OutboundStream stream;
    /** The status of the end frame when the publisher fails. */
    private final Status errorStatus;
    /** Demand that arrived before {@link #onSubscribe}. */
    private final AtomicLong early = new AtomicLong();
    private volatile Flow.Subscription subscription;

    private PublisherBridge(OutboundStream stream, Status errorStatus) {
        this.stream = stream;
        this.errorStatus = errorStatus;
    }

    /**
     * Feeds {@code stream} from {@code publisher}; a publisher that fails ends the stream with {@code errorStatus}
     * and the error's text.
     */
    static void subscribe(Flow.Publisher<?> publisher, OutboundStream stream, Status errorStatus) {
        PublisherBridge bridge = new PublisherBridge(stream, errorStatus);
        stream.creditListener(bridge::demand);
        stream.onEnd((status, reason) -> {
            Flow.Subscription s = bridge.subscription;
            if (s != null && status != Status.OK) {
                s.cancel();
            }
        });
        publisher.subscribe(bridge);
    }

    private void demand(int messages) {
        Flow.Subscription s = subscription;
        if (s != null) {
            s.request(messages);
            return;
        }
        early.addAndGet(messages);
        s = subscription;
        if (s != null) {
            long pending = early.getAndSet(0);
            if (pending > 0) {
                s.request(pending);
            }
        }
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        if (subscription != null) {
            s.cancel();
            return;
        }
        subscription = s;
        if (!stream.isOpen()) {
            s.cancel();
            return;
        }
        long pending = early.getAndSet(0);
        if (pending > 0) {
            s.request(pending);
        }
    }

    @Override
    public void onNext(Object item) {
        try {
            stream.send(item);
        } catch (StreamException e) {
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stream.end(StatusTable.SERVER_ERROR.status(), "the publisher's thread was interrupted");
        }
    }

    @Override
    public void onError(Throwable error) {
        stream.end(errorStatus, String.valueOf(error));
    }

    @Override
    public void onComplete() {
        stream.complete();
    }
}
