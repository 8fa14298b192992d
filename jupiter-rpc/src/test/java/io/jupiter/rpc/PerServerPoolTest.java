package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The built-in pool's settings are each server's own (issue #38's settings item): two servers in one JVM with 8
 * provider threads, 8 calls held at a gate on each. The one with {@code poolParallelism(8)} runs all 8 at once; the
 * one with {@code poolParallelism(1)} and a 10 s {@code poolStallMicros} runs one and keeps the others queued.
 */
class PerServerPoolTest {

    @Test
    void eachServerWakesItsPoolThreadsByItsOwnParallelism() throws Exception {
        GateService.Impl wide = new GateService.Impl(8);
        GateService.Impl narrow = new GateService.Impl(8);
        ExecutorService callers = Executors.newFixedThreadPool(16);
        try (JupiterServer wideServer = JupiterServer.builder().host("127.0.0.1").port(0).providerThreads(8)
                .poolParallelism(8).poolStallMicros(TimeUnit.SECONDS.toMicros(10)).build();
             JupiterServer narrowServer = JupiterServer.builder().host("127.0.0.1").port(0).providerThreads(8)
                     .poolParallelism(1).poolStallMicros(TimeUnit.SECONDS.toMicros(10)).build();
             JupiterClient client = JupiterClient.builder().build()) {
            wideServer.register(wide);
            narrowServer.register(narrow);
            GateService toWide = client.proxy(GateService.class).address("127.0.0.1", wideServer.start().getPort())
                    .timeoutMillis(30_000).build();
            GateService toNarrow = client.proxy(GateService.class)
                    .address("127.0.0.1", narrowServer.start().getPort()).timeoutMillis(30_000).build();
            List<Future<String>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String id = "call " + i;
                calls.add(callers.submit(() -> toWide.pass(id)));
                calls.add(callers.submit(() -> toNarrow.pass(id)));
            }

            assertThat(wide.entered.await(20, TimeUnit.SECONDS)).as("all 8 calls running at once, parallelism 8")
                    .isTrue();
            Await.until("a call running on the narrow server", Duration.ofSeconds(20),
                    () -> narrow.entered.getCount() < 8);
            assertThat(Await.holdsFor(Duration.ofSeconds(1), () -> narrow.entered.getCount() == 7))
                    .as("one call running at a time on the server with parallelism 1").isTrue();

            wide.gate.countDown();
            narrow.gate.countDown();
            for (Future<String> call : calls) {
                assertThat(call.get(30, TimeUnit.SECONDS)).startsWith("passed call ");
            }
        } finally {
            callers.shutdownNow();
        }
    }
}
