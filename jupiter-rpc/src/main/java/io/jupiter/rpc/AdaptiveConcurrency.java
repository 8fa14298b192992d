package io.jupiter.rpc;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives a provided method an adaptive concurrency limit of its own (issue #35), learned from its calls' latency as
 * the server-wide one is ({@code JupiterServer.Builder.adaptiveConcurrency}, Gradient2-like): it shrinks while the
 * method's latency rises with its concurrency, grows while it does not. A call is counted from the moment its
 * request names the method (the envelope is read, before any argument) until it is answered or dropped; a call
 * beyond the limit is answered {@code SERVER_BUSY} at once ("provider busy: N calls of Service.method in flight, at
 * its adaptive concurrency limit of L"), counted as a rejection; the method never ran, so a consumer may retry it
 * elsewhere. It protects one slow method (a database call, say) without refusing the service's other methods, and
 * works with or without the server-wide limit (a call then needs a permit of both).
 *
 * <p>Put it on a method, or on a type (the service interface or the implementation class) to give each of its
 * methods a limit of its own; the implementation's method wins over the interface's, a method over a type.
 * Overloads share one limit (they share a name on the wire). {@code @AdaptiveConcurrency(enabled = false)} on a
 * method leaves it out where its type has one.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface AdaptiveConcurrency {

    /** {@code false} leaves a method without a limit of its own where its type declares one. */
    boolean enabled() default true;

    /** Where the limit starts. */
    int initial() default 20;

    /** The lowest the limit goes. */
    int min() default 4;

    /** The highest the limit goes. */
    int max() default 1000;
}
