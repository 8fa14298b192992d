package io.jupiter.rpc.flow;

import io.jupiter.common.Requires;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.exception.FlowControlException;
import io.jupiter.rpc.filter.Filter;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.rpc.filter.Side;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.transport.Status;
import java.util.HashMap;
import java.util.Map;

/**
 * Per-service and per-method flow control on the provider: a call that a limiter refuses is answered
 * {@link Status#PROVIDER_FLOW_CONTROL} without running, and the consumer gets a {@link FlowControlException} that is
 * safe to retry. A call must pass its method's limiter and its service's limiter. Register it on the server:
 *
 * <pre>{@code
 * JupiterServer.builder().interceptor(FlowControlFilter.builder()
 *         .service(key, FlowLimiters.maxConcurrent(64))
 *         .method(key, "search", FlowLimiters.perSecond(200))
 *         .build())
 * }</pre>
 *
 * <p>For the application-wide limit checked before a request is even read, see
 * {@code JupiterServer.Builder.appFlowLimiter}.
 */
public final class FlowControlFilter implements Filter {

    /** Runs before the other filters, so that a refused call costs as little as possible. */
    public static final int PRIORITY = 10_000;

    private final Map<ServiceKey, Rules> rules;

    private FlowControlFilter(Map<ServiceKey, Rules> rules) {
        this.rules = Map.copyOf(rules);
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public Side side() {
        return Side.PROVIDER;
    }

    @Override
    public int priority() {
        return PRIORITY;
    }

    @Override
    public void beforeInvoke(Invocation invocation) {
        Rules r = rules.get(invocation.service());
        if (r == null) {
            return;
        }
        FlowLimiter method = r.methods.get(invocation.methodName());
        if (method != null && !method.tryAcquire()) {
            throw refused(invocation, method);
        }
        if (r.service != null && !r.service.tryAcquire()) {
            if (method != null) {
                method.release();
            }
            throw refused(invocation, r.service);
        }
    }

    @Override
    public void afterInvoke(Invocation invocation, Object result, Throwable error) {
        // Runs only for calls whose beforeInvoke admitted them, so both limiters were acquired.
        Rules r = rules.get(invocation.service());
        if (r == null) {
            return;
        }
        FlowLimiter method = r.methods.get(invocation.methodName());
        if (method != null) {
            method.release();
        }
        if (r.service != null) {
            r.service.release();
        }
    }

    private static FlowControlException refused(Invocation invocation, FlowLimiter limiter) {
        FlowControlException e = new FlowControlException(StatusTable.PROVIDER_FLOW_CONTROL.status(),
                "flow control refused "
                + invocation.service() + '.' + invocation.methodName() + ": " + limiter);
        // Sent to the consumer: the provider's stack would only be noise.
        e.setStackTrace(new StackTraceElement[0]);
        return e;
    }

    private record Rules(FlowLimiter service, Map<String, FlowLimiter> methods) {
    }

    /** Builds a {@link FlowControlFilter}. */
    public static final class Builder {
        private final Map<ServiceKey, FlowLimiter> services = new HashMap<>();
        private final Map<ServiceKey, Map<String, FlowLimiter>> methods = new HashMap<>();

        private Builder() {
        }

        /** Limits every call of the service {@code key}. */
        public Builder service(ServiceKey key, FlowLimiter limiter) {
            services.put(Requires.notNull(key, "key"), Requires.notNull(limiter, "limiter"));
            return this;
        }

        /** Limits the calls of the methods named {@code methodName} (all overloads) of the service {@code key}. */
        public Builder method(ServiceKey key, String methodName, FlowLimiter limiter) {
            methods.computeIfAbsent(Requires.notNull(key, "key"), k -> new HashMap<>())
                    .put(Requires.notBlank(methodName, "methodName"), Requires.notNull(limiter, "limiter"));
            return this;
        }

        public FlowControlFilter build() {
            Map<ServiceKey, Rules> all = new HashMap<>();
            for (Map.Entry<ServiceKey, FlowLimiter> e : services.entrySet()) {
                all.put(e.getKey(), new Rules(e.getValue(), Map.copyOf(methods.getOrDefault(e.getKey(), Map.of()))));
            }
            for (Map.Entry<ServiceKey, Map<String, FlowLimiter>> e : methods.entrySet()) {
                all.putIfAbsent(e.getKey(), new Rules(null, Map.copyOf(e.getValue())));
            }
            return new FlowControlFilter(all);
        }
    }
}
