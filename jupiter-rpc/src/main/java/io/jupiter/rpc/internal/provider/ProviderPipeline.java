package io.jupiter.rpc.internal.provider;

import io.jupiter.common.LogText;
import io.jupiter.common.ThrottledWarning;
import io.jupiter.rpc.flow.FlowLimiter;
import io.jupiter.rpc.internal.AdaptiveDispatch;
import io.jupiter.rpc.internal.SyncWaits;
import io.jupiter.rpc.internal.Throwables;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.rpc.security.Authorizer;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.serialization.ArgumentTypes;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.jupiter.transport.TransportAddresses;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provider's one pipeline: every request goes through these stages, in this order, here and nowhere else.
 * <ol>
 * <li><b>admission</b>, on the IO thread ({@link #received}): requests only; {@code SERVER_BUSY} while draining;
 *     the connection's own limits ({@link ConnectionLoad}: requests in flight, bytes of unread bodies;
 *     {@code SERVER_BUSY}); the application-wide flow limiter, before the body is read ({@code APP_FLOW_CONTROL});
 *     then the hand-over to the provider pool ({@code SERVER_BUSY} when it is full), or a run on the IO thread when
 *     there is no pool. Once a service with methods that may run on the IO threads is registered (declared
 *     {@link io.jupiter.rpc.NonBlocking}, or learned: {@link AdaptiveDispatch}), the IO thread reads and looks up
 *     every request of up to 16 KiB whose serializer reads the envelope first, and hands over only calls of methods
 *     that run on the pool (larger requests are read on the pool, and run there);</li>
 * <li><b>read</b> ({@link #read}): the serializer must be accepted and the body readable ({@code BAD_REQUEST}
 *     otherwise; the connection is closed unless the failure left the framing intact). The serializer reads the
 *     envelope (service, method) first and runs the next stage before it reads any argument
 *     ({@link io.jupiter.serialization.Serializer#readRequest}; Java serialization and Kryo put the arguments
 *     first, so with them it runs after);</li>
 * <li><b>lookup</b> ({@link #envelopeRead}), from the envelope alone: the service ({@code SERVICE_NOT_FOUND}),
 *     the serializers it is pinned to ({@code BAD_REQUEST}), the method ({@code SERVICE_UNEXPECTED_ERROR} with a
 *     {@code NoSuchMethodException}, as in 1.3.1), the {@link Authorizer} ({@code BAD_REQUEST}); a request refused
 *     here has no argument read. Otherwise the arguments are read against the method's parameter types, and one of
 *     another type is answered {@code BAD_REQUEST} (connection kept);</li>
 * <li><b>interceptors and context</b> ({@link ProviderCall}): the deadline, {@code before}, {@code enterMethod},
 *     {@code RpcContext}; only when the service has interceptors or the request carries attachments;</li>
 * <li><b>invocation</b> ({@link #invoke}): method resolution, the call, the method timer, and the status of a
 *     failure ({@code SERVICE_EXPECTED_ERROR} if the method declares it, else {@code SERVICE_UNEXPECTED_ERROR});
 *     a returned {@code CompletionStage} is answered when it completes;</li>
 * <li><b>response</b> ({@link ResponseWriter}), then {@code afterInvoke}.</li>
 * </ol>
 */
final class ProviderPipeline {

    private static final Logger log = LoggerFactory.getLogger(ProviderPipeline.class);
    /** Warnings a peer can trigger with every request it sends: at most one line a second per peer. */
    private static final ThrottledWarning badRequests = new ThrottledWarning(log, 1, TimeUnit.SECONDS);

    private final ServerRuntime runtime;
    /** {@code null}: requests run on the IO threads (but for services with executors of their own). */
    private final ProviderExecutor pool;
    private final RpcMetrics metrics;
    private final LongAdder received = new LongAdder();
    private volatile FlowLimiter appFlowLimiter;
    private volatile boolean draining;
    private volatile boolean sendStackTraces;
    /** Whether the IO thread reads each request to see if its method may run there (some methods never block). */
    private volatile boolean readOnIoThreads;

    ProviderPipeline(ServerRuntime runtime, ProviderExecutor pool, RpcMetrics metrics) {
        this.runtime = runtime;
        this.pool = pool;
        this.metrics = metrics;
    }

    RpcMetrics metrics() {
        return metrics;
    }

    /** The application-wide flow limiter, or {@code null}. */
    void appFlowLimiter(FlowLimiter limiter) {
        this.appFlowLimiter = limiter;
    }

    /** Whether errors sent to callers keep their stack traces (off: a remote peer learns nothing of our code). */
    void sendStackTraces(boolean send) {
        this.sendStackTraces = send;
    }

    boolean sendsStackTraces() {
        return sendStackTraces;
    }

    /** From now on the IO threads read requests and run the calls of methods that never block. */
    void readOnIoThreads() {
        this.readOnIoThreads = true;
    }

    /** Whether {@link #startDraining} was called. */
    boolean isDraining() {
        return draining;
    }

    /** From now on every new request is answered {@code SERVER_BUSY}. */
    void startDraining() {
        draining = true;
    }

    /** Requests received so far. */
    long receivedCount() {
        return received.sum();
    }

    // ---- admission (IO thread) ----

    /** @param open what the server keeps of the connection; {@code null} if it is not (or no longer) open */
    void received(Connection connection, OpenConnection open, Frame frame) {
        if (frame.messageCode() != ProtocolHeader.REQUEST) {
            // The decoder of a provider's connections passes requests and heartbeats only; this is a safety net.
            badRequests.warnFor(TransportAddresses.ipOf(connection.remoteAddress()),
                    "dropping a frame with message code 0x{} from {}: a provider accepts only requests",
                    Integer.toHexString(frame.messageCode()), connection.remoteAddress());
            frame.release();
            return;
        }
        metrics.request(frame.body().readableBytes());
        received.increment();
        ProviderRequest request = new ProviderRequest(this, connection, open, frame);
        if (draining) {
            frame.release();
            request.refuse(Status.SERVER_BUSY, "provider busy: shutting down", false);
            return;
        }
        ConnectionLoad load = open == null ? null : open.load;
        if (load != null) {
            String overloaded = load.admit(request.bodyBytes);
            if (overloaded != null) {
                frame.release();
                request.refuse(Status.SERVER_BUSY, "provider busy: " + overloaded, false);
                return;
            }
            request.admitted(load);
        }
        FlowLimiter appFlow = appFlowLimiter;
        if (appFlow != null && !appFlow.tryAcquire()) {
            request.bodyDone();
            request.refuse(Status.APP_FLOW_CONTROL, "application flow control refused the request: " + appFlow,
                    false);
            return;
        }
        if (pool == null) {
            request.run();
        } else if (readOnIoThreads && readsOnIoThread(request)) {
            serveOrHandOver(request);
        } else {
            handOver(request, pool);
        }
    }

    /**
     * Whether the IO thread reads {@code request} to see where its method runs: only a small body, whose serializer
     * reads the envelope first. A larger body, or one whose arguments come first (Java serialization, Kryo), could
     * keep the IO thread reading for long (a hostile body up to the read limits: many milliseconds), so the pool
     * reads it, and runs its method too.
     */
    private boolean readsOnIoThread(ProviderRequest request) {
        if (request.bodyBytes > AdaptiveDispatch.MAX_BODY_READ_ON_IO_THREAD) {
            return false;
        }
        Serializer serializer = runtime.acceptedSerializer(request.serializerCode);
        return serializer != null && serializer.readsEnvelopeFirst();
    }

    /**
     * Gives the request to {@code executor}, which ends it; when that is full, answers {@code SERVER_BUSY} and ends
     * it.
     */
    private void handOver(ProviderRequest request, ProviderExecutor executor) {
        try {
            executor.execute(request);
        } catch (RejectedExecutionException e) {
            request.bodyDone();
            ended(request);
            request.refuse(Status.SERVER_BUSY, "provider busy: " + busyDetail(executor), false);
        }
    }

    /** Gives a request read and looked up to its service's executor, or else to the server's pool. */
    private void handOverRead(ProviderRequest request) {
        ProviderExecutor own = request.service.executor();
        if (own != null) {
            request.onServiceExecutor = true;
            handOver(request, own);
        } else {
            handOver(request, pool);
        }
    }

    /** An admitted request ended (served, or dropped): it no longer counts against the limits that admitted it. */
    void ended(ProviderRequest request) {
        FlowLimiter appFlow = appFlowLimiter;
        if (appFlow != null) {
            appFlow.release();
        }
        request.leave();
    }

    private String busyDetail(ProviderExecutor executor) {
        if (draining || executor.isShutdown()) {
            return "shutting down";
        }
        return executor.busyDetail();
    }

    // ---- the rest, on a provider thread (or the IO thread with no pool) ----

    void serve(ProviderRequest request) {
        boolean handedOver = false;
        try {
            if (request.message == null && !readAndLookUp(request)) {
                return;
            }
            AdaptiveDispatch dispatch = request.dispatch;
            if (!request.onServiceExecutor && request.service.executor() != null && !dispatch.runsOnIoThread()) {
                // Read here (too large for the IO thread, say); the call belongs to its service's executor.
                handedOver = true;
                handOverRead(request);
                return;
            }
            if (dispatch != null && dispatch.timed()) {
                proceedTimed(request, dispatch, false);
            } else {
                proceed(request);
            }
        } finally {
            if (!handedOver) {
                ended(request);
            }
        }
    }

    /**
     * On the IO thread: reads the request and finds its service here, then runs the call here if its method never
     * blocks, else hands it, read, to the pool.
     */
    private void serveOrHandOver(ProviderRequest request) {
        boolean handedOver = false;
        try {
            if (!readAndLookUp(request)) {
                return;
            }
            AdaptiveDispatch dispatch = request.dispatch;
            if (dispatch.runsOnIoThread()) {
                if (dispatch.timed()) {
                    proceedTimed(request, dispatch, true);
                } else {
                    proceed(request);
                }
            } else {
                handedOver = true;
                handOverRead(request);
            }
        } finally {
            if (!handedOver) {
                ended(request);
            }
        }
    }

    /**
     * The read and lookup stages (the serializer runs the lookup, {@link #envelopeRead}, once the envelope is read);
     * {@code false} once the request was refused.
     */
    private boolean readAndLookUp(ProviderRequest request) {
        MessageWrapper message = read(request);
        if (message == null) {
            return false;
        }
        request.message = message;
        return true;
    }

    /** The interceptor, invocation and response stages, for a request read and looked up. */
    private void proceed(ProviderRequest request) {
        ProviderCall call = ProviderCall.startIfNeeded(request.service, request.message, request);
        if (call != null && !call.admit(request)) {
            return;
        }
        invoke(request, request.service, request.message, call);
    }

    /**
     * {@link #proceed}, timed for the request's {@link AdaptiveDispatch}, which learns from it whether the method may
     * run on the IO threads. The time is the application's: interceptors' {@code before} and the method, up to the
     * answer (our own writing of the answer is left out).
     */
    private void proceedTimed(ProviderRequest request, AdaptiveDispatch dispatch, boolean onIoThread) {
        long waitsBefore = SyncWaits.count();
        request.timed = true;
        long started = System.nanoTime();
        request.startedNanos = started;
        try {
            proceed(request);
        } finally {
            // Answered here (the usual case), or by a stage on another thread, maybe just after this call ended:
            // either way the time of the answer. Not answered yet: the time until now.
            long answering = request.answeringNanos;
            long took = (answering != 0L ? answering : System.nanoTime()) - started;
            dispatch.ran(took, waitsBefore, onIoThread);
        }
    }

    /** The request's message, or {@code null} once it was refused. Releases the frame. */
    private MessageWrapper read(ProviderRequest request) {
        Frame frame = request.frame;
        MessageWrapper message;
        try {
            Serializer serializer = runtime.acceptedSerializer(request.serializerCode);
            if (serializer == null) {
                refuseSerializer(request);
                return null;
            }
            request.serializer = serializer;
            message = serializer.readRequest(frame.body(), request);
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
            boolean close = ProviderFailures.breaksConnection(e);
            badRequests.warnFor(request.peer(), "{}{}: cannot read request {}: {}", close ? "closing " : "",
                    request.connection.remoteAddress(), request.id, LogText.of(e.getMessage()));
            request.refuse(ProviderFailures.statusOf(e, ProviderFailures.Where.READ, null),
                    "the provider cannot read the request: " + e.getMessage(), close);
            return null;
        } finally {
            request.bodyDone();
        }
        if (request.refusedStatus != null) {
            request.answerRefusal();
            return null;
        }
        if (message == null || request.service == null) {
            request.refuse(Status.BAD_REQUEST, "the request names no service", true);
            return null;
        }
        return message;
    }

    /**
     * The lookup stage, run by the serializer as soon as the envelope is read: finds the service and the method,
     * checks the serializer and the caller, and returns what the arguments may be; or records the refusal and
     * returns {@code null}, and the arguments are not read.
     */
    ArgumentTypes envelopeRead(ProviderRequest request, ServiceMetadata metadata, String methodName) {
        if (metadata == null) {
            request.refuseLater(Status.BAD_REQUEST, "the request names no service", true);
            return null;
        }
        ServiceEntry service = runtime.service(metadata);
        if (service == null) {
            request.refuseLater(Status.SERVICE_NOT_FOUND, "service not found: " + metadata.directory(), false);
            return null;
        }
        if (!service.acceptsSerializer(request.serializerCode)) {
            SerializerType used = SerializerType.fromCode(request.serializerCode);
            request.refuseLater(Status.BAD_REQUEST, "service " + service.key() + " accepts only "
                    + service.pinnedSerializers() + " serializers, not " + (used == null ? "code "
                    + request.serializerCode : used.id()), false);
            return null;
        }
        ArgumentTypes types = service.argumentTypes(methodName);
        if (types == null) {
            request.refuseLater(Status.SERVICE_UNEXPECTED_ERROR, new NoSuchMethodException(
                    service.serviceInterface().getName() + "." + methodName), false);
            return null;
        }
        Authorizer authorizer = runtime.authorizer();
        if (authorizer != null) {
            CallerIdentity caller = request.caller();
            if (!authorizer.permits(caller, service.key(), methodName)) {
                badRequests.warnFor(request.peer(), "{}: request {} refused: caller {} may not call {}.{}",
                        request.connection.remoteAddress(), request.id, LogText.of(caller.toString()),
                        service.key(), LogText.of(methodName));
                request.refuseLater(Status.BAD_REQUEST, "caller " + caller + " is not authorized to call "
                        + service.key() + "." + methodName, false);
                return null;
            }
        }
        request.service = service;
        request.dispatch = service.dispatch(methodName);
        return types;
    }

    private void refuseSerializer(ProviderRequest request) {
        Serializer known = Serializers.find(request.serializerCode);
        String why = known == null
                ? "the provider has no serializer with code " + request.serializerCode
                : "the provider does not accept the " + known.type().id() + " serializer"
                        + " (enable it with JupiterServer.Builder.serializers)";
        badRequests.warnFor(request.peer(), "closing {}: request {} refused: {}", request.connection.remoteAddress(),
                request.id, why);
        request.refuse(Status.BAD_REQUEST, why, true);
    }

    private void invoke(ProviderRequest request, ServiceEntry service, MessageWrapper message, ProviderCall call) {
        DefaultInvocation outer = call == null ? null : call.enter();
        MethodEntry method = null;
        Object result;
        // One clock read each for the start and the end, shared by the method timer and adaptive dispatch.
        long started = !metrics.enabled() ? 0L : request.timed ? request.startedNanos : System.nanoTime();
        long done;
        try {
            method = service.resolve(message.getMethodName(), message.getArgs());
            request.method = method;
            result = method.invoke(message.getArgs());
            done = doneNanos(request, started);
            metrics.methodDone(method, service.key(), method.method.getName(), started, done);
        } catch (Throwable t) {
            done = doneNanos(request, started);
            if (call != null) {
                call.exit(outer);
            }
            if (method != null) {
                metrics.methodDone(method, service.key(), method.method.getName(), started, done);
            }
            Throwable cause = Throwables.unwrap(t);
            Status status = ProviderFailures.statusOf(cause, ProviderFailures.Where.METHOD, method);
            request.respond(status, cause, done);
            ProviderCall.end(call, status, null, cause);
            return;
        }
        if (call != null) {
            call.exit(outer);
        }
        if (method.returnsStage && result != null) {
            ((CompletionStage<?>) result).whenComplete((value, error) -> {
                if (error == null) {
                    request.respond(Status.OK, value);
                    ProviderCall.end(call, Status.OK, value, null);
                } else {
                    Throwable cause = Throwables.unwrap(error);
                    Status status = ProviderFailures.statusOf(cause, ProviderFailures.Where.COMPLETION, null);
                    request.respond(status, cause);
                    ProviderCall.end(call, status, null, cause);
                }
            });
            return;
        }
        request.respond(Status.OK, result, done);
        ProviderCall.end(call, Status.OK, result, null);
    }

    /** The clock when a method returned, if the method timer or adaptive dispatch needs it; else 0. */
    private static long doneNanos(ProviderRequest request, long started) {
        return started != 0L || request.timed ? System.nanoTime() : 0L;
    }
}
