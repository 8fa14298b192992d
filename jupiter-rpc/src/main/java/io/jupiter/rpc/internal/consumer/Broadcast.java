package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.exception.BroadcastException;
import io.jupiter.rpc.internal.InvokeIds;
import io.jupiter.rpc.internal.balance.Endpoint;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One call sent to every provider ({@link io.jupiter.rpc.cluster.ClusterStrategy#broadcast()}): one attempt per
 * provider, gathered into one future of the list of results in provider order, or failed at the first failure with
 * a {@link BroadcastException} naming the provider.
 */
final class Broadcast {

    /** Sends the call to one provider. */
    @FunctionalInterface
    interface Attempt {
        InvokeFuture<Object> send(Endpoint endpoint);
    }

    private Broadcast() {
    }

    /**
     * Sends to each of {@code targets} in order. If sending to one fails at once (the request could not even be
     * written, e.g. not serializable), the rest are not sent: that failure is the broadcast's.
     */
    static InvokeFuture<Object> invoke(MethodInfo info, Endpoint[] targets, Attempt attempt) {
        InvokeFuture<Object> all = new InvokeFuture<>(InvokeIds.next());
        Object[] results = new Object[targets.length];
        AtomicInteger remaining = new AtomicInteger(targets.length);
        String call = "broadcast of " + info + " to " + targets.length + " providers";
        for (int i = 0; i < targets.length; i++) {
            Endpoint target = targets[i];
            int index = i;
            InvokeFuture<Object> one = attempt.send(target);
            one.whenComplete((value, error) -> {
                if (error != null) {
                    all.completeExceptionally(new BroadcastException(call, target.address(), error));
                    return;
                }
                results[index] = value;
                // The decrement publishes results[index] to whoever completes the list.
                if (remaining.decrementAndGet() == 0) {
                    all.complete(Arrays.asList(results));
                }
            });
            if (one.isCompletedExceptionally()) {
                break;
            }
        }
        return all;
    }
}
