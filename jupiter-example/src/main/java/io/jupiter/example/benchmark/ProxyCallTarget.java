package io.jupiter.example.benchmark;

import io.jupiter.benchmark.driver.TargetClient;
import io.jupiter.rpc.InvokeFutureContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A {@link TargetClient} making one kind of proxy call: blocking through a sync proxy (and checking the reply), or
 * returning at once through an ASYNC proxy (the reply is not checked, only counted).
 *
 * @param <S> the service interface
 * @param <R> what the call returns
 */
final class ProxyCallTarget<S, R> implements TargetClient {

    /** Each call's number {@code n} is below this: requests differ from call to call yet stay short. */
    static final int CALL_NUMBERS = 1 << 20;

    /** One call; {@code n} numbers it, so each call can send a different request. */
    @FunctionalInterface
    interface Call<S, R> {
        R invoke(S service, int n);
    }

    /** Checks the reply of blocking call {@code n}; throws if it is wrong. */
    @FunctionalInterface
    interface Check<R> {
        void verify(int n, R reply);
    }

    private final S sync;
    private final S async;
    private final Call<S, R> call;
    private final Check<R> check;

    ProxyCallTarget(S sync, S async, Call<S, R> call, Check<R> check) {
        this.sync = sync;
        this.async = async;
        this.call = call;
        this.check = check;
    }

    @Override
    public void call() {
        int n = nextNumber();
        check.verify(n, call.invoke(sync, n));
    }

    @Override
    public CompletableFuture<?> callAsync() {
        call.invoke(async, nextNumber());
        return InvokeFutureContext.future();
    }

    @Override
    public void close() {
        // The proxies belong to the client, which the command closes.
    }

    /** A random number rather than a shared counter: nothing for the caller threads to contend on. */
    private static int nextNumber() {
        return ThreadLocalRandom.current().nextInt(CALL_NUMBERS);
    }
}
