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
import io.jupiter.transport.ProtocolHeader;
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
    /** Whether {@link #body} is this request's to release: a call's (a stream's open's is its stream's). */
    private static final int OWNS_BODY = 1;
    /** Set by admission: it counted this request in its connection's load ({@code open.load}). */
    private static final int ADMITTED = 1 << 1;
    /** Whether the frame was released (its body read, or dropped). */
    private static final int BODY_DONE = 1 << 2;
    /**
     * Set by the invocation stage: a call with attachments and nothing else that needs its invocation; the request
     * is the thread's context while its method runs, and its invocation is made only if asked for.
     */
    private static final int SERVES_ATTACHMENTS = 1 << 3;
    /** Set by the read hand-off: read on the IO thread to learn where its method runs (cleared when handed on). */
    private static final int READ_ON_IO_THREAD = 1 << 4;
    /** Set by the call hand-off: handed to its service's own executor (it then runs there, whatever its size). */
    private static final int ON_SERVICE_EXECUTOR = 1 << 5;
    private static final AtomicIntegerFieldUpdater<ProviderRequest> LEFT =
            AtomicIntegerFieldUpdater.newUpdater(ProviderRequest.class, "left");

    /**
     * What the server keeps of the connection, the connection included; {@code null} if it was not (or no longer)
     * open, and for streams (their connection is then in {@link #uncommon}).
     */
    final OpenConnection open;
    /**
     * The request frame (a call's), or one made for a stream's open: its header fields and body, kept rather than
     * copied (the decoder made it anyway). A {@link DecodedRequest} is a call read already by a protocol of this
     * process.
     */
    private final Frame frame;
    /**
     * What only a stream's open, a call on a connection not (or no longer) open, or a refused request carries;
     * {@code null} for a call on an open connection until it is refused.
     */
    private Uncommon uncommon;
    /** The body's readable bytes when the request was made (a {@link DecodedRequest}'s: what the protocol read). */
    final int bodyBytes;
    /** 1 once the request no longer counts as in flight (answered, or dropped): from any thread, once. */
    private volatile int left;
    /**
     * Counted by each hand-off to an executor: whether the thread that served it so far still owns it. A byte: a
     * request is handed off a few times at most (the read and the call hand-off), and only equality is asked.
     */
    byte handOvers;
    /**
     * The request's yes-or-no state, one bit each ({@link #OWNS_BODY} and the rest), in one byte. Each bit is set by
     * the stage its constant names, all of them before the method runs and on the one thread that serves the
     * request then (hand-offs publish it); later, other threads only read ({@link #leave}: {@link #ADMITTED}).
     */
    private byte flags;
    /** The permits of limits other than the connection's this request holds; {@code null}: none (the default). */
    private HeldPermits permits;

    /** Set by the read stage: the request's serializer once accepted; answers are written with it. */
    Serializer serializer;
    /** Set by the read stage: the message once read and looked up ({@code null} before). */
    MessageWrapper message;
    /** Set by the service lookup once it let the request through: the service. */
    ServiceEntry service;
    /** Set by the service lookup with {@link #service}: the method name it authorized. */
    String authorizedMethod;
    /** Set by the service lookup with {@link #service}: where a call's method runs ({@code null} for streams). */
    AdaptiveDispatch dispatch;
    /** Set by the invocation stage: what interceptors and streams need; {@code null}: the plain path. */
    ProviderCall call;
    /** The invocation, once made ({@link #invocation}). */
    private DefaultInvocation invocation;
    /** Set by the method stages: the method called, once resolved ({@code null} before, and for refusals). */
    MethodEntry method;

    /** Set by the dispatch timer: the call is timed for its {@link #dispatch}; {@code null}: not timed. */
    DispatchTiming timing;

    /** A call: the request frame of a connection. */
    ProviderRequest(Connection connection, OpenConnection open, Frame frame) {
        this.open = open;
        if (open == null) {
            this.uncommon = new Uncommon(connection, null, null);
        }
        this.frame = frame;
        this.flags = OWNS_BODY;
        this.bodyBytes = frame instanceof DecodedRequest read ? read.bytes() : frame.body().readableBytes();
    }

    /** A stream's open; its body stays the stream's (released by it). */
    ProviderRequest(Connection connection, long streamId, CallerIdentity caller, byte serializerCode, ByteBuf body,
                    long receivedNanos, StreamOpener.Opening stream) {
        this.open = null;
        this.frame = new Frame(ProtocolHeader.STREAM_OPEN, serializerCode, (byte) 0, streamId, body, receivedNanos);
        this.bodyBytes = body.readableBytes();
        this.uncommon = new Uncommon(connection, stream, caller);
    }

    /** The connection the request came on. */
    final Connection connection() {
        OpenConnection o = open;
        return o != null ? o.connection : uncommon.connection;
    }

    /** The body to read: the request frame's, or the stream open's. */
    final ByteBuf body() {
        return frame.body();
    }

    /** The invoke id, or the stream id. */
    final long id() {
        return frame.id();
    }

    final byte serializerCode() {
        return frame.serializerCode();
    }

    final long receivedNanos() {
        return frame.receivedNanos();
    }

    /**
     * A call handed over already read by a protocol of this process: its message, read by the read stage instead
     * of the body (empty), and where its answer goes instead of a response frame; {@code null}: a body to read.
     */
    final DecodedRequest decoded() {
        return frame instanceof DecodedRequest read ? read : null;
    }

    /** The stream this request opens; {@code null}: a call. */
    final StreamOpener.Opening stream() {
        Uncommon u = uncommon;
        return u == null ? null : u.stream;
    }

    /**
     * Who is on the other end of the connection: a call's, its connection's caller (named before any call is let
     * through, then for the connection's life); a stream's open's, the one its stream was opened by.
     */
    final CallerIdentity caller() {
        Uncommon u = uncommon;
        if (u != null && u.stream != null) {
            return u.caller;
        }
        return open == null ? CallerIdentity.ANONYMOUS : open.caller();
    }

    /** Set by the service lookup when it refused the request; answered by the read stage once the body is released. */
    final Refusal refusal() {
        Uncommon u = uncommon;
        return u == null ? null : u.refusal;
    }

    /** The service lookup refused the request ({@link #refusal}). */
    final void refused(Refusal refusal) {
        Uncommon u = uncommon;
        if (u == null) {
            u = new Uncommon(null, null, null);
            uncommon = u;
        }
        u.refusal = refusal;
    }

    /** Whether this request opens a stream (else it is a call). */
    final boolean opensStream() {
        return stream() != null;
    }

    /** {@link #SERVES_ATTACHMENTS}. */
    final boolean servesAttachments() {
        return flag(SERVES_ATTACHMENTS);
    }

    /** The invocation stage found it {@link #SERVES_ATTACHMENTS}. */
    final void servesAttachments(boolean serves) {
        flag(SERVES_ATTACHMENTS, serves);
    }

    /** {@link #READ_ON_IO_THREAD}. */
    final boolean readOnIoThread() {
        return flag(READ_ON_IO_THREAD);
    }

    final void readOnIoThread(boolean read) {
        flag(READ_ON_IO_THREAD, read);
    }

    /** {@link #ON_SERVICE_EXECUTOR}. */
    final boolean onServiceExecutor() {
        return flag(ON_SERVICE_EXECUTOR);
    }

    final void onServiceExecutor(boolean on) {
        flag(ON_SERVICE_EXECUTOR, on);
    }

    private boolean flag(int bit) {
        return (flags & bit) != 0;
    }

    private void flag(int bit, boolean set) {
        flags = (byte) (set ? flags | bit : flags & ~bit);
    }

    /** What this request is, for messages: "request" or "stream's open". */
    final String what() {
        return opensStream() ? "stream's open" : "request";
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
                    connection().remoteAddress(), caller(), message.getAttachments(), receivedNanos(), bodyBytes, id());
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
        return servesAttachments() && Deadlines.passed(Deadlines.fromAttachment(
                message.getAttachments().get(Deadlines.KEY), receivedNanos()));
    }

    /** Whether the consumer cancelled this request ({@link CancelledCalls}); forgets the cancel if so. */
    boolean cancelled() {
        return open != null && open.cancels.take(id());
    }

    /** The peer's IP address (for warnings throttled per peer), or {@code null}. */
    final Object peer() {
        return TransportAddresses.ipOf(connection().remoteAddress());
    }

    @Override
    public final long queuedNanos() {
        return frame.receivedNanos();
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
        if (flag(BODY_DONE)) {
            return;
        }
        flag(BODY_DONE, true);
        if (flag(OWNS_BODY)) {
            frame.release();
        }
        if (flag(ADMITTED)) {
            open.load.bodyRead(bodyBytes);
        }
    }

    /** Counts this request in its connection's load (admission did). */
    final void admitted() {
        flag(ADMITTED, true);
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
        if (flag(ADMITTED)) {
            open.load.ended();
        }
        HeldPermits held = permits;
        if (held != null) {
            held.releaseLimits();
        }
    }

    /**
     * What only some requests carry, made for them alone so that a plain call's request has none of these fields: a
     * stream's open (its connection, stream and caller), a call on a connection not (or no longer) open (its
     * connection), a request the service lookup refused (the refusal).
     */
    private static final class Uncommon {

        /** The connection, when the request has no {@link #open} connection to find it in; else {@code null}. */
        final Connection connection;
        /** The stream this request opens; {@code null}: a call. */
        final StreamOpener.Opening stream;
        /** The caller of a stream's open. */
        final CallerIdentity caller;
        Refusal refusal;

        Uncommon(Connection connection, StreamOpener.Opening stream, CallerIdentity caller) {
            this.connection = connection;
            this.stream = stream;
            this.caller = caller;
        }
    }
}
