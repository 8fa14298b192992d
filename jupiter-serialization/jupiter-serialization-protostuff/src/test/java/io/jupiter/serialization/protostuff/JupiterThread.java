package io.jupiter.serialization.protostuff;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.concurrent.atomic.AtomicReference;

/** Runs test code on a Jupiter thread: one with its own input, reader and output (a {@link FastThreadLocalThread}). */
final class JupiterThread {

    private JupiterThread() {
    }

    /** Runs {@code body} on a new Jupiter thread and waits for it (30 s at most), failing with what it threw. */
    static void run(Runnable body) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread io = new FastThreadLocalThread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        io.start();
        io.join(30_000);
        assertThat(io.isAlive()).as("the Jupiter thread ended").isFalse();
        assertThat(failure.get()).isNull();
    }
}
