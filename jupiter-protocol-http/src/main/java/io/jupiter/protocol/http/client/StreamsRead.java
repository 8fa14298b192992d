package io.jupiter.protocol.http.client;

import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.internal.StatusTable;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The calls whose stream to send an attempt has read: the caller's publisher is read once, so another attempt of
 * the same call (a fail-over's retry, a hedge) is refused, not sent, naming the first attempt's failure. An attempt
 * is known by its call's arguments (the array every attempt of one call shares), held weakly: forgotten with the
 * call.
 */
final class StreamsRead {

    /** The arguments of calls whose stream was read, with the outcome of the attempt that read it. */
    private final Map<Object[], CompletableFuture<Object>> read = Collections.synchronizedMap(new WeakHashMap<>());

    /** The stream of the call of {@code arguments} is being read by the attempt whose outcome is {@code attempt}. */
    void reading(Object[] arguments, CompletableFuture<Object> attempt) {
        read.putIfAbsent(arguments, attempt);
    }

    /** Why an attempt of the call of {@code arguments} cannot be sent; {@code null} if its stream was not read. */
    RpcException refusal(Object[] arguments, String where) {
        CompletableFuture<Object> first = read.get(arguments);
        if (first == null) {
            return null;
        }
        Throwable failure = null;
        if (first.isCompletedExceptionally()) {
            try {
                first.join();
            } catch (CompletionException | CancellationException e) {
                failure = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            }
        }
        return new RpcException(StatusTable.CLIENT_ERROR.status(), where + ": not sent: an earlier attempt of this"
                + " call read its stream to send, which is read once (a client stream is not retried or hedged)"
                + (failure == null ? "" : "; that attempt failed: " + failure.getMessage()), failure);
    }
}
