package io.jupiter.rpc.filter;

/**
 * An {@link Interceptor} that declares where it runs and in which order. Filters listed in
 * {@code META-INF/services/io.jupiter.rpc.filter.Filter} are loaded once with {@link java.util.ServiceLoader} and run
 * on every client proxy and server service of their {@link #side()}; a filter may also be registered like an
 * interceptor. The built-in behaviours (flow control, tracing, metrics) are filters too.
 *
 * <p>Order: higher {@link #priority()} runs its {@code beforeInvoke} first (and its {@code afterInvoke} last); plain
 * interceptors count as priority 0; ties keep registration order (service-loaded filters, then global, then
 * per-service interceptors).
 */
public interface Filter extends Interceptor {

    /** Where this filter runs; default {@link Side#BOTH}. */
    default Side side() {
        return Side.BOTH;
    }

    /** Higher runs earlier; default 0. */
    default int priority() {
        return 0;
    }

    /**
     * Whether to run at all, asked once when a proxy is built or a service registered; a filter that has nothing to
     * do (e.g. tracing with no tracing SDK installed) answers {@code false} and then costs nothing. Default true.
     */
    default boolean isEnabled() {
        return true;
    }
}
