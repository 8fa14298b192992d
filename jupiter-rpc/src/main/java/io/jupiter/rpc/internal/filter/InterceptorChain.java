package io.jupiter.rpc.internal.filter;

import io.jupiter.rpc.filter.Filter;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.rpc.filter.Side;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.transport.Status;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The interceptors of one proxy or one service, in order, fixed when built. {@link #of} returns {@code null} when
 * there are none, so that a call path can skip the chain (and the invocation) with one null check.
 */
public final class InterceptorChain {

    private static final Logger log = LoggerFactory.getLogger(InterceptorChain.class);

    private final Interceptor[] interceptors;

    private InterceptorChain(Interceptor[] interceptors) {
        this.interceptors = interceptors;
    }

    /**
     * The chain of one side: the service-loaded filters of that side, then {@code global}, then {@code local}, sorted
     * by priority (stable); filters declared for the other side are left out. {@code null} if empty.
     */
    public static InterceptorChain of(Side side, List<? extends Interceptor> global,
                                      List<? extends Interceptor> local) {
        List<Interceptor> all = new ArrayList<>(FilterLoader.filters());
        all.addAll(global);
        all.addAll(local);
        all.removeIf(i -> i instanceof Filter && (!((Filter) i).side().includes(side) || !((Filter) i).isEnabled()));
        if (all.isEmpty()) {
            return null;
        }
        all.sort(Comparator.comparingInt(InterceptorChain::priority).reversed());
        return new InterceptorChain(all.toArray(new Interceptor[0]));
    }

    private static int priority(Interceptor interceptor) {
        return interceptor instanceof Filter ? ((Filter) interceptor).priority() : 0;
    }

    /**
     * Runs every {@code beforeInvoke} in order. If one throws, the {@code afterInvoke} of those that ran before it
     * run (with the exception) and the exception is rethrown.
     */
    public void before(DefaultInvocation invocation) {
        Interceptor[] all = interceptors;
        int i = 0;
        try {
            for (; i < all.length; i++) {
                all[i].beforeInvoke(invocation);
            }
        } catch (RuntimeException | Error e) {
            invocation.status(refusalStatus(invocation, e));
            after(invocation, i - 1, null, e);
            throw e;
        }
    }

    /**
     * The status of a call an interceptor refused: the exception's own for an {@code RpcException}; else a local
     * error on the consumer, and on the provider the service error the consumer will be sent.
     */
    private static Status refusalStatus(Invocation invocation, Throwable error) {
        return StatusTable.fromThrowable(error,
                invocation.side() == Side.CONSUMER ? StatusTable.CLIENT_ERROR.status()
                        : StatusTable.SERVICE_UNEXPECTED_ERROR.status());
    }

    /** Runs every {@code afterInvoke}, last to first; what they throw is logged. */
    public void after(DefaultInvocation invocation, Object result, Throwable error) {
        after(invocation, interceptors.length - 1, result, error);
    }

    private void after(Invocation invocation, int from, Object result, Throwable error) {
        Interceptor[] all = interceptors;
        for (int i = from; i >= 0; i--) {
            try {
                all[i].afterInvoke(invocation, result, error);
            } catch (RuntimeException | Error e) {
                log.warn("{}.afterInvoke failed on {}", all[i].getClass().getName(), invocation, e);
            }
        }
    }

    /** Runs every {@code enterMethod}; returns the scopes to close, or {@code null} when none was opened. */
    public Interceptor.MethodScope[] enterMethod(DefaultInvocation invocation) {
        Interceptor[] all = interceptors;
        Interceptor.MethodScope[] scopes = null;
        for (int i = 0; i < all.length; i++) {
            Interceptor.MethodScope scope;
            try {
                scope = all[i].enterMethod(invocation);
            } catch (RuntimeException | Error e) {
                log.warn("{}.enterMethod failed on {}", all[i].getClass().getName(), invocation, e);
                continue;
            }
            if (scope != null) {
                if (scopes == null) {
                    scopes = new Interceptor.MethodScope[all.length];
                }
                scopes[i] = scope;
            }
        }
        return scopes;
    }

    /** Closes what {@link #enterMethod} opened, last to first. */
    public static void exitMethod(Interceptor.MethodScope[] scopes) {
        if (scopes == null) {
            return;
        }
        for (int i = scopes.length - 1; i >= 0; i--) {
            if (scopes[i] != null) {
                try {
                    scopes[i].close();
                } catch (RuntimeException | Error e) {
                    log.warn("closing a method scope failed", e);
                }
            }
        }
    }

    @Override
    public String toString() {
        return "InterceptorChain" + List.of(interceptors);
    }
}
