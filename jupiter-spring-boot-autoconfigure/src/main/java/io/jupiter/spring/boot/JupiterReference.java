package io.jupiter.spring.boot;

import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.balance.LoadBalancerType;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.serialization.SerializerType;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Injects a client proxy of the field's or parameter's service interface, made by the application's
 * {@code JupiterClient}.
 *
 * <pre>{@code
 * @Service
 * class Checkout {
 *     @JupiterReference(timeoutMillis = 500)
 *     private Greeter greeter;                                   // a field
 *
 *     Checkout(@JupiterReference(address = "${pricing.address}") Pricing pricing) { ... }   // or a parameter
 * }
 * }</pre>
 *
 * <p>Without {@link #address()} or {@link #registry()} the proxy finds its providers in {@code jupiter.client.registry}
 * or {@code jupiter.registry.address}. String attributes accept {@code ${...}} placeholders. The enum attributes are
 * arrays so that "not set" can be told apart: give at most one value ({@code invokeType = InvokeType.ASYNC}); unset
 * ones keep the defaults of {@code jupiter.client.*} and then of {@code ProxyBuilder}. Proxies with equal attributes
 * of the same interface are one proxy.
 *
 * <p>Tail tolerance per reference: {@link #loadBalancer()}, the {@code outlier*} attributes (outlier ejection),
 * the {@code retryBudget*} attributes and the {@code hedging*} attributes (hedging of the {@link #idempotent()}
 * methods); numeric attributes left at 0 keep the defaults of {@code JupiterSettings}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER})
public @interface JupiterReference {

    /** Provider addresses to call directly, {@code host:port[,host:port]}; empty: the registry. */
    String address() default "";

    /** Registry URL, overriding {@code jupiter.client.registry} and {@code jupiter.registry.address}. */
    String registry() default "";

    /** Service group; empty: the interface's {@code @ServiceProvider} group. */
    String group() default "";

    /** Service name; empty: the interface's {@code @ServiceProvider} name. */
    String name() default "";

    /** Service version; empty: the proxy builder's ({@code 1.0.0}). */
    String version() default "";

    /** Call timeout in milliseconds; 0: {@code jupiter.client.timeout}, else the proxy builder's. */
    long timeoutMillis() default 0;

    /** Serializer of requests; unset: {@code jupiter.client.serializer}, else the proxy builder's. */
    SerializerType[] serializer() default {};

    /** How calls return; unset: the proxy builder's ({@link InvokeType#SYNC}). */
    InvokeType[] invokeType() default {};

    /** What a failed call does; unset: the proxy builder's (fail fast). */
    ClusterStrategy.Kind[] cluster() default {};

    /** Retries of {@link ClusterStrategy.Kind#FAIL_OVER}, 1 to 10; 2 as in Jupiter 1.3.1. */
    int failoverRetries() default 2;

    /** How calls are spread over providers; unset: the proxy builder's. */
    LoadBalancerType[] loadBalancer() default {};

    /** Connections kept to each direct address; 0: the proxy builder's (1). */
    int connections() default 0;

    /**
     * Methods safe to run twice: fail-over retries them after a timeout too, and only they are hedged
     * ({@code ProxyBuilder.idempotent}).
     */
    String[] idempotent() default {};

    // ---- outlier ejection (OutlierEjection); unset values keep jupiter.rpc.outlier.* ----

    /** {@code false}: no outlier ejection for this proxy (then no other {@code outlier*} attribute may be set). */
    boolean outlierEjection() default true;

    /** Timeouts or connection errors in a row that eject a provider; 0: the default (5). */
    int outlierConsecutiveFailures() default 0;

    /**
     * Failure share (percent) of a provider's attempts within the window that ejects it; 0 turns the rule off, -1:
     * the default (50).
     */
    int outlierFailureRatePercent() default -1;

    /** Attempts within the window before the failure share counts; 0: the default (20). */
    int outlierFailureRateMinRequests() default 0;

    /** The window of the failure share; 0: the default (10 s). */
    long outlierFailureRateWindowMillis() default 0;

    /** First ejection time, doubled at each further ejection; 0: the default (5 s). */
    long outlierEjectionMillis() default 0;

    /** Longest ejection time; 0: the default (60 s, or the first ejection time if longer). */
    long outlierMaxEjectionMillis() default 0;

    /** Largest share (percent) of the providers out at once, never all; 0: the default (50). */
    int outlierMaxEjectedPercent() default 0;

    // ---- retry budget (RetryBudget); unset values keep jupiter.rpc.retry.budget.* ----

    /** {@code false}: no retry budget (every retry the cluster strategy allows is sent). */
    boolean retryBudget() default true;

    /** Tokens of the budget; 0: the default (10). */
    int retryBudgetMaxTokens() default 0;

    /** Percent of a token each successful attempt gives back; 0: the default (10). */
    int retryBudgetTokenPercent() default 0;

    // ---- hedging of the idempotent methods (HedgingPolicy); off unless a delay or a percentile is set ----

    /**
     * Hedges the {@link #idempotent()} methods after this fixed delay; with {@link #hedgingPercentile()} it is the
     * fallback delay until enough attempts were seen. 0: none (or, with a percentile, the default fallback, 100 ms).
     */
    long hedgingDelayMillis() default 0;

    /**
     * Hedges the {@link #idempotent()} methods when an attempt has taken longer than this percentile (50 to 99.9)
     * of the method's recent attempts ({@code HedgingPolicy.afterLatencyPercentile}); 0: no percentile.
     */
    double hedgingPercentile() default 0;

    /** The shortest delay of a hedge at a percentile; 0: the default (10 ms). */
    long hedgingMinDelayMillis() default 0;

    /** Attempts of a hedged call at most, 2 to 5; 0: 2. */
    int hedgingMaxAttempts() default 0;
}
