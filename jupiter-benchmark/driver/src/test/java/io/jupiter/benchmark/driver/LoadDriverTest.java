package io.jupiter.benchmark.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The load loop on its own, against a client that answers in-process: what it counts and how it batches. */
class LoadDriverTest {

    @Test
    void syncModeCountsOnlyTheMeasuredCalls() throws Exception {
        CountingClient client = new CountingClient(false);
        LoadResult result = new LoadDriver(client, false, 2, 0, null).run(1, 1, System.out);

        assertThat(result.failures()).isZero();
        assertThat(result.count()).isPositive().isLessThan(client.calls.get());
        assertThat(result.seconds()).isGreaterThanOrEqualTo(1.0);
        assertThat(result.p50Micros()).isLessThanOrEqualTo(result.p99Micros());
    }

    @Test
    void asyncModeFiresWholeBatchesAndCountsFailures() throws Exception {
        CountingClient client = new CountingClient(true);
        LoadResult result = new LoadDriver(client, true, 1, 0, null).run(0, 1, System.out);

        // Every call fails, each one counted once, in whole batches of IN_FLIGHT.
        assertThat(result.count()).isZero();
        assertThat(result.failures()).isPositive().isEqualTo(client.calls.get());
        assertThat(client.calls.get() % LoadDriver.IN_FLIGHT).isZero();
        assertThat(result.firstFailure()).contains("refused on purpose");
    }

    @Test
    void soakLinesArePrintedPerInterval() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new LoadDriver(new CountingClient(false), false, 1, 1, () -> "jvm-line")
                .run(0, 2, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines())
                .hasSize(2).allMatch(line -> line.startsWith("[soak] t=") && line.endsWith("failed=0 jvm-line"));
    }

    @Test
    void threadsMustBePositive() {
        assertThatThrownBy(() -> new LoadDriver(new CountingClient(false), false, 0, 0, null))
                .hasMessageContaining("threads");
    }

    /** Answers at once, or fails every async call. */
    private static final class CountingClient implements TargetClient {
        final AtomicLong calls = new AtomicLong();
        private final boolean fail;

        CountingClient(boolean fail) {
            this.fail = fail;
        }

        @Override
        public void call() {
            calls.incrementAndGet();
        }

        @Override
        public CompletableFuture<?> callAsync() {
            calls.incrementAndGet();
            return fail ? CompletableFuture.failedFuture(new IllegalStateException("refused on purpose"))
                    : CompletableFuture.completedFuture("ok");
        }

        @Override
        public void close() {
        }
    }
}
