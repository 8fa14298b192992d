package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.exception.PayloadTooLargeException;
import io.jupiter.rpc.exception.RequestNotSentException;
import io.jupiter.rpc.exception.SerializationFailedException;
import io.jupiter.rpc.internal.InvokeIds;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.WorkerPool;
import io.jupiter.rpc.internal.balance.Endpoint;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.netty.buffer.ByteBuf;
import io.netty.util.Timer;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * The last stage of every consumer call, and the only place one is dispatched: one <em>attempt</em> chooses a
 * provider (the {@link ConnectionSelector}'s load balancer), serializes the request on the caller's thread, writes
 * it and then waits (sync) or returns a future (async). The {@link ClusterStage cluster stage} above decides how many
 * attempts a call makes and on which providers; everything above that sees one call.
 *
 * <p>Each attempt is timed in the method's timer (metrics), from the choice of its provider to its outcome, and
 * carries the attachments of the call's {@link DefaultInvocation} (if it has one), with the deadline computed for
 * that attempt.
 */
final class Dispatch {

    final ProxySettings settings;
    private final ServiceMetadata metadata;
    private final Serializer serializer;
    private final byte requestSign;
    private final ConnectionSelector selector;
    final InFlightCalls calls;
    /** Tells providers that take them which calls their callers stopped waiting for. */
    final CallCancels cancels;
    private final Timer timer;
    /** Completes async calls; {@code null}: the IO thread that read the response does. */
    final WorkerPool consumerPool;
    /** The application's executor that completes async calls instead; {@code null}: none. */
    final Executor callbackExecutor;
    /** Whether completions of async calls move from the consumer pool to the IO threads once they prove fast. */
    final boolean learnsCompletions;
    final RpcMetrics metrics;
    /** The proxy's retry budget, drawn on by fail-over retries and hedges. */
    final RetryThrottle retryBudget;
    /** The attempts of a proxy whose providers speak a foreign protocol; {@code null}: the 1.3.1 frame. */
    private final ForeignAttempts foreign;

    Dispatch(ProxySettings settings, Serializer serializer, ConnectionSelector selector, InFlightCalls calls,
             CallCancels cancels, Timer timer, WorkerPool consumerPool, Executor callbackExecutor,
             boolean learnsCompletions, RpcMetrics metrics) {
        this.settings = settings;
        this.metadata = new ServiceMetadata(settings.key.group(), settings.key.name(), settings.key.version());
        this.serializer = serializer;
        this.requestSign = ProtocolHeader.toSign(serializer.type().code(), ProtocolHeader.REQUEST);
        this.selector = selector;
        this.calls = calls;
        this.cancels = cancels;
        this.timer = timer;
        this.consumerPool = consumerPool;
        this.callbackExecutor = callbackExecutor;
        this.learnsCompletions = learnsCompletions && consumerPool != null && callbackExecutor == null;
        this.metrics = metrics;
        this.retryBudget = new RetryThrottle(settings.retryBudget);
        this.foreign = settings.protocol == null ? null
                : new ForeignAttempts(settings.protocol, settings.key, settings.propagateDeadline, callbackExecutor,
                        calls);
    }

    /** The client's timer wheel (timeouts, hedges). */
    Timer timer() {
        return timer;
    }

    /** The wire code of the serializer requests are written with. */
    Serializer serializer() {
        return serializer;
    }

    byte serializerCode() {
        return serializer.type().code();
    }

    ConnectionSelector selector() {
        return selector;
    }

    /**
     * The provider of the next attempt, chosen by the load balancer: one other than {@code excluded} if possible,
     * waiting within the method's timeout while none is connected.
     */
    Endpoint select(MethodInfo info, Endpoint excluded) {
        return selector.select(info, excluded);
    }

    /** One synchronous attempt on {@code endpoint} (from {@link #select}): the value, or the failure thrown. */
    Object sync(MethodInfo info, Object[] arguments, DefaultInvocation invocation, Endpoint endpoint)
            throws Throwable {
        PendingCall call = foreign != null ? null
                : PendingCall.sync(InvokeIds.next(), info, connectionOf(endpoint, info), calls, cancels);
        long started = metrics.startNanos();
        boolean countsActive = selector.countsActive(endpoint);
        boolean tracks = selector.tracksAttempts(endpoint);
        long attemptStart = tracks ? System.nanoTime() : 0L;
        if (countsActive) {
            endpoint.active().incrementAndGet();
        }
        Throwable error = null;
        try {
            if (call == null) {
                return foreign.sync(info, arguments, invocation, endpoint);
            }
            send(call, arguments, invocation, true);
            return call.await();
        } catch (Throwable e) {
            error = e;
            throw e;
        } finally {
            if (countsActive) {
                endpoint.active().decrementAndGet();
            }
            if (tracks) {
                selector.attemptEnded(endpoint, attemptStart, error);
            }
            metrics.methodDone(info, settings.key, info.name, started);
        }
    }

    /** The targets of a broadcast: every provider, connected, in provider order. */
    Endpoint[] broadcastTargets(MethodInfo info) {
        return selector.allConnected(info);
    }

    /**
     * One asynchronous attempt on {@code endpoint}; never throws: every failure completes the future.
     *
     * @param single whether it is the call's only attempt in flight (not one provider's share of a broadcast): then
     *               the invocation records the provider's address
     */
    InvokeFuture<Object> async(MethodInfo info, Object[] arguments, DefaultInvocation invocation, Endpoint endpoint,
                               boolean single) {
        InvokeFuture<Object> future = new InvokeFuture<>(InvokeIds.next());
        sendAsync(info, arguments, invocation, endpoint, single, future);
        return future;
    }

    /**
     * Sends one asynchronous attempt on {@code endpoint} that completes {@code future} (whose id the request
     * carries); a failure to send completes it too.
     *
     * @return the attempt's pending call, which {@link #cancel} stops waiting for; {@code null} when it was not sent
     */
    PendingCall sendAsync(MethodInfo info, Object[] arguments, DefaultInvocation invocation, Endpoint endpoint,
                          boolean single, InvokeFuture<Object> future) {
        try {
            PendingCall call = foreign != null ? null
                    : PendingCall.async(future.invokeId(), info, connectionOf(endpoint, info), this, future);
            boolean countsActive = selector.countsActive(endpoint);
            boolean tracks = selector.tracksAttempts(endpoint);
            if (countsActive || tracks) {
                if (countsActive) {
                    endpoint.active().incrementAndGet();
                }
                long attemptStart = System.nanoTime();
                future.whenComplete((value, error) -> attemptEnded(endpoint, countsActive, tracks, attemptStart,
                        error));
            }
            if (call == null) {
                long started = metrics.startNanos();
                future.whenComplete((value, error) -> asyncAttemptDone(info, started));
                foreign.async(info, arguments, invocation, endpoint, single, future);
                return null; // ended through its future ({@link #cancel(PendingCall, InvokeFuture, String)})
            }
            future.onCancel(() -> cancel(call, "the caller cancelled it"));
            // Its timeout is found by the client's TimeoutSweep.
            send(call, arguments, invocation, single);
            return call;
        } catch (RuntimeException e) {
            future.completeExceptionally(e);
            return null;
        }
    }

    private void attemptEnded(Endpoint endpoint, boolean countsActive, boolean tracks, long attemptStart,
                              Throwable error) {
        if (countsActive) {
            endpoint.active().decrementAndGet();
        }
        if (tracks) {
            selector.attemptEnded(endpoint, attemptStart, error);
        }
    }

    /**
     * Stops waiting for an attempt another one made redundant: its future fails with {@link AttemptCancelled}, its
     * slot and timer are freed, its provider is told ({@link CallCancels}), and a response that still comes is
     * dropped. Nothing if it has ended already.
     */
    void cancel(PendingCall call, String why) {
        if (call != null && calls.remove(call)) {
            cancels.cancel(call);
            call.failed(new AttemptCancelled(why));
        }
    }

    /**
     * {@link #cancel(PendingCall, String)}, or for an attempt of a foreign protocol (no pending call) its future
     * failed with {@link AttemptCancelled}, which ends the protocol's attempt.
     */
    void cancel(PendingCall call, InvokeFuture<?> attempt, String why) {
        if (call != null) {
            cancel(call, why);
        } else if (foreign != null && attempt != null) {
            attempt.completeExceptionally(new AttemptCancelled(why));
        }
    }

    /** Serializes and writes the request of one attempt. */
    private void send(PendingCall call, Object[] arguments, DefaultInvocation invocation, boolean single) {
        MethodInfo info = call.method;
        Connection connection = call.connection;
        Map<String, String> attachments = null;
        if (invocation != null) {
            // May refuse the attempt (an inherited deadline that passed): before it takes a slot.
            attachments = invocation.attemptAttachments(settings.propagateDeadline, info.timeoutMillis);
            if (single) {
                invocation.remoteAddress(connection.remoteAddress());
                invocation.invokeId(call.id);
            }
        }
        calls.acquire(info);
        boolean added = false;
        try {
            MessageWrapper message = new MessageWrapper(settings.appName, metadata, info.name, arguments,
                    attachments);
            // A heap buffer on an application thread (14 % of the callers' time at async 32 went to the pooled
            // arena's lock).
            ByteBuf frame = Frames.newFrameOnCallingThread(connection.alloc(), info.lastBodySize);
            try {
                serializer.write(frame, message);
            } catch (RuntimeException e) {
                frame.release();
                throw new SerializationFailedException(StatusTable.CLIENT_ERROR.status(),
                        "cannot write the request of " + info
                        + " with " + serializer.type().id() + ": " + e.getMessage(), e);
            }
            int bodySize = frame.readableBytes() - ProtocolHeader.HEADER_SIZE;
            if (bodySize > connection.maxBodySize()) {
                frame.release();
                throw new PayloadTooLargeException(StatusTable.CLIENT_ERROR.status(),
                        "the request of " + info + " is " + bodySize
                        + " bytes, above the " + connection.maxBodySize() + "-byte body cap: not sent");
            }
            info.lastBodySize = bodySize;
            metrics.request(bodySize);
            if (invocation != null) {
                invocation.requestBytes(bodySize);
            }
            Frames.fillHeader(frame, requestSign, (byte) 0, call.id);
            calls.add(call);
            added = true;
            // No per-write listener (it costs a promise and a listener a call): a write fails only when the
            // connection closes, and a closing connection fails its calls (ConsumerFrameHandler.disconnected).
            connection.write(frame);
            call.failIfConnectionClosed();
        } finally {
            if (!added) {
                calls.release();
            }
        }
    }

    /** An asynchronous attempt ended; {@code startNanos} from {@code metrics.startNanos()}. */
    void asyncAttemptDone(MethodInfo info, long startNanos) {
        metrics.methodDone(info, settings.key, info.name, startNanos);
    }

    /** {@link #asyncAttemptDone(MethodInfo, long)} at {@code nowNanos}, a clock read just taken. */
    void asyncAttemptDone(MethodInfo info, long startNanos, long nowNanos) {
        metrics.methodDone(info, settings.key, info.name, startNanos, nowNanos);
    }

    private Connection connectionOf(Endpoint endpoint, MethodInfo info) {
        Connection connection = ConnectionSelector.connectionOf(endpoint);
        if (connection == null) {
            // Its last connection closed since it was chosen: choose again, waiting within the call's timeout while
            // nothing is connected (as for a call that finds nothing connected in the first place).
            connection = ConnectionSelector.connectionOf(selector.select(info, null));
        }
        if (connection == null) {
            throw new RequestNotSentException("no connection to " + endpoint.address() + " for " + info
                    + " (it closed just now)", null);
        }
        return connection;
    }
}
