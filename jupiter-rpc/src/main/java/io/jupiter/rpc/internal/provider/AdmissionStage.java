package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.flow.FlowLimiter;
import io.jupiter.rpc.internal.AdaptiveConcurrencyLimit;
import io.jupiter.rpc.internal.StatusTable;

/**
 * The first stage of a call, on the IO thread, before the body is read: {@code SERVER_BUSY} while draining; the
 * connection's own limits ({@link ConnectionLoad}: requests in flight, bytes of unread bodies; {@code SERVER_BUSY});
 * the server's adaptive concurrency limit when it has one ({@link AdaptiveConcurrencyLimit}: {@code SERVER_BUSY});
 * the application-wide flow limiter ({@code APP_FLOW_CONTROL}). What it counted is given back by the request
 * ({@link ProviderRequest#leave}, {@link ProviderRequest#threadDone}).
 */
final class AdmissionStage extends ProviderStage {

    private final Responder responder;
    private final Draining draining;
    private volatile FlowLimiter appFlowLimiter;
    /** {@code null}: no adaptive concurrency limit (the default). */
    private volatile AdaptiveConcurrencyLimit concurrencyLimit;

    AdmissionStage(Responder responder, Draining draining, ProviderStage next) {
        super(next);
        this.responder = responder;
        this.draining = draining;
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

    @Override
    void serve(ProviderRequest request) {
        if (request.opensStream()) {
            next.serve(request); // admitted by its stream's limits (streams per connection, threads held)
            return;
        }
        if (draining.isOn()) {
            request.bodyDone();
            responder.refuse(request, Refusal.of(StatusTable.SERVER_BUSY.status(), "provider busy: shutting down"));
            return;
        }
        ConnectionLoad load = request.open == null ? null : request.open.load;
        if (load != null) {
            String overloaded = load.admit(request.bodyBytes);
            if (overloaded != null) {
                request.bodyDone();
                responder.refuse(request, Refusal.of(StatusTable.SERVER_BUSY.status(), "provider busy: " + overloaded));
                return;
            }
            request.admitted();
        }
        AdaptiveConcurrencyLimit limit = concurrencyLimit;
        if (limit != null) {
            if (!limit.tryAcquire()) {
                request.bodyDone();
                responder.refuse(request, Refusal.of(StatusTable.SERVER_BUSY.status(), "provider busy: "
                        + limit.inFlight()
                        + " requests in flight, at its adaptive concurrency limit of " + limit.limit()));
                return;
            }
            request.permitTaken(limit); // given back when the request leaves (answered, or dropped)
        }
        FlowLimiter appFlow = appFlowLimiter;
        if (appFlow != null) {
            if (!appFlow.tryAcquire()) {
                request.bodyDone();
                responder.refuse(request, Refusal.of(StatusTable.APP_FLOW_CONTROL.status(),
                        "application flow control refused the request: " + appFlow));
                return;
            }
            request.flowTaken(appFlow); // given back when its thread is done with it
        }
        next.serve(request);
    }
}
