package io.jupiter.rpc;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares that a provided method never blocks (no I/O, no locks held for long, no synchronous calls to other
 * services), so the provider runs it on the IO thread that read its request instead of handing it to the provider
 * pool. That saves two thread hand-offs per call; a method that does block while on an IO thread stalls every
 * connection that thread serves, so declare only what is true.
 *
 * <p>Put it on a method or on a type (the service interface or the implementation class) to cover all of its
 * methods. A method's declaration wins over a type's, and at the same level the implementation's wins over the
 * interface's. {@code @NonBlocking(false)} keeps a method on the provider pool, always. A method declared neither way
 * runs on the pool; only a server with adaptive dispatch on (off by default: {@code
 * JupiterServer.Builder.adaptiveDispatch}, which says how it learns and what it risks) moves it to the IO threads
 * once it has proved fast. A method returning a
 * {@link java.util.concurrent.CompletionStage} is not taken for non-blocking by itself, since many such methods do
 * blocking work before they return their stage: it too is declared or learned. With
 * {@code JupiterServer.Builder.providerThreads(0)} every method runs on the IO threads, declared or not.
 *
 * <p>Interceptors of a method that runs on an IO thread run there too.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface NonBlocking {

    /** {@code false} declares a method blocking where its type (or its interface) says non-blocking. */
    boolean value() default true;
}
