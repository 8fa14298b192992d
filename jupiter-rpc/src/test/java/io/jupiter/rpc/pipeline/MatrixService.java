package io.jupiter.rpc.pipeline;

import io.jupiter.rpc.ServiceProvider;
import io.jupiter.rpc.context.RpcContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The service of {@link ConsumerPipelineTest}: answers its provider's name, or fails; records what each call carried.
 */
@ServiceProvider(group = "test", name = "matrix")
public interface MatrixService {

    /** The name of the provider that answered. */
    String who();

    CompletableFuture<String> whoLater();

    /** Throws a business exception (never safe to retry). */
    int broken();

    /** Throws a business exception. */
    CompletableFuture<Integer> brokenLater();

    final class Impl implements MatrixService {
        final String name;
        final AtomicInteger whoCalls = new AtomicInteger();
        final AtomicInteger brokenCalls = new AtomicInteger();
        /** The attachments of every request served. */
        final List<Map<String, String>> attachments = new CopyOnWriteArrayList<>();
        /** {@link RpcContext#remainingMillis()} of every request served. */
        final List<Long> remaining = new CopyOnWriteArrayList<>();

        Impl(String name) {
            this.name = name;
        }

        void clear() {
            attachments.clear();
            remaining.clear();
        }

        private void record() {
            attachments.add(Map.copyOf(RpcContext.attachments()));
            remaining.add(RpcContext.remainingMillis());
        }

        @Override
        public String who() {
            record();
            whoCalls.incrementAndGet();
            return name;
        }

        @Override
        public CompletableFuture<String> whoLater() {
            return CompletableFuture.completedFuture(who());
        }

        @Override
        public int broken() {
            record();
            brokenCalls.incrementAndGet();
            throw new IllegalStateException("broken in " + name);
        }

        @Override
        public CompletableFuture<Integer> brokenLater() {
            return CompletableFuture.completedFuture(broken());
        }
    }
}
