package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.exception.ServerBusyException;
import io.jupiter.rpc.metrics.MetricNames;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A method's own adaptive concurrency limit ({@link AdaptiveConcurrency}), against a real provider on 127.0.0.1:
 * calls of that method beyond its limit get SERVER_BUSY naming the method, the service's other methods are served
 * meanwhile, and every permit comes back. The limit is pinned (min = max) so that the counts are exact.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MethodConcurrencyLimitTest {

    private static final int LIMIT = 4;
    private static final int CALLS = 10;

    @ServiceProvider(group = "test", name = "limited")
    public interface Limited {
        @AdaptiveConcurrency(initial = LIMIT, min = LIMIT, max = LIMIT)
        String held();

        String free();
    }

    @ServiceProvider(group = "test", name = "limited")
    public interface AsyncLimited {
        CompletableFuture<String> held();

        CompletableFuture<String> free();
    }

    static final class Impl implements Limited {
        final CountDownLatch entered = new CountDownLatch(LIMIT);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger peak = new AtomicInteger();

        @Override
        public String held() {
            peak.accumulateAndGet(running.incrementAndGet(), Math::max);
            entered.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
            }
            return "held";
        }

        @Override
        public String free() {
            return "free";
        }
    }

    @Test
    void callsBeyondTheMethodsLimitAreBusyAndTheOtherMethodsServed() throws Exception {
        Impl impl = new Impl();
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).providerThreads(16).build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(impl, Limited.class, ServiceKey.of(Limited.class, ServiceKey.DEFAULT_VERSION));
            int port = server.start().getPort();
            AsyncLimited async = client.proxy(AsyncLimited.class).address("127.0.0.1", port)
                    .cluster(ClusterStrategy.failFast()).timeoutMillis(20_000).build();

            List<CompletableFuture<String>> calls = new ArrayList<>();
            for (int i = 0; i < CALLS; i++) {
                calls.add(async.held());
            }
            assertThat(impl.entered.await(10, TimeUnit.SECONDS)).as("the limit's calls run").isTrue();
            Await.until("the calls beyond the limit refused", Duration.ofSeconds(20),
                    () -> calls.stream().filter(CompletableFuture::isCompletedExceptionally).count()
                            == CALLS - LIMIT);
            for (CompletableFuture<String> call : calls) {
                if (call.isCompletedExceptionally()) {
                    assertThatThrownBy(call::join).cause().isInstanceOf(ServerBusyException.class)
                            .hasMessageContaining("Limited.held")
                            .hasMessageContaining("adaptive concurrency limit of " + LIMIT);
                }
            }
            assertThat(async.free().get(10, TimeUnit.SECONDS)).as("another method meanwhile").isEqualTo("free");

            impl.release.countDown();
            int held = 0;
            for (CompletableFuture<String> call : calls) {
                if (!call.isCompletedExceptionally() && "held".equals(call.get(10, TimeUnit.SECONDS))) {
                    held++;
                }
            }
            assertThat(held).isEqualTo(LIMIT);
            assertThat(impl.peak).as("most calls of the method at once").hasValue(LIMIT);
            assertThat(server.metrics().registry().meter(MetricNames.REJECTION).getCount())
                    .isEqualTo(CALLS - LIMIT);
            // Every permit came back: as many calls as the limit run again at once.
            List<CompletableFuture<String>> again = new ArrayList<>();
            for (int i = 0; i < LIMIT; i++) {
                again.add(async.held());
            }
            for (CompletableFuture<String> call : again) {
                assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("held");
            }
        }
    }
}
