package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.AdaptiveConcurrencyLimit;
import io.jupiter.rpc.internal.AdaptiveDispatch;
import io.jupiter.rpc.internal.WorkerPool;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.serialization.ArgumentTypes;
import io.jupiter.serialization.EnvelopeListener;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.Status;
import io.jupiter.transport.TransportAddresses;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * One request on its way through the {@link ProviderPipeline}: what it is, where it came from, and what the stages
 * found so far. The order of the stages is the pipeline's; this only carries their data. It is also the task a
 * provider executor runs (handed back to the {@link ThreadChooser}) and the listener its serializer tells once the
 * envelope is read (handed to the {@link LookupStage}).
 */
final class ProviderRequest implements WorkerPool.Task, EnvelopeListener {

    private static final AtomicIntegerFieldUpdater<ProviderRequest> LEFT =
            AtomicIntegerFieldUpdater.newUpdater(ProviderRequest.class, "left");

    final ProviderPipeline pipeline;
    final Connection connection;
    /** What the server keeps of the connection; {@code null} if it was not (or no longer) open. */
    private final OpenConnection open;
    final Frame frame;
    final long id;
    final byte serializerCode;
    final long receivedNanos;
    final int bodyBytes;

    /** The connection's load, once admission counted this request in; {@code null} before. */
    private ConnectionLoad load;
    /** The adaptive concurrency limit this request holds a permit of; {@code null}: none. */
    private AdaptiveConcurrencyLimit permitOf;
    /** When the permit was taken ({@link System#nanoTime()}). */
    private long permitNanos;
    /** The method's own adaptive concurrency limit this request holds a permit of; {@code null}: none. */
    private AdaptiveConcurrencyLimit methodPermitOf;
    private long methodPermitNanos;
    /** 1 once the request no longer counts as in flight (answered, or dropped): from any thread, once. */
    private volatile int left;
    /** Whether the frame was released (its body read, or dropped). */
    private boolean bodyDone;

    // ---- found by the read and lookup stages ----
    /** The request's serializer once the read stage accepted it; answers are written with it. */
    Serializer serializer;
    /** The request's message once read and looked up ({@code null} before). */
    MessageWrapper message;
    /** The service, set by the lookup stage once it let the request through. */
    ServiceEntry service;
    /** The service the lookup stage found and authorized, as the serializer named it; set with {@link #service}. */
    ServiceMetadata authorizedMetadata;
    /** The method name the lookup stage found and authorized; set with {@link #service}. */
    String authorizedMethod;
    /** Where the method the request names runs; set by the lookup stage with {@link #service}. */
    AdaptiveDispatch dispatch;
    /** Why the lookup stage refused the request (answered once the body is released); {@code null}: it did not. */
    Status refusedStatus;
    /** The refusal's answer: a message for 1.3.1's exception of that status, or the throwable to send. */
    Object refusedBecause;
    boolean refusedClose;

    // ---- found by the call stages ----
    /** What interceptors and attachments need, {@code null} when nothing asked for it (the plain path). */
    ProviderCall call;
    /** The method called, once resolved ({@code null} before, and for requests refused before). */
    MethodEntry method;

    // ---- set by the thread chooser ----
    /** Whether the request was read on the IO thread to learn where its method runs. */
    boolean readOnIoThread;
    /** Whether the request was handed to its service's own executor (it then runs there, whatever its size). */
    boolean onServiceExecutor;
    /** Whether the call is timed for its {@link #dispatch}: then {@link #answeringNanos} is recorded. */
    boolean timed;
    /** When the timed call started ({@link #timed} only): the method timer starts there too. */
    long startedNanos;
    /** When the answer started to be written (0: not yet, or not timed). */
    long answeringNanos;

    ProviderRequest(ProviderPipeline pipeline, Connection connection, OpenConnection open, Frame frame) {
        this.pipeline = pipeline;
        this.connection = connection;
        this.open = open;
        this.frame = frame;
        this.id = frame.id();
        this.serializerCode = frame.serializerCode();
        this.receivedNanos = frame.receivedNanos();
        this.bodyBytes = frame.body().readableBytes();
    }

    /** Who is on the other end of the request's connection. */
    CallerIdentity caller() {
        return open == null ? CallerIdentity.ANONYMOUS : open.caller();
    }

    /** Whether the consumer cancelled this request ({@link CancelledCalls}); forgets the cancel if so. */
    boolean cancelled() {
        return open != null && open.cancels.take(id);
    }

    /** The peer's IP address (for warnings throttled per peer), or {@code null}. */
    Object peer() {
        return TransportAddresses.ipOf(connection.remoteAddress());
    }

    @Override
    public long queuedNanos() {
        return receivedNanos;
    }

    /**
     * Not run by the pool: it waited longer than the pool's sojourn limit allows. Answered {@code SERVER_BUSY} (the
     * method never ran, so the caller may retry elsewhere), counted as {@code queue.shed}; no log line.
     */
    @Override
    public void shed(long waitedNanos, long limitNanos) {
        bodyDone();
        pipeline.admission.ended(this);
        pipeline.metrics.queueShed();
        pipeline.respond.refuse(this, Status.SERVER_BUSY, "provider busy: the request waited "
                + TimeUnit.NANOSECONDS.toMillis(waitedNanos) + " ms for a provider thread, above the "
                + TimeUnit.NANOSECONDS.toMillis(limitNanos) + " ms its queue allows now", false);
    }

    /** Run by a provider executor: the thread chooser goes on where the request was handed over. */
    @Override
    public void run() {
        pipeline.threads.run(this);
    }

    @Override
    public ArgumentTypes envelopeRead(String appName, ServiceMetadata metadata, String methodName) {
        return pipeline.lookup.envelopeRead(this, metadata, methodName);
    }

    /** The lookup stage refuses this request: answered so once its body is released. */
    void refuseLater(Status status, Object because, boolean close) {
        this.refusedStatus = status;
        this.refusedBecause = because;
        this.refusedClose = close;
    }

    /** This request will not be served (the pool was stopped): releases its frame and its admission. */
    void discard() {
        bodyDone();
        pipeline.admission.ended(this);
    }

    /** Releases the frame, whose body was read or will not be: it no longer counts as queued bytes. */
    void bodyDone() {
        if (bodyDone) {
            return;
        }
        bodyDone = true;
        frame.release();
        ConnectionLoad l = load;
        if (l != null) {
            l.bodyRead(bodyBytes);
        }
    }

    /** Counts this request in {@code load} (admission did). */
    void admitted(ConnectionLoad load) {
        this.load = load;
    }

    /** Holds a permit of {@code limit} (admission took it) until the request {@link #leave}s. */
    void permitTaken(AdaptiveConcurrencyLimit limit) {
        this.permitNanos = System.nanoTime();
        this.permitOf = limit;
    }

    /**
     * Takes a permit of its method's own {@code limit} (the lookup stage found the method), held until the request
     * {@link #leave}s; {@code false}: the limit is reached, the request is to be refused.
     */
    boolean methodPermit(AdaptiveConcurrencyLimit limit) {
        if (!limit.tryAcquire()) {
            return false;
        }
        this.methodPermitNanos = System.nanoTime();
        this.methodPermitOf = limit;
        return true;
    }

    /**
     * This request no longer counts as in flight on its connection, nor against the server's adaptive concurrency
     * limit (its permit goes back with the time it took): it is answered, or will not be. Done before an answer is
     * written, so a peer that keeps exactly the limit in flight never finds it still counted. Once, from any thread.
     */
    void leave() {
        if (!LEFT.compareAndSet(this, 0, 1)) {
            return;
        }
        ConnectionLoad l = load;
        if (l != null) {
            l.ended();
        }
        AdaptiveConcurrencyLimit limit = permitOf;
        if (limit != null) {
            limit.release(System.nanoTime() - permitNanos);
        }
        AdaptiveConcurrencyLimit methodLimit = methodPermitOf;
        if (methodLimit != null) {
            methodLimit.release(System.nanoTime() - methodPermitNanos);
        }
    }
}
