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
}
