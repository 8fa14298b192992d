package io.jupiter.rpc.internal.filter;

import java.util.HashMap;
import java.util.Map;

/**
 * The per-thread call context: the provider invocation this thread is serving, and the attachments user code scoped
 * onto this thread's calls. The thread-local is not even looked up until some code used a context once.
 */
public final class ContextHolder {

    private static final ThreadLocal<ContextHolder> LOCAL = ThreadLocal.withInitial(ContextHolder::new);
    /** Set once, never cleared: before that, no thread has a context and the hot path skips the lookup. */
    private static volatile boolean used;

    /** The request this thread serves (its invocation made when asked for), or {@code null}. */
    private ServedRequest serving;
    Map<String, String> scoped;

    private ContextHolder() {
    }

    /** This thread's context if it has anything in it, else {@code null}; allocates nothing. */
    public static ContextHolder active() {
        if (!used) {
            return null;
        }
        ContextHolder holder = LOCAL.get();
        return holder.serving == null && holder.scoped == null ? null : holder;
    }

    /** This thread's context, created on first use. */
    public static ContextHolder current() {
        used = true;
        return LOCAL.get();
    }

    /** The provider invocation this thread serves, or {@code null}. */
    public static DefaultInvocation serving() {
        return used ? LOCAL.get().servingInvocation() : null;
    }

    /** The invocation of the request this context's thread serves, or {@code null}. */
    DefaultInvocation servingInvocation() {
        return serving == null ? null : serving.invocation();
    }

    /** Makes {@code request} the one this thread serves; returns the previous one, to restore. */
    public static ServedRequest enter(ServedRequest request) {
        ContextHolder holder = current();
        ServedRequest previous = holder.serving;
        holder.serving = request;
        return previous;
    }

    public static void exit(ServedRequest previous) {
        LOCAL.get().serving = previous;
    }

    /** Scopes an attachment onto this thread's calls; returns the previous value (or {@code null}). */
    public static String scope(String key, String value) {
        ContextHolder holder = current();
        if (holder.scoped == null) {
            holder.scoped = new HashMap<>();
        }
        return value == null ? holder.scoped.remove(key) : holder.scoped.put(key, value);
    }

    /** Ends a scoped attachment, restoring {@code previous}. */
    public static void unscope(String key, String previous) {
        ContextHolder holder = LOCAL.get();
        if (holder.scoped == null) {
            return;
        }
        if (previous == null) {
            holder.scoped.remove(key);
        } else {
            holder.scoped.put(key, previous);
        }
        if (holder.scoped.isEmpty()) {
            holder.scoped = null;
        }
    }
}
