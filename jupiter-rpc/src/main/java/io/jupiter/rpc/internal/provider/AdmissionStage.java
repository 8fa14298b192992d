package io.jupiter.rpc.internal.provider;

import io.jupiter.common.ThrottledWarning;
import io.jupiter.rpc.flow.FlowLimiter;
import io.jupiter.rpc.internal.AdaptiveConcurrencyLimit;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.jupiter.transport.TransportAddresses;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first stage, on the IO thread, before the body is read: the caller token while the connection's caller is not
 * named yet ({@link TokenGate}); stream frames to the {@link StreamFrameStage}; requests only; {@code SERVER_BUSY}
 * while draining; the connection's own limits ({@link ConnectionLoad}: requests in flight, bytes of unread bodies;
 * {@code SERVER_BUSY}); the server's adaptive concurrency limit when it has one ({@link AdaptiveConcurrencyLimit}:
 * {@code SERVER_BUSY}); the application-wide flow limiter ({@code APP_FLOW_CONTROL}). An admitted request goes to
 * the {@link ThreadChooser}. What admission counted is given back by {@link #ended} once the request was served or
 * dropped.
 */
final class AdmissionStage {

    private static final Logger log = LoggerFactory.getLogger(AdmissionStage.class);
    /** Warnings a peer can trigger with every frame it sends: at most one line a second per peer. */
    private static final ThrottledWarning badFrames = new ThrottledWarning(log, 1, TimeUnit.SECONDS);

    private final ProviderPipeline pipeline;
    private final RpcMetrics metrics;
    /** {@code null}: no caller token is asked for. */
    private final TokenGate tokenGate;
    private final LongAdder received = new LongAdder();
    private volatile FlowLimiter appFlowLimiter;
    /** {@code null}: no adaptive concurrency limit (the default). */
    private volatile AdaptiveConcurrencyLimit concurrencyLimit;
    private volatile boolean draining;

    AdmissionStage(ProviderPipeline pipeline, RpcMetrics metrics, TokenGate tokenGate) {
        this.pipeline = pipeline;
        this.metrics = metrics;
        this.tokenGate = tokenGate;
    }

    /** The application-wide flow limiter, or {@code null}. */
    void appFlowLimiter(FlowLimiter limiter) {
        this.appFlowLimiter = limiter;
    }

    /** The server's adaptive concurrency limit, or {@code null}. */
    void concurrencyLimit(AdaptiveConcurrencyLimit limit) {
        this.concurrencyLimit = limit;
    }

    /** The server's adaptive concurrency limit, or {@code null}. */
    AdaptiveConcurrencyLimit concurrencyLimit() {
        return concurrencyLimit;
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

    /**
     * A frame from a provider's connection, on its IO thread.
     *
     * @param open what the server keeps of the connection; {@code null} if it is not (or no longer) open
     */
    void received(Connection connection, OpenConnection open, Frame frame) {
        if (tokenGate != null && (open == null || !open.callerNamed())) {
            // Connection events and frames of one connection all come on its IO thread: no race with disconnected.
            CallerIdentity caller = tokenGate.received(connection, frame);
            if (caller != null && open != null) {
                open.caller(caller);
            }
            return;
        }
        if (CancelledCalls.received(connection, open, frame)) {
            return; // a consumer's question about cancels, or a call's cancel
        }
        byte code = frame.messageCode();
        if (ProtocolHeader.isStreamFrame(code)) {
            // A stream's open is admitted here (caller token above; a draining server's streams refuse new opens)
            // and looked up and authorized by the StreamOpenStage; it is not a request and holds no request slot.
            pipeline.streams.received(connection, open, frame);
            return;
        }
        if (code == ProtocolHeader.HEARTBEAT) {
            frame.release(); // an announcement (the decoder emits no other heartbeat): a provider has no use for one
            return;
        }
        if (code != ProtocolHeader.REQUEST) {
            // The decoder of a provider's connections passes requests, stream frames and announcements only; this
            // is a safety net.
            badFrames.warnFor(TransportAddresses.ipOf(connection.remoteAddress()),
                    "dropping a frame with message code 0x{} from {}: a provider accepts only requests",
                    Integer.toHexString(frame.messageCode()), connection.remoteAddress());
            frame.release();
            return;
        }
        metrics.request(frame.body().readableBytes());
        received.increment();
        ProviderRequest request = new ProviderRequest(pipeline, connection, open, frame);
        RespondStage respond = pipeline.respond;
        if (draining) {
            frame.release();
            respond.refuse(request, Status.SERVER_BUSY, "provider busy: shutting down", false);
            return;
        }
        ConnectionLoad load = open == null ? null : open.load;
        if (load != null) {
            String overloaded = load.admit(request.bodyBytes);
            if (overloaded != null) {
                frame.release();
                respond.refuse(request, Status.SERVER_BUSY, "provider busy: " + overloaded, false);
                return;
            }
            request.admitted(load);
        }
        AdaptiveConcurrencyLimit limit = concurrencyLimit;
        if (limit != null) {
            if (!limit.tryAcquire()) {
                request.bodyDone();
                respond.refuse(request, Status.SERVER_BUSY, "provider busy: " + limit.inFlight()
                        + " requests in flight, at its adaptive concurrency limit of " + limit.limit(), false);
                return;
            }
            request.permitTaken(limit); // given back when the request leaves (answered, or dropped)
        }
        FlowLimiter appFlow = appFlowLimiter;
        if (appFlow != null && !appFlow.tryAcquire()) {
            request.bodyDone();
            respond.refuse(request, Status.APP_FLOW_CONTROL,
                    "application flow control refused the request: " + appFlow, false);
            return;
        }
        pipeline.threads.admitted(request);
    }

    /** An admitted request ended (served, or dropped): it no longer counts against the limits that admitted it. */
    void ended(ProviderRequest request) {
        FlowLimiter appFlow = appFlowLimiter;
        if (appFlow != null) {
            appFlow.release();
        }
        request.leave();
    }
}
