package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.StatusTable;
import java.util.concurrent.RejectedExecutionException;

/**
 * Gives a request to an executor, which goes on with the chain where it was handed over ({@link ProviderRequest#run});
 * when the executor is full, refuses it {@code SERVER_BUSY} instead. Shared by the two hand-off stages.
 */
final class HandOver {

    private final Responder responder;
    private final Draining draining;

    HandOver(Responder responder, Draining draining) {
        this.responder = responder;
        this.draining = draining;
    }

    /** Hands {@code request} to {@code executor}; the thread that served it so far no longer owns it. */
    void to(ProviderExecutor executor, ProviderRequest request) {
        request.handOvers++;
        try {
            executor.execute(request);
        } catch (RejectedExecutionException e) {
            request.handOvers--; // still this thread's
            request.bodyDone();
            responder.refuse(request, Refusal.of(StatusTable.SERVER_BUSY.status(), "provider busy: "
                    + busyDetail(executor)));
        }
    }

    private String busyDetail(ProviderExecutor executor) {
        if (draining.isOn() || executor.isShutdown()) {
            return "shutting down";
        }
        return executor.busyDetail();
    }
}
