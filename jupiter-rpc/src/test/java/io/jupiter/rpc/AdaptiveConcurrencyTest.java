package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.exception.ServerBusyException;
import io.jupiter.rpc.internal.AdaptiveConcurrencyLimit;
import io.jupiter.rpc.metrics.MetricNames;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * The server's adaptive concurrency limit against real sockets on 127.0.0.1: more callers than its limit get
 * SERVER_BUSY naming it, the method never runs more calls at once than the limit allows, and every permit comes
 * back, whatever became of the call (answered, failed, dropped for its deadline).
 */
class AdaptiveConcurrencyTest {

    /** A method whose calls wait for each other: each takes 2 ms for every call running beside it. */
    @ServiceProvider(group = "test", name = "contended")
    public interface Contended {
        String work();

        String fail();

        String slow(int millis);
    }

    static final class ContendedImpl implements Contended {
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger peak = new AtomicInteger();
        final LongAdder executed = new LongAdder();

        @Override
        public String work() {
            int now = running.incrementAndGet();
            peak.accumulateAndGet(now, Math::max);
            executed.increment();
            try {
                Thread.sleep(2L * now);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
            }
            return "ok";
        }

        @Override
        public String fail() {
            throw new IllegalStateException("broken on purpose");
        }

        @Override
        public String slow(int millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "slow";
        }
    }

    @Test
    void offOnlyWhenAskedFor() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build()) {
            assertThat(server.concurrencyLimit()).as("off by default").isNull();
        }
    }

    @Test
    void callersBeyondTheLimitGetServerBusyAndInFlightStaysBounded() throws Exception {
        ContendedImpl impl = new ContendedImpl();
        int callers = 64;
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).providerThreads(callers)
                .adaptiveConcurrency(true).build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(impl);
            int port = server.start().getPort();
            AdaptiveConcurrencyLimit limit = server.concurrencyLimit();
            Contended proxy = client.proxy(Contended.class).address("127.0.0.1", port).timeoutMillis(10_000).build();
            LongAdder ok = new LongAdder();
            LongAdder busy = new LongAdder();
            ConcurrentLinkedQueue<String> busyMessages = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<Throwable> other = new ConcurrentLinkedQueue<>();
            AtomicInteger highestLimit = new AtomicInteger(limit.limit());
            ExecutorService pool = Executors.newFixedThreadPool(callers);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int c = 0; c < callers; c++) {
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < 40; i++) {
                            highestLimit.accumulateAndGet(limit.limit(), Math::max);
                            try {
                                proxy.work();
                                ok.increment();
                            } catch (ServerBusyException e) {
                                busy.increment();
                                if (busyMessages.size() < 5) {
                                    busyMessages.add(String.valueOf(e.getMessage()));
                                }
                                Thread.sleep(2); // a caller told to go away does not hammer
                            } catch (RuntimeException e) {
                                other.add(e);
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(120, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(other).as("failures other than SERVER_BUSY").isEmpty();
            assertThat(ok.sum()).as("calls served").isPositive();
            assertThat(busy.sum()).as("calls refused at the limit").isPositive();
            assertThat(busyMessages).allSatisfy(m -> assertThat(m).contains("adaptive concurrency limit"));
            assertThat(impl.peak.get()).as("calls running at once, of " + callers + " callers")
                    .isLessThanOrEqualTo(highestLimit.get()).isLessThan(callers);
            assertThat(server.metrics().registry().meter(MetricNames.REJECTION).getCount())
                    .as("refusals counted as rejections").isGreaterThanOrEqualTo(busy.sum());
            Await.until("every permit back", Duration.ofSeconds(30), () -> limit.inFlight() == 0);
        }
    }

    @Test
    void everyPermitComesBackAfterFailuresAndDeadlineDrops() throws Exception {
        ContendedImpl impl = new ContendedImpl();
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).providerThreads(1)
                .adaptiveConcurrency(true).build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(impl);
            int port = server.start().getPort();
            AdaptiveConcurrencyLimit limit = server.concurrencyLimit();
            Contended failing = client.proxy(Contended.class).address("127.0.0.1", port).timeoutMillis(10_000)
                    .build();
            Contended async = client.proxy(Contended.class).address("127.0.0.1", port)
                    .invokeType(InvokeType.ASYNC).timeoutMillis(50).build();
            int failures = 0;
            for (int i = 0; i < 30; i++) {
                try {
                    failing.fail();
                } catch (RuntimeException e) {
                    failures++;
                }
            }
            assertThat(failures).isEqualTo(30);
            // One provider thread, 200 ms calls, callers who wait 50 ms: all but the first wait past their deadline
            // in the queue and are dropped unrun (or refused at the limit).
            List<CompletableFuture<String>> futures = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                async.slow(200);
                futures.add(InvokeFutureContext.future(String.class));
            }
            for (CompletableFuture<String> f : futures) {
                f.handle((v, e) -> null).get(30, TimeUnit.SECONDS);
            }
            Await.until("every permit back", Duration.ofSeconds(30), () -> limit.inFlight() == 0);
            assertThat(server.metrics().registry().meter(MetricNames.DEADLINE_EXPIRED).getCount())
                    .as("calls dropped for their deadline").isPositive();
            // And the limit still admits: nothing leaked.
            assertThat(failing.slow(1)).isEqualTo("slow");
            Await.until("every permit back", Duration.ofSeconds(30), () -> limit.inFlight() == 0);
        }
    }
}
