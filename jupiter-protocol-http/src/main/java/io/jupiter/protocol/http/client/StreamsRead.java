package io.jupiter.protocol.http.client;

import io.jupiter.rpc.exception.RequestNotSentException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.internal.StatusTable;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Which attempt of a client-streaming call sends its stream: the caller's publisher is read once, so one attempt
 * at a time claims it. Another attempt of the same call is refused, not sent: while the claiming attempt runs (a
 * hedge) as {@link RequestNotSentException}, so the call waits for that attempt; once it ended having subscribed to
 * the publisher (a fail-over's retry) as {@code CLIENT_ERROR}, naming its failure, so the call ends with it. A claim
 * whose attempt ended without subscribing (no connection, the stream cap) passes to the next attempt. An attempt is
 * known by its call's arguments (the array every attempt of one call shares), held weakly: forgotten with the call.
 */
final class StreamsRead {

    /** The attempt that claimed a call's stream, and whether it subscribed to the publisher. */
    private record Claim(CompletableFuture<Object> attempt, AtomicBoolean read) {
    }

    /** Guarded by itself. */
    private final Map<Object[], Claim> claims = new WeakHashMap<>();

    /**
     * Claims the stream of the call of {@code arguments} for {@code attempt}: the returned flag is to be set when
     * the publisher is subscribed to.
     *
     * @throws RpcException when another attempt claimed it (above)
     */
    AtomicBoolean claim(Object[] arguments, CompletableFuture<Object> attempt, String where) {
        synchronized (claims) {
            Claim earlier = claims.get(arguments);
            if (earlier != null && !earlier.attempt().isDone()) {
                throw new RequestNotSentException(where + ": not sent: an earlier attempt of this call is sending its"
                        + " stream, which is read once (a client stream is not hedged)", null);
            }
            if (earlier != null && earlier.read().get()) {
                Throwable failure = failure(earlier.attempt());
                throw new RpcException(StatusTable.CLIENT_ERROR.status(), where + ": not sent: an earlier attempt of"
                        + " this call read its stream to send, which is read once (a client stream is not retried)"
                        + (failure == null ? "" : "; that attempt failed: " + failure.getMessage()), failure);
            }
            Claim mine = new Claim(attempt, new AtomicBoolean());
            claims.put(arguments, mine);
            return mine.read();
        }
    }

    private static Throwable failure(CompletableFuture<Object> attempt) {
        if (!attempt.isCompletedExceptionally()) {
            return null;
        }
        try {
            attempt.join();
            return null;
        } catch (CompletionException e) {
            return e.getCause() == null ? e : e.getCause();
        } catch (CancellationException e) {
            return e;
        }
    }
}
