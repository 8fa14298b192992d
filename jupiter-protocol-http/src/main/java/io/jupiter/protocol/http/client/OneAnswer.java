package io.jupiter.protocol.http.client;

import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.internal.StatusTable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * The one answer of a client-streaming call, read from its {@link StreamingCall} into the attempt's future: the
 * message, then the trailers' OK. No message, or a second one, fails the call (a server error); the future's
 * failure or cancel by the caller (its timeout, a cancelled future) cancels the call, which resets its stream.
 */
final class OneAnswer implements Flow.Subscriber<Object> {

    final CompletableFuture<Object> result;
    private final String where;
    private Object value;

    OneAnswer(CompletableFuture<Object> result, String where) {
        this.result = result;
        this.where = where;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        result.whenComplete((v, error) -> {
            if (error != null) {
                s.cancel();
            }
        });
        s.request(2); // the answer, and a second one to refuse
    }

    @Override
    public void onNext(Object item) {
        if (value != null) {
            result.completeExceptionally(new RpcException(StatusTable.SERVER_ERROR.status(), where
                    + ": a second response message to a client stream (one expected): stream reset"));
            return;
        }
        value = item;
    }

    @Override
    public void onError(Throwable error) {
        result.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        if (value == null) {
            result.completeExceptionally(new RpcException(StatusTable.SERVER_ERROR.status(), where
                    + ": OK with no response message"));
            return;
        }
        result.complete(value);
    }
}
