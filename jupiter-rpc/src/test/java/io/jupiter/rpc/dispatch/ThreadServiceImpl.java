package io.jupiter.rpc.dispatch;

import io.jupiter.rpc.NonBlocking;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

public class ThreadServiceImpl implements ThreadService {

    private static String thread() {
        return Thread.currentThread().getName();
    }

    @Override
    public String plain() {
        return thread();
    }

    @Override
    public String declaredOnInterface() {
        return thread();
    }

    @NonBlocking
    @Override
    public String declaredOnImplementation() {
        return thread();
    }

    @NonBlocking(false)
    @Override
    public String undeclaredByImplementation() {
        return thread();
    }

    @Override
    public CompletableFuture<String> stage() {
        return CompletableFuture.completedFuture(thread());
    }

    @Override
    public CompletableFuture<String> declaredStage() {
        return CompletableFuture.completedFuture(thread());
    }

    @Override
    public CompletableFuture<String> blockingStage() {
        return CompletableFuture.completedFuture(thread());
    }

    @Override
    public String overloaded(String a) {
        return thread();
    }

    @Override
    public String overloaded(int a) {
        return thread();
    }

    @Override
    public String sleepy(long micros) {
        if (micros > 0) {
            long until = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(micros);
            for (long left = micros * 1000; left > 0; left = until - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
        }
        return thread();
    }

    @Override
    public String echoThread(String payload) {
        return thread();
    }

    /** The same methods, all declared non-blocking by the class, but for what a method says itself. */
    @NonBlocking
    public static class AllNonBlocking extends ThreadServiceImpl {
    }
}
