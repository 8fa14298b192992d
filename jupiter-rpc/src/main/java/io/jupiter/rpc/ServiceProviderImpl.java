package io.jupiter.rpc;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Marks a service implementation and gives its version. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ServiceProviderImpl {

    /** The version; default {@code "1.0.0"}. */
    String version() default ServiceKey.DEFAULT_VERSION;
}
