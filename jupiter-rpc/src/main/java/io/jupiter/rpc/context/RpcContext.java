package io.jupiter.rpc.context;

import io.jupiter.common.Requires;
import io.jupiter.rpc.internal.filter.ContextHolder;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import java.util.Map;

/**
 * The call context of the current thread.
 *
 * <p>In a provider method: the attachments of the request being served ({@link #attachments()}) and its remaining
 * time ({@link #remainingMillis()}). Calls the method makes on the same thread carry these attachments on, and the
 * deadline too, so a chain of calls shares the first caller's budget.
 *
 * <p>Anywhere: {@link #attach} adds an attachment to every call this thread makes until the returned scope closes:
 *
 * <pre>{@code
 * try (RpcContext.Scope ignored = RpcContext.attach("tenant", "acme")) {
 *     orders.list();   // sent with tenant=acme
 * }
 * }</pre>
 *
 * <p>The context is thread-bound: in a provider method returning a {@code CompletionStage} it is visible only to the
 * code running before the method returns.
 */
public final class RpcContext {

    private RpcContext() {
    }

    /** The attachments of the request this thread is serving; empty when it serves none. */
    public static Map<String, String> attachments() {
        DefaultInvocation serving = ContextHolder.serving();
        return serving == null ? Map.of() : serving.attachments();
    }

    /** One attachment of the request this thread is serving, or {@code null}. */
    public static String attachment(String key) {
        DefaultInvocation serving = ContextHolder.serving();
        return serving == null ? null : serving.attachment(key);
    }

    /**
     * Milliseconds left before the deadline of the request this thread is serving (negative once passed), or
     * {@link Long#MAX_VALUE} when it serves none or the consumer sent no deadline.
     */
    public static long remainingMillis() {
        DefaultInvocation serving = ContextHolder.serving();
        return serving == null ? Long.MAX_VALUE : serving.remainingMillis();
    }

    /** Sends {@code key=value} with every call this thread makes until the returned scope is closed. */
    public static Scope attach(String key, String value) {
        Requires.notBlank(key, "key");
        Requires.notNull(value, "value");
        String previous = ContextHolder.scope(key, value);
        return new Scope(key, previous);
    }

    /** Ends an attachment made with {@link #attach}; close it on the thread that made it. */
    public static final class Scope implements AutoCloseable {
        private final String key;
        private final String previous;
        private boolean closed;

        private Scope(String key, String previous) {
            this.key = key;
            this.previous = previous;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                ContextHolder.unscope(key, previous);
            }
        }
    }
}
