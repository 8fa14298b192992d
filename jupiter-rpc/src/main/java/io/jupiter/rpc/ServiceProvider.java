package io.jupiter.rpc;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a service interface and names it on the wire. A provider is found by {@code group-name-version}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ServiceProvider {

    /** The service group; default {@code "Jupiter"}, as in 1.3.1. */
    String group() default "Jupiter";

    /** The service name; empty means the interface's fully qualified name. */
    String name() default "";
}
