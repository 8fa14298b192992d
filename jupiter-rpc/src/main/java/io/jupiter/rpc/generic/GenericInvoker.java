package io.jupiter.rpc.generic;

import java.util.concurrent.CompletableFuture;

/**
 * Calls a service without its interface on the class path: the method by name, the arguments as values. The request
 * is the same as an ordinary call's (1.3.1 sends no parameter types either), so the provider serves it through exactly
 * the same path: method choice by the arguments' runtime types, interceptors, filters, flow control and whatever
 * checks the provider applies to requests. Made by {@code JupiterClient.generic(ServiceKey)}.
 *
 * <p>A failure ends as with an ordinary call, except that a checked exception the method declares arrives wrapped
 * in a {@link io.jupiter.rpc.exception.RemoteServiceException} (no declaration is known here).
 */
public interface GenericInvoker {

    /**
     * Calls {@code methodName} and waits for the result (or, for a proxy built with {@code InvokeType.ASYNC}, returns
     * {@code null} at once and leaves the future in {@code InvokeFutureContext}).
     */
    Object $invoke(String methodName, Object... args);

    /** Calls {@code methodName} and returns at once; the future completes with the result. */
    CompletableFuture<Object> $invokeAsync(String methodName, Object... args);
}
