package io.jupiter.rpc.extension;

import io.jupiter.rpc.ServiceProvider;
import io.jupiter.rpc.context.RpcContext;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;

/** Reports what the provider sees of its call context; {@code relay} calls a downstream service. */
@ServiceProvider(group = "test", name = "context")
public interface ContextService {

    /** The attachments of the request, as the method sees them through {@link RpcContext}. */
    Map<String, String> attachments();

    /** {@link RpcContext#remainingMillis()} in the method. */
    long remaining();

    /** Calls {@code attachments()} of the downstream service and returns what it saw. */
    Map<String, String> relay();

    CompletableFuture<Map<String, String>> attachmentsLater();

    String fail(String message);

    /** Sleeps, then calls downstream; what became of that call is left in {@link Impl#relayed}. */
    String relayAfter(long millis) throws InterruptedException;

    final class Impl implements ContextService {
        volatile ContextService downstream;
        final BlockingQueue<Object> relayed = new LinkedBlockingQueue<>();

        @Override
        public Map<String, String> attachments() {
            return new TreeMap<>(RpcContext.attachments());
        }

        @Override
        public long remaining() {
            return RpcContext.remainingMillis();
        }

        @Override
        public Map<String, String> relay() {
            return downstream.attachments();
        }

        @Override
        public CompletableFuture<Map<String, String>> attachmentsLater() {
            return CompletableFuture.completedFuture(new TreeMap<>(RpcContext.attachments()));
        }

        @Override
        public String relayAfter(long millis) throws InterruptedException {
            Thread.sleep(millis);
            try {
                Object value = downstream.attachments();
                relayed.add(value);
                return "relayed";
            } catch (RuntimeException e) {
                relayed.add(e);
                throw e;
            }
        }

        @Override
        public String fail(String message) {
            throw new IllegalStateException(message);
        }
    }
}
