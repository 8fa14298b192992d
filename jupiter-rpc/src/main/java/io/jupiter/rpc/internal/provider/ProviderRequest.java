package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.flow.FlowLimiter;
import io.jupiter.rpc.internal.AdaptiveConcurrencyLimit;
import io.jupiter.rpc.internal.AdaptiveDispatch;
import io.jupiter.rpc.internal.DecodedRequest;
import io.jupiter.rpc.internal.filter.Deadlines;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.jupiter.rpc.internal.filter.ServedRequest;
import io.jupiter.rpc.internal.stream.StreamOpener;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.serialization.ArgumentTypes;
import io.jupiter.serialization.EnvelopeListener;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.TransportAddresses;
import io.netty.buffer.ByteBuf;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * One request (a call, or a stream's open) on its way down the provider's chain: what it is, where it came from,
 * and what the stages found, each field written by the one stage its comment names. It knows no stage: the chain
 * makes it (a subclass of its own), so that a provider executor can run it ({@link #run}: the chain goes
 * on where it was handed over) and its serializer can tell it the envelope ({@link #envelopeRead}: the service
 * lookup).
 */
abstract class ProviderRequest implements ProviderTask, EnvelopeListener, ServedRequest {

    private static final Object[] NO_ARGS = new Object[0];
    private static final AtomicIntegerFieldUpdater<ProviderRequest> LEFT =
            AtomicIntegerFieldUpdater.newUpdater(ProviderRequest.class, "left");

    final Connection connection;
    /** What the server keeps of the connection; {@code null} if it was not (or no longer) open, and for streams. */
    final OpenConnection open;
    /** Who is on the other end of the connection. */
    final CallerIdentity caller;
    /** The body to read: the request frame's, or the stream open's. */
    final ByteBuf body;
    /** Whether {@link #body} is this request's to release: a call's (a stream's open's is its stream's). */
    private final boolean ownsBody;
    /** The invoke id, or the stream id. */
    final long id;
    final byte serializerCode;
    final long receivedNanos;
    final int bodyBytes;
    /** The stream this request opens; {@code null}: a call. */
    final StreamOpener.Opening stream;
    /**
     * A call handed over already read by a protocol of this process ({@link DecodedRequest}): its message, read by
     * the read stage instead of the body (empty); {@code null}: a body to read.
     */
    final MessageWrapper decoded;
    /** Where the answer to a {@link #decoded} call goes instead of a response frame; {@code null} otherwise. */
    final DecodedRequest.Answers answers;

    /** Whether admission counted this request in its connection's load ({@code open.load}). */
    private boolean admitted;
    /** The permits of limits other than the connection's this request holds; {@code null}: none (the default). */
    private HeldPermits permits;
    /** 1 once the request no longer counts as in flight (answered, or dropped): from any thread, once. */
    private volatile int left;
    /** Whether the frame was released (its body read, or dropped). */
    private boolean bodyDone;

    /** Set by the read stage: the request's serializer once accepted; answers are written with it. */
    Serializer serializer;
    /** Set by the read stage: the message once read and looked up ({@code null} before). */
    MessageWrapper message;
    /** Set by the service lookup once it let the request through: the service. */
    ServiceEntry service;
    /** Set by the service lookup with {@link #service}: the service as the serializer named it. */
    ServiceMetadata authorizedMetadata;
    /** Set by the service lookup with {@link #service}: the method name it authorized. */
    String authorizedMethod;
    /** Set by the service lookup with {@link #service}: where a call's method runs ({@code null} for streams). */
    AdaptiveDispatch dispatch;
    /** Set by the service lookup when it refused the request; answered by the read stage once the body is released. */
    Refusal refusal;
    /** Set by the invocation stage: what interceptors and streams need; {@code null}: the plain path. */
    ProviderCall call;
    /**
     * Set by the invocation stage: a call with attachments and nothing else that needs its invocation; the request
     * is the thread's context while its method runs, and its invocation is made only if asked for.
     */
    boolean servesAttachments;
    /** The invocation, once made ({@link #invocation}). */
    private DefaultInvocation invocation;
    /** Set by the method stages: the method called, once resolved ({@code null} before, and for refusals). */
    MethodEntry method;

    /** Set by the read hand-off: read on the IO thread to learn where its method runs (cleared when handed on). */
    boolean readOnIoThread;
    /** Set by the call hand-off: handed to its service's own executor (it then runs there, whatever its size). */
    boolean onServiceExecutor;
    /** Counted by each hand-off to an executor: whether the thread that served it so far still owns it. */
    int handOvers;
    /** Set by the dispatch timer: the call is timed for its {@link #dispatch}; {@code null}: not timed. */
    DispatchTiming timing;

    /** A call: the request frame of a connection. */
    ProviderRequest(Connection connection, OpenConnection open, Frame frame) {
        this.connection = connection;
        this.open = open;
        this.caller = open == null ? CallerIdentity.ANONYMOUS : open.caller();
        this.body = frame.body();
        this.ownsBody = true;
        this.id = frame.id();
        this.serializerCode = frame.serializerCode();
        this.receivedNanos = frame.receivedNanos();
        this.stream = null;
        if (frame instanceof DecodedRequest read) {
            this.decoded = read.message();
            this.answers = read.answers();
            this.bodyBytes = read.bytes();
        } else {
            this.decoded = null;
            this.answers = null;
            this.bodyBytes = body.readableBytes();
        }
    }

    /** A stream's open; its body stays the stream's (released by it). */
    ProviderRequest(Connection connection, long streamId, CallerIdentity caller, byte serializerCode, ByteBuf body,
                    long receivedNanos, StreamOpener.Opening stream) {
        this.connection = connection;
        this.open = null;
        this.caller = caller;
        this.body = body;
        this.ownsBody = false;
        this.id = streamId;
        this.serializerCode = serializerCode;
        this.receivedNanos = receivedNanos;
        this.bodyBytes = body.readableBytes();
        this.stream = stream;
        this.decoded = null;
        this.answers = null;
    }

    /** Whether this request opens a stream (else it is a call). */
    final boolean opensStream() {
        return stream != null;
    }

    /** What this request is, for messages: "request" or "stream's open". */
    final String what() {
        return stream == null ? "request" : "stream's open";
    }

    /** The invocation interceptors and {@code RpcContext} see, made the first time it is asked for. */
    @Override
    public final DefaultInvocation invocation() {
        DefaultInvocation made = invocation;
        if (made == null) {
            Object[] args = message.getArgs();
            if (args == null && opensStream()) {
                args = NO_ARGS;
            }
            made = DefaultInvocation.provider(service.key(), message.getMethodName(), args, message.getAppName(),
                    connection.remoteAddress(), caller, message.getAttachments(), receivedNanos, bodyBytes, id);
            if (opensStream()) {
                made.stream(true);
            }
            invocation = made;
        }
        return made;
    }

    /** Whether the deadline the consumer sent with this request (an attachment) has passed; never without one. */
    final boolean deadlinePassed() {
        if (invocation != null) {
            return invocation.deadlinePassed();
        }
        return servesAttachments && Deadlines.passed(Deadlines.fromAttachment(
                message.getAttachments().get(Deadlines.KEY), receivedNanos));
    }

    /** Whether the consumer cancelled this request ({@link CancelledCalls}); forgets the cancel if so. */
    boolean cancelled() {
        return open != null && open.cancels.take(id);
    }

    /** The peer's IP address (for warnings throttled per peer), or {@code null}. */
    final Object peer() {
        return TransportAddresses.ipOf(connection.remoteAddress());
    }

    @Override
    public final long queuedNanos() {
        return receivedNanos;
    }

    /** The service lookup, told by the serializer once the envelope is read: implemented by the chain. */
    @Override
    public abstract ArgumentTypes envelopeRead(String appName, ServiceMetadata metadata, String methodName);

    /** This request will not be served (its executor was stopped): releases its frame and what admission counted. */
    @Override
    public final void discard() {
        bodyDone();
        threadDone();
    }

    /** Releases the frame, whose body was read or will not be: it no longer counts as queued bytes. */
    final void bodyDone() {
        if (bodyDone) {
            return;
        }
        bodyDone = true;
        if (ownsBody) {
            body.release();
        }
        if (admitted) {
            open.load.bodyRead(bodyBytes);
        }
    }

    /** Counts this request in its connection's load (admission did). */
    final void admitted() {
        this.admitted = true;
    }

    /** Holds a permit of {@code limit} (admission took it) until the request {@link #leave}s. */
    final void permitTaken(AdaptiveConcurrencyLimit limit) {
        heldPermits().serverTaken(limit);
    }

    /** Holds a permit of the application-wide {@code limiter} (admission took it) until {@link #threadDone}. */
    final void flowTaken(FlowLimiter limiter) {
        heldPermits().flowTaken(limiter);
    }

    private HeldPermits heldPermits() {
        HeldPermits held = permits;
        if (held == null) {
            held = new HeldPermits();
            permits = held;
        }
        return held;
    }

    /**
     * The thread that served this request is done with it and did not hand it on: its application flow permit goes
     * back, and it no longer counts as in flight (if it was not answered already).
     */
    final void threadDone() {
        HeldPermits held = permits;
        if (held != null) {
            held.releaseFlow();
        }
        leave();
    }

    /**
     * Takes a permit of its method's own {@code limit} (the lookup stage found the method), held until the request
     * {@link #leave}s; {@code false}: the limit is reached, the request is to be refused.
     */
    boolean methodPermit(AdaptiveConcurrencyLimit limit) {
        if (!limit.tryAcquire()) {
            return false;
        }
        heldPermits().methodTaken(limit);
        return true;
    }

    /**
     * This request no longer counts as in flight on its connection, nor against the server's adaptive concurrency
     * limit (its permit goes back with the time it took): it is answered, or will not be. Done before an answer is
     * written, so a peer that keeps exactly the limit in flight never finds it still counted. Once, from any thread.
     */
    final void leave() {
        if (!LEFT.compareAndSet(this, 0, 1)) {
            return;
        }
        if (admitted) {
            open.load.ended();
        }
        HeldPermits held = permits;
        if (held != null) {
            held.releaseLimits();
        }
    }
}
