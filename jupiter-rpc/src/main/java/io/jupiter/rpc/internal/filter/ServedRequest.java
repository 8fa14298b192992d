package io.jupiter.rpc.internal.filter;

/**
 * The request a provider thread serves, as {@link ContextHolder} keeps it: its {@link DefaultInvocation} is made only
 * when something asks for it (user code reading {@code RpcContext}, a call made from the method), so a plain call
 * that merely carries attachments allocates none.
 */
public interface ServedRequest {

    /** The invocation of this request; the same one every time it is asked for, on the thread serving it. */
    DefaultInvocation invocation();
}
