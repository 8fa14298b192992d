package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.flow.FlowLimiter;
import io.jupiter.rpc.internal.AdaptiveConcurrencyLimit;

/**
 * The permits of limits a request holds, besides its connection's load: the server's adaptive concurrency limit
 * and the application-wide flow limiter (taken by admission), its method's own adaptive limit (taken by the service
 * lookup). Only a server or method with such a limit makes one, so that a request of one without carries none of
 * these fields.
 */
final class HeldPermits {

    /** The server's adaptive concurrency limit a permit is held of; {@code null}: none. */
    private AdaptiveConcurrencyLimit server;
    /** When that permit was taken ({@link System#nanoTime()}). */
    private long serverNanos;
    /** The method's own adaptive concurrency limit a permit is held of; {@code null}: none. */
    private AdaptiveConcurrencyLimit method;
    private long methodNanos;
    /** The application-wide flow limiter a permit is held of, until the request's thread is done; or {@code null}. */
    private FlowLimiter flow;

    void serverTaken(AdaptiveConcurrencyLimit limit) {
        this.serverNanos = System.nanoTime();
        this.server = limit;
    }

    void methodTaken(AdaptiveConcurrencyLimit limit) {
        this.methodNanos = System.nanoTime();
        this.method = limit;
    }

    void flowTaken(FlowLimiter limiter) {
        this.flow = limiter;
    }

    /** Gives the flow permit back, if one is held (once). */
    void releaseFlow() {
        FlowLimiter f = flow;
        if (f != null) {
            flow = null;
            f.release();
        }
    }

    /** Gives the adaptive limits' permits back with the time each was held (the request left; once). */
    void releaseLimits() {
        AdaptiveConcurrencyLimit limit = server;
        if (limit != null) {
            limit.release(System.nanoTime() - serverNanos);
        }
        AdaptiveConcurrencyLimit methodLimit = method;
        if (methodLimit != null) {
            methodLimit.release(System.nanoTime() - methodNanos);
        }
    }
}
