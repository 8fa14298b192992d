package io.jupiter.rpc.overload;

import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The overload scenario of issue #35, run by hand: one provider with the server's defaults, a method that waits
 * 20 ms, one consumer with a 500 ms timeout. Measures capacity C closed-loop (64 callers; the calls the provider
 * ran a second, so that calls shed and retried at once by the loop do not count), then offers calls
 * open-loop at {@code k} x C for {@code overloadSeconds}, then at 0.5 x C for {@code afterSeconds}, for each
 * {@code k}; prints one row per second and a summary. Settings come from system properties as usual
 * ({@code -Djupiter.rpc.provider.queue.target.millis=0} is the queue before issue #35,
 * {@code -Djupiter.rpc.consumer.deadline.propagate=false} a consumer that sends no deadline).
 *
 * <pre>
 * java -cp ... io.jupiter.rpc.overload.OverloadDriver [k,k...=3,10] [overloadSeconds=15] [afterSeconds=10] [C]
 * </pre>
 */
public final class OverloadDriver {

    static final int METHOD_MILLIS = 20;
    static final long TIMEOUT_MILLIS = 500;

    private OverloadDriver() {
    }

    public static void main(String[] args) throws Exception {
        String[] factors = (args.length > 0 ? args[0] : "3,10").split(",");
        int overloadSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        int afterSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        SlowService.Impl impl = new SlowService.Impl();
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(impl);
            int port = server.start().getPort();
            SlowService sync = client.proxy(SlowService.class).address("127.0.0.1", port)
                    .timeoutMillis(TIMEOUT_MILLIS).build();
            SlowService async = client.proxy(SlowService.class).address("127.0.0.1", port)
                    .invokeType(InvokeType.ASYNC).timeoutMillis(TIMEOUT_MILLIS).build();
            // C given as the fourth argument: the same C for runs with different settings (what they are compared to)
            closedLoopCapacity(sync, 8, 2, impl); // warm-up
            double measured = closedLoopCapacity(sync, 64, 4, impl);
            double capacity = args.length > 3 ? Double.parseDouble(args[3]) : measured;
            System.out.printf("measured %.0f calls/s%n", measured);
            System.out.printf("capacity C = %.0f calls/s (executed by the provider, closed loop, 64 callers)%n",
                    capacity);
            for (String factor : factors) {
                double k = Double.parseDouble(factor);
                List<OpenLoad.Step> schedule = List.of(new OpenLoad.Step(k * capacity, overloadSeconds),
                        new OpenLoad.Step(0.5 * capacity, afterSeconds));
                int total = overloadSeconds + afterSeconds;
                AtomicLongArray executed = new AtomicLongArray(total);
                long executedBefore = impl.executed.sum();
                long nobodyBefore = impl.executedForNobody.sum();
                List<OpenLoad.Second> seconds = OpenLoad.run(async, TIMEOUT_MILLIS, METHOD_MILLIS, schedule,
                        executed, impl.executed::sum);
                Thread.sleep(TIMEOUT_MILLIS * 2); // what still runs for nobody after the schedule
                print(k, capacity, overloadSeconds, seconds, executed, executedBefore,
                        impl.executed.sum() - executedBefore, impl.executedForNobody.sum() - nobodyBefore);
            }
        }
    }

    /** Calls the provider ran per second while {@code callers} call it in a closed loop for {@code seconds}. */
    static double closedLoopCapacity(SlowService sync, int callers, int seconds, SlowService.Impl impl)
            throws InterruptedException {
        long executedBefore = impl.executed.sum();
        AtomicLong calls = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        CountDownLatch done = new CountDownLatch(callers);
        for (int i = 0; i < callers; i++) {
            Thread thread = new Thread(() -> {
                try {
                    while (System.nanoTime() - end < 0) {
                        try {
                            sync.work(System.nanoTime(), TIMEOUT_MILLIS, METHOD_MILLIS);
                            calls.incrementAndGet();
                        } catch (RuntimeException e) {
                            // a closed loop beyond capacity: some calls are shed; they are not counted
                            failures.incrementAndGet();
                            firstFailure.compareAndSet(null, e);
                        }
                    }
                } finally {
                    done.countDown();
                }
            });
            thread.setDaemon(true);
            thread.start();
        }
        done.await();
        System.out.printf("closed loop: %d calls, %d failed (first: %s)%n", calls.get(), failures.get(),
                firstFailure.get());
        return (impl.executed.sum() - executedBefore) / (double) seconds;
    }

    private static void print(double k, double capacity, int overloadSeconds, List<OpenLoad.Second> seconds,
                              AtomicLongArray executed, long executedBefore, long executedTotal,
                              long forNobody) {
        System.out.printf("%n%.1f x C (%.0f/s) for %d s, then 0.5 x C%n", k, k * capacity, overloadSeconds);
        System.out.println("  s  offered  ok  busy  timeout  other  p99ms  executed");
        long previous = executedBefore;
        for (OpenLoad.Second s : seconds) {
            long now = executed.get(s.index);
            System.out.printf("%3d %8d %4d %5d %8d %6d %6d %9d%n", s.index + 1, s.offered, s.ok, s.busy, s.timedOut,
                    s.other, s.p99(), now - previous);
            previous = now;
        }
        List<OpenLoad.Second> overload = seconds.subList(1, overloadSeconds);
        long minOk = overload.stream().mapToLong(s -> s.ok).min().orElse(0);
        double meanOk = overload.stream().mapToLong(s -> s.ok).average().orElse(0);
        List<OpenLoad.Second> after = seconds.subList(overloadSeconds + 1, seconds.size());
        long afterOffered = after.stream().mapToLong(s -> s.offered).sum();
        long afterOk = after.stream().mapToLong(s -> s.ok).sum();
        List<OpenLoad.Second> all = new ArrayList<>(seconds.subList(0, overloadSeconds));
        System.out.printf("overload s2-%d: goodput mean %.2f x C, min %.2f x C; admitted p99 %d ms%n",
                overloadSeconds, meanOk / capacity, minOk / capacity, OpenLoad.p99(all));
        System.out.printf("executed %d, of which for callers who had given up %d (%.1f %%)%n", executedTotal,
                forNobody, executedTotal == 0 ? 0 : 100.0 * forNobody / executedTotal);
        System.out.printf("after (from 1 s after the overload): %d of %d succeeded (%.1f %%), p99 %d ms%n", afterOk,
                afterOffered, afterOffered == 0 ? 0 : 100.0 * afterOk / afterOffered, OpenLoad.p99(after));
    }
}
