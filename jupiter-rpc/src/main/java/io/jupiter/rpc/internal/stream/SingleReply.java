package io.jupiter.rpc.internal.stream;

import io.jupiter.rpc.internal.Throwables;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A client-streaming method's answer (a value, {@code null}, or a {@link CompletionStage} of one) as a publisher of
 * at most one message, so that it leaves the provider like any stream: one message against the consumer's credit,
 * then the end ({@code null}: the end alone). A failed stage ends the stream with its error.
 */
public final class SingleReply {

    private SingleReply() {
    }

    public static Flow.Publisher<Object> of(Object result) {
        CompletionStage<?> stage = result instanceof CompletionStage<?> s ? s
                : CompletableFuture.completedFuture(result);
        return subscriber -> subscriber.onSubscribe(new Flow.Subscription() {
            private final AtomicBoolean requested = new AtomicBoolean();
            private volatile boolean cancelled;

            @Override
            public void request(long n) {
                if (!requested.compareAndSet(false, true)) {
                    return;
                }
                if (n <= 0) {
                    subscriber.onError(new IllegalArgumentException("request: " + n + " (expected: > 0)"));
                    return;
                }
                stage.whenComplete((value, error) -> {
                    if (cancelled) {
                        return;
                    }
                    if (error != null) {
                        subscriber.onError(Throwables.unwrap(error));
                        return;
                    }
                    if (value != null) {
                        subscriber.onNext(value);
                    }
                    subscriber.onComplete();
                });
            }

            @Override
            public void cancel() {
                cancelled = true;
            }
        });
    }
}
