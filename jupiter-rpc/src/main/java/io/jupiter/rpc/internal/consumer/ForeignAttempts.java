package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.balance.Endpoint;
import io.jupiter.rpc.internal.filter.Deadlines;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.jupiter.rpc.protocol.ClientProtocol;
import io.jupiter.rpc.protocol.ForeignCall;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The attempts of a proxy whose providers speak a {@link ClientProtocol}: what {@link Dispatch} does instead of
 * writing a 1.3.1 frame. The attempt's attachments and deadline are computed as for a frame (an inherited deadline
 * shortens the timeout), then the protocol sends it on the chosen provider's group. Each attempt holds a slot of the
 * client's window of calls in flight ({@link InFlightCalls}, {@code maxInFlight}) as a 1.3.1 call does: taken before
 * it is sent (waiting within the timeout, then refused {@code CLIENT_TIMEOUT} as a 1.3.1 call is), given back when
 * the attempt ends, however it ends (answer, error, timeout, cancel).
 */
final class ForeignAttempts {

    /** How long a synchronous caller waits past the timeout for the protocol to report it (it always does). */
    private static final long REPORT_GRACE_MILLIS = 1000;

    private final ClientProtocol protocol;
    private final ServiceKey key;
    private final boolean propagateDeadline;
    /** The application's executor that completes async calls; {@code null}: the protocol's IO thread does. */
    private final Executor callbackExecutor;
    /** The client's window of calls in flight, shared with its 1.3.1 calls. */
    private final InFlightCalls window;

    ForeignAttempts(ClientProtocol protocol, ServiceKey key, boolean propagateDeadline, Executor callbackExecutor,
                    InFlightCalls window) {
        this.protocol = protocol;
        this.key = key;
        this.propagateDeadline = propagateDeadline;
        this.callbackExecutor = callbackExecutor;
        this.window = window;
    }

    /**
     * Takes a slot of the client's window (waiting within the attempt's method's timeout; refused as a 1.3.1 call
     * is), then starts the attempt. Returns the protocol's future (to cancel) and the outcome, which completes once
     * the slot is back.
     */
    private Started start(MethodInfo info, Endpoint endpoint, ForeignCall call) {
        window.acquire(info);
        CompletableFuture<Object> attempt;
        try {
            attempt = protocol.call(endpoint.group(), call);
        } catch (RuntimeException e) { // a protocol never throws; should one, the slot is not lost
            window.release();
            throw e;
        }
        return new Started(attempt, attempt.whenComplete((value, error) -> window.release()));
    }

    /** An attempt under way: the protocol's future, and its outcome once its slot is given back. */
    private record Started(CompletableFuture<Object> attempt, CompletableFuture<Object> outcome) {
    }

    /** One synchronous attempt: the value, or the failure thrown. */
    Object sync(MethodInfo info, Object[] arguments, DefaultInvocation invocation, Endpoint endpoint)
            throws Throwable {
        ForeignCall call = call(info, arguments, invocation, endpoint, true);
        Started started = start(info, endpoint, call);
        CompletableFuture<Object> attempt = started.attempt();
        try {
            return started.outcome().get(call.timeoutMillis() + REPORT_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RpcException rpc) {
                rpc.fillInStackTrace(); // raised on an IO thread; the caller's stack is the useful one
            }
            throw cause;
        } catch (TimeoutException e) {
            attempt.cancel(false);
            throw StatusTable.exception(StatusTable.SERVER_TIMEOUT.status(), info + " on " + endpoint.address()
                    + ": no outcome within " + call.timeoutMillis() + " ms", null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            attempt.cancel(false);
            throw new RpcException(StatusTable.CLIENT_ERROR.status(), info + " interrupted while waiting");
        }
    }

    /**
     * One asynchronous attempt completing {@code future}; when {@code future} ends first (cancelled by the caller,
     * or failed with {@link AttemptCancelled} by a hedge that another attempt won) the attempt is cancelled.
     *
     * @throws RuntimeException when it cannot be sent (an inherited deadline that passed, no slot of the client's
     *                          window within the timeout)
     */
    void async(MethodInfo info, Object[] arguments, DefaultInvocation invocation, Endpoint endpoint, boolean single,
               InvokeFuture<Object> future) {
        Started started = start(info, endpoint, call(info, arguments, invocation, endpoint, single));
        CompletableFuture<Object> attempt = started.attempt();
        future.whenComplete((value, error) -> attempt.cancel(false)); // nothing once the attempt ended
        if (callbackExecutor == null) {
            started.outcome().whenComplete((value, error) -> complete(future, value, error));
        } else {
            started.outcome().whenCompleteAsync((value, error) -> complete(future, value, error), callbackExecutor);
        }
    }

    private static void complete(InvokeFuture<Object> future, Object value, Throwable error) {
        if (error == null) {
            future.complete(value);
        } else {
            future.completeExceptionally(error instanceof CompletionException && error.getCause() != null
                    ? error.getCause() : error);
        }
    }

    private ForeignCall call(MethodInfo info, Object[] arguments, DefaultInvocation invocation, Endpoint endpoint,
                             boolean single) {
        Map<String, String> attachments = null;
        long timeoutMillis = info.timeoutMillis;
        if (invocation != null) {
            attachments = invocation.attemptAttachments(propagateDeadline, info.timeoutMillis);
            if (single) {
                invocation.remoteAddress(endpoint.address());
            }
            String deadline = attachments == null ? null : attachments.get(Deadlines.KEY);
            if (deadline != null) {
                attachments = new HashMap<>(attachments);
                attachments.remove(Deadlines.KEY);
                timeoutMillis = Math.min(timeoutMillis, Math.max(1, parseOr(deadline, timeoutMillis)));
            }
        }
        return new ForeignCall(key, info.method, arguments, attachments, timeoutMillis, callbackExecutor);
    }

    private static long parseOr(String millis, long otherwise) {
        try {
            return Long.parseLong(millis);
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }
}
