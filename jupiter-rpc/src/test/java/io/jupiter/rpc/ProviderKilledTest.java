package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.exception.ConnectionException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.testkit.Await;
import io.jupiter.testkit.OwnThreads;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * A provider JVM killed with SIGKILL under load: the consumer's calls fail fast with a connection error (not a
 * timeout), and succeed again once a provider is back on the same port, without restarting the consumer.
 */
class ProviderKilledTest {

    @Test
    void consumerRidesOutAKilledProvider() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        Process provider = startProvider(port);
        try (JupiterClient client = JupiterClient.builder().build()) {
            EchoService echo = client.proxy(EchoService.class).address("127.0.0.1", port).connections(2)
                    .timeoutMillis(20_000).build();
            assertThat(echo.hello("up")).isEqualTo("hello, up");

            AtomicBoolean running = new AtomicBoolean(true);
            AtomicInteger ok = new AtomicInteger();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            List<CompletableFuture<Void>> load = List.of(loop(echo, running, ok, failures),
                    loop(echo, running, ok, failures));
            await(() -> ok.get() > 200, 20_000, "calls succeed before the kill");

            provider.destroyForcibly();
            assertThat(provider.waitFor(10, TimeUnit.SECONDS)).isTrue();
            long killedAt = System.nanoTime();
            await(() -> !failures.isEmpty(), 10_000, "calls fail after the kill");
            long firstFailureMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);

            provider = startProvider(port);
            int okBeforeRestart = ok.get();
            await(() -> ok.get() > okBeforeRestart + 200, 30_000, "calls succeed again after the restart");
            running.set(false);
            CompletableFuture.allOf(load.toArray(new CompletableFuture<?>[0])).get(30, TimeUnit.SECONDS);

            // Far below the 20 s call timeout: the calls in flight failed when the connection died.
            assertThat(firstFailureMillis).isLessThan(5_000);
            assertThat(failures).allSatisfy(f -> assertThat(f).isInstanceOf(ConnectionException.class));
        } finally {
            provider.destroyForcibly();
            provider.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static CompletableFuture<Void> loop(EchoService echo, AtomicBoolean running, AtomicInteger ok,
                                                ConcurrentLinkedQueue<Throwable> failures) {
        return CompletableFuture.runAsync(() -> {
            while (running.get()) {
                try {
                    echo.hello("x");
                    ok.incrementAndGet();
                } catch (RpcException e) {
                    if (failures.size() < 1_000) {
                        failures.add(e);
                    }
                    pauseBeforeRetry();
                }
            }
        }, OwnThreads.EXECUTOR);
    }

    /** A caller that backs off a little, as a real one would, so the outage is not a busy loop on 2 cores. */
    private static void pauseBeforeRetry() {
        try {
            TimeUnit.MILLISECONDS.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Process startProvider(int port) throws IOException, InterruptedException {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Process process = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                StandaloneProvider.class.getName(), String.valueOf(port)).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
            try {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.startsWith("ready ")) {
                        return line;
                    }
                }
                return null;
            } catch (IOException e) {
                return null;
            }
        }, OwnThreads.EXECUTOR);
        try {
            assertThat(ready.get(30, TimeUnit.SECONDS)).isEqualTo("ready " + port);
        } catch (Exception e) {
            process.destroyForcibly();
            throw new AssertionError("provider JVM did not start", e);
        }
        // Keep draining its output so it never blocks on a full pipe.
        CompletableFuture.runAsync(() -> {
            try {
                while (out.readLine() != null) {
                    // discard
                }
            } catch (IOException ignored) {
                // the process is gone
            }
        }, OwnThreads.EXECUTOR);
        return process;
    }

    private static void await(BooleanSupplier condition, long timeoutMillis, String what) {
        Await.until(what, Duration.ofMillis(timeoutMillis), condition);
    }
}
