package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.RefusalLog;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.stream.StreamOpener;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.rpc.protocol.RefusalReasons;
import io.jupiter.rpc.security.Authorizer;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.rpc.security.TokenAuthenticator;
import io.jupiter.serialization.ArgumentTypes;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provider's one chain: every call and every stream's open goes down these stages, in this order, built once
 * per server. Each stage is a {@link ProviderStage} with one job that hands the request to the next; a refusal is a
 * {@link Refusal} answered by the {@link Responder}; no stage knows this class.
 *
 * <pre>
 *  frame ──► (TokenGate)        IO thread: the caller token, until the connection's caller is named
 *            (StreamGate)       stream frames leave here for the streams; an open comes back below, on its thread
 *            AdmissionStage     calls: draining, the connection's limits, the adaptive limit, app flow control
 *            ReadHandOffStage   calls: read on the IO thread (to learn where the method runs), or on the pool
 *            ReadStage          serializer, body; the ServiceLookup runs once the envelope is read: service,
 *                               pinned serializers, method (a stream method for an open), authorizer
 *            CallHandOffStage   calls: the IO thread, the service's executor, or the pool
 *            DispatchTimerStage calls: timed for adaptive dispatch
 *            InvocationStage    the invocation interceptors see (only when something needs it)
 *            DeadlineStage      just before the interceptors and the method: a call past its deadline is dropped;
 *                               an open arms its stream's deadlines
 *            InterceptorStage   beforeInvoke
 *            StreamForkStage    a call ──► InvokeStage; a stream's open ──► StreamInvokeStage
 * </pre>
 *
 * <p>A stage that applies to calls and stream opens alike is one class and one line in the list the constructor
 * builds the chain from.
 * A throwable becomes a status in one place, {@link ProviderFailures}.
 */
final class ProviderChain implements StreamOpener {

    private static final Logger log = LoggerFactory.getLogger(ProviderChain.class);

    final Responder responder;
    final Draining draining = new Draining();
    /** {@code null}: no caller token is asked for. */
    final TokenGate tokenGate;
    final StreamGate streams;
    private final RpcMetrics metrics;
    /** The lines of the refusals a peer causes, for every stage of this server: one throttle. */
    private final RefusalLog refusals;
    private final ServiceLookup lookup;
    private final LongAdder received = new LongAdder();
    /** The first stage. */
    private final ProviderStage head;
    // Stages the server sets, or a hand-over resumes at; each set once, while the chain is built.
    private AdmissionStage admission;
    private ReadHandOffStage readHandOff;
    private CallHandOffStage callHandOff;

    /**
     * @param pool the server's provider executor; {@code null}: requests run on the IO threads
     * @param tokens names callers by their tokens; {@code null}: no token is asked for
     * @param authorizer who may call what; {@code null}: everyone everything
     * @param refusalLogMillis at most one line this often per peer and cause of refusal
     * @param reasons where the token gate and the lookup note why they refused (for other protocols)
     */
    ProviderChain(ServiceRegistry services, AcceptedSerializers accepted, ProviderExecutor pool, RpcMetrics metrics,
                  TokenAuthenticator tokens, long tokenTimeoutMillis, Authorizer authorizer, long refusalLogMillis,
                  RefusalReasons reasons) {
        this.metrics = metrics;
        this.responder = new Responder(metrics);
        this.refusals = new RefusalLog(refusalLogMillis);
        this.lookup = new ServiceLookup(services, authorizer, refusals, reasons);
        this.tokenGate = tokens == null ? null : new TokenGate(tokens, tokenTimeoutMillis, refusals, reasons);
        this.streams = new StreamGate(this, refusals);
        HandOver handOver = new HandOver(responder, draining);
        // The chain, top down: one line a stage.
        List<UnaryOperator<ProviderStage>> stages = List.of(
                next -> admission = new AdmissionStage(responder, draining, next),
                next -> readHandOff = new ReadHandOffStage(pool, accepted, handOver, next),
                next -> new ReadStage(accepted, services, responder, refusals, next),
                next -> callHandOff = new CallHandOffStage(pool, handOver, next),
                next -> new DispatchTimerStage(next),
                next -> new InvocationStage(next),
                next -> new DeadlineStage(metrics, next),
                next -> new InterceptorStage(responder, next),
                next -> new StreamForkStage(new StreamInvokeStage(metrics, responder), next));
        ProviderStage stage = new InvokeStage(metrics, responder);
        for (int i = stages.size() - 1; i >= 0; i--) {
            stage = stages.get(i).apply(stage);
        }
        this.head = stage;
    }

    /** The admission stage, whose limits the server sets. */
    AdmissionStage admission() {
        return admission;
    }

    /** The read hand-off, which the server tells once the IO threads may read requests. */
    ReadHandOffStage readHandOff() {
        return readHandOff;
    }

    /** Requests received so far. */
    long receivedCount() {
        return received.sum();
    }

    /**
     * A frame from a provider's connection, on its IO thread.
     *
     * @param open what the server keeps of the connection; {@code null} if it is not (or no longer) open
     */
    void received(Connection connection, OpenConnection open, Frame frame) {
        if (tokenGate != null && (open == null || !open.callerNamed())) {
            // Connection events and frames of one connection all come on its IO thread: no race with disconnected.
            Refusal refusal = tokenGate.received(connection, open, frame);
            if (refusal != null) {
                // Refused before it counts against anything: no connection state, an anonymous caller.
                ProviderRequest request = new ChainedRequest(connection, null, frame);
                request.bodyDone();
                responder.refuse(request, refusal);
            }
            return;
        }
        if (CancelledCalls.received(connection, open == null ? null : open.cancels, frame)) {
            return; // a consumer's question about cancels, or a call's cancel
        }
        byte code = frame.messageCode();
        if (ProtocolHeader.isStreamFrame(code)) {
            // A stream's open is admitted by the streams (a draining server's streams refuse new opens) and comes
            // back through open(); it is not a request and holds no request slot.
            streams.received(connection, open, frame);
            return;
        }
        if (code == ProtocolHeader.HEARTBEAT) {
            frame.release(); // an announcement (the decoder emits no other heartbeat): a provider has no use for one
            return;
        }
        if (code != ProtocolHeader.REQUEST) {
            // The decoder of a provider's connections passes requests, stream frames and announcements only; this
            // is a safety net.
            refusals.refused(connection, RefusalLog.Cause.BAD_FRAME,
                    "dropping a frame with message code 0x{} from {}: a provider accepts only requests",
                    Integer.toHexString(frame.messageCode()), connection.remoteAddress());
            frame.release();
            return;
        }
        received.increment();
        ChainedRequest request = new ChainedRequest(connection, open, frame);
        metrics.request(request.bodyBytes);
        serve(head, request);
    }

    /** A stream's open, on the thread its stream holds: down the same chain, answered to {@code opening}. */
    @Override
    public void open(Connection connection, long streamId, CallerIdentity caller, byte serializerCode, ByteBuf body,
                     long receivedNanos, Opening opening) {
        serve(head, new ChainedRequest(connection, streamId, caller, serializerCode, body, receivedNanos, opening));
    }

    /** Counts an open the streams refused themselves with the refused requests ({@code rejection}). */
    @Override
    public void refused(Connection connection, Status status) {
        metrics.streamRefused(status);
    }

    /**
     * Runs the chain from {@code stage} on this thread; once this thread is done with the request and did not hand
     * it to an executor, what admission counted goes back.
     */
    private static void serve(ProviderStage stage, ProviderRequest request) {
        int handOvers = request.handOvers;
        try {
            stage.serve(request);
        } finally {
            if (request.handOvers == handOvers) {
                request.threadDone();
            }
        }
    }

    /** A request as this chain carries it: an executor resumes it where it was handed over. */
    private final class ChainedRequest extends ProviderRequest {

        ChainedRequest(Connection connection, OpenConnection open, Frame frame) {
            super(connection, open, frame);
        }

        ChainedRequest(Connection connection, long streamId, CallerIdentity caller, byte serializerCode, ByteBuf body,
                       long receivedNanos, Opening opening) {
            super(connection, streamId, caller, serializerCode, body, receivedNanos, opening);
        }

        /** Run by a provider executor: the chain goes on at the hand-off that handed it over. */
        @Override
        public void run() {
            serve(message == null ? readHandOff : callHandOff, this);
        }

        /**
         * Not run by the pool: it waited longer than the pool's sojourn limit allows. Answered {@code SERVER_BUSY}
         * (the method never ran, so the caller may retry elsewhere), counted as {@code queue.shed}; no log line.
         */
        @Override
        public void shed(long waitedNanos, long limitNanos) {
            discard();
            metrics.queueShed();
            responder.refuse(this, Refusal.of(StatusTable.SERVER_BUSY.status(), "provider busy: the request waited "
                    + TimeUnit.NANOSECONDS.toMillis(waitedNanos) + " ms for a provider thread, above the "
                    + TimeUnit.NANOSECONDS.toMillis(limitNanos) + " ms its queue allows now"));
        }

        @Override
        public ArgumentTypes envelopeRead(String appName, ServiceMetadata metadata, String methodName) {
            return lookup.envelopeRead(this, metadata, methodName);
        }
    }
}
