package io.jupiter.benchmark.overload;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ProxyBuilder;
import io.jupiter.rpc.cluster.ClientThrottling;
import io.jupiter.rpc.exception.RpcException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Issue #35's overload scenario on one machine: one provider with the server's defaults and a method that holds a
 * provider thread {@code --work-millis} (default 20), one consumer with a {@code --timeout-millis} timeout (default
 * 500). First the capacity C, measured closed-loop ({@code --capacity-callers}, default 64, for
 * {@code --capacity-seconds}, default 5, after a second of warm-up), or given with {@code --capacity}; then calls
 * offered open-loop, asynchronously, at the rates of {@code --schedule} (default {@code 3x:15s,0.5x:10s}: multiples of
 * C, or calls per second without the {@code x}) whatever the answers. Prints, per second of offer: offered, goodput
 * (succeeded within the timeout), shed (a provider's {@code ServerBusy} or flow control), throttled here (client-side
 * throttling), timed out, failed otherwise, the p99 of the successes, the executions the provider ran and, among them,
 * those for nobody (ended after the caller's timeout); then a summary per phase.
 *
 * <pre>
 *   java -cp jupiter-benchmark.jar io.jupiter.benchmark.overload.OverloadScenario [--schedule 10x:15s,0.5x:10s]
 *       [--work-millis 20] [--timeout-millis 500] [--capacity N] [--deadlines on|off] [--throttling on|off]
 * </pre>
 *
 * {@code --deadlines off} sends no deadline with the calls (a consumer of 1.3.1), {@code on} sends them; without it
 * the client's default. {@code --throttling} turns client-side throttling on or off (without it: the default). Every
 * call is attributed to the second it was offered in; the table is printed once the provider has finished the work
 * (at most {@code --drain-seconds}, default 60, after the last offer). Everything runs in this JVM on 127.0.0.1.
 */
public final class OverloadScenario {

    /** The scenario's settings; see the class comment. */
    record Options(int workMillis, long timeoutMillis, int capacityCallers, int capacitySeconds, double capacity,
                   Schedule schedule, Boolean deadlines, Boolean throttling, int drainSeconds) {

        static Options defaults() {
            return new Options(20, 500, 64, 5, 0, Schedule.parse("3x:15s,0.5x:10s"), null, null, 60);
        }

        static Options parse(String[] args) {
            Options o = defaults();
            for (int i = 0; i < args.length; i++) {
                String value = i + 1 < args.length ? args[i + 1] : "";
                switch (args[i]) {
                    case "--work-millis" -> o = new Options(Integer.parseInt(value), o.timeoutMillis,
                            o.capacityCallers, o.capacitySeconds, o.capacity, o.schedule, o.deadlines, o.throttling,
                            o.drainSeconds);
                    case "--timeout-millis" -> o = new Options(o.workMillis, Long.parseLong(value), o.capacityCallers,
                            o.capacitySeconds, o.capacity, o.schedule, o.deadlines, o.throttling, o.drainSeconds);
                    case "--capacity-callers" -> o = new Options(o.workMillis, o.timeoutMillis,
                            Integer.parseInt(value), o.capacitySeconds, o.capacity, o.schedule, o.deadlines,
                            o.throttling, o.drainSeconds);
                    case "--capacity-seconds" -> o = new Options(o.workMillis, o.timeoutMillis, o.capacityCallers,
                            Integer.parseInt(value), o.capacity, o.schedule, o.deadlines, o.throttling,
                            o.drainSeconds);
                    case "--capacity" -> o = new Options(o.workMillis, o.timeoutMillis, o.capacityCallers,
                            o.capacitySeconds, Double.parseDouble(value), o.schedule, o.deadlines, o.throttling,
                            o.drainSeconds);
                    case "--schedule" -> o = new Options(o.workMillis, o.timeoutMillis, o.capacityCallers,
                            o.capacitySeconds, o.capacity, Schedule.parse(value), o.deadlines, o.throttling,
                            o.drainSeconds);
                    case "--deadlines" -> o = new Options(o.workMillis, o.timeoutMillis, o.capacityCallers,
                            o.capacitySeconds, o.capacity, o.schedule, onOff(value), o.throttling, o.drainSeconds);
                    case "--throttling" -> o = new Options(o.workMillis, o.timeoutMillis, o.capacityCallers,
                            o.capacitySeconds, o.capacity, o.schedule, o.deadlines, onOff(value), o.drainSeconds);
                    case "--drain-seconds" -> o = new Options(o.workMillis, o.timeoutMillis, o.capacityCallers,
                            o.capacitySeconds, o.capacity, o.schedule, o.deadlines, o.throttling,
                            Integer.parseInt(value));
                    default -> throw new IllegalArgumentException("unknown argument " + args[i] + " (expected: "
                            + "--schedule 3x:15s,0.5x:10s, --work-millis N, --timeout-millis N, --capacity N, "
                            + "--capacity-callers N, --capacity-seconds N, --deadlines on|off, --throttling on|off, "
                            + "--drain-seconds N)");
                }
                i++;
            }
            return o;
        }

        static boolean onOff(String value) {
            return switch (value) {
                case "on" -> true;
                case "off" -> false;
                default -> throw new IllegalArgumentException("expected on or off, not '" + value + "'");
            };
        }
    }

    /** What a run measured, by second of offer (for the tests and the summary). */
    record Report(double capacity, Schedule schedule, Outcomes outcomes, Workers provider) {

        /** Calls offered, and how each ended, in seconds {@code from} to {@code to} (excluded). */
        long offered(int from, int to) {
            return outcomes.offered.sum(from, to);
        }

        long goodput(int from, int to) {
            return outcomes.goodput.sum(from, to);
        }

        long ended(int from, int to) {
            return outcomes.goodput.sum(from, to) + outcomes.shed.sum(from, to) + outcomes.throttled.sum(from, to)
                    + outcomes.timedOut.sum(from, to) + outcomes.failed.sum(from, to);
        }

        long executed(int from, int to) {
            return provider.executed().sum(from, to);
        }

        long forNobody(int from, int to) {
            return provider.forNobody().sum(from, to);
        }
    }

    private OverloadScenario() {
    }

    public static void main(String[] args) throws Exception {
        run(Options.parse(args), System.out);
    }

    static Report run(Options o, PrintStream out) throws Exception {
        int seconds = o.schedule().seconds();
        Workers workers = new Workers("p", o.timeoutMillis(), seconds);
        JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        JupiterClient client = null;
        try {
            server.register(workers);
            int port = server.start().getPort();
            JupiterClient.Builder clientBuilder = JupiterClient.builder();
            if (o.deadlines() != null) {
                clientBuilder.propagateDeadline(o.deadlines());
            }
            client = clientBuilder.build();
            Workload sync = proxy(client, port, o).build();
            Workload async = proxy(client, port, o).invokeType(InvokeType.ASYNC).build();

            double capacity = o.capacity() > 0 ? o.capacity() : measureCapacity(sync, workers, o, out);
            out.printf(Locale.ROOT, "overload: 1 provider (server defaults), a method of %d ms, timeout %d ms, "
                    + "deadlines %s, client-side throttling %s%n", o.workMillis(), o.timeoutMillis(),
                    o.deadlines() == null ? "default" : o.deadlines() ? "on" : "off",
                    o.throttling() == null ? "default" : o.throttling() ? "on" : "off");
            out.printf(Locale.ROOT, "capacity C = %.0f calls/s (%s); schedule %s%n", capacity,
                    o.capacity() > 0 ? "given" : "closed loop, " + o.capacityCallers() + " callers, "
                            + o.capacitySeconds() + " s", o.schedule());
            awaitIdle(workers); // the capacity run's backlog is worked off before the schedule starts

            Outcomes outcomes = new Outcomes(seconds);
            AtomicLong pending = new AtomicLong();
            long start = System.nanoTime();
            outcomes.start(start);
            workers.startCounting(start);
            offer(async, o, capacity, outcomes, pending, start);
            awaitQuiet(workers, pending, seconds, o.drainSeconds(), start);

            Report report = new Report(capacity, o.schedule(), outcomes, workers);
            print(report, out);
            return report;
        } finally {
            if (client != null) {
                client.close();
            }
            server.close();
        }
    }

    private static ProxyBuilder<Workload> proxy(JupiterClient client, int port, Options o) {
        ProxyBuilder<Workload> builder = client.proxy(Workload.class).address("127.0.0.1:" + port)
                .timeoutMillis(o.timeoutMillis());
        if (o.throttling() != null) {
            builder.clientThrottling(o.throttling() ? ClientThrottling.adaptive() : ClientThrottling.off());
        }
        return builder;
    }

    /**
     * The provider's executions per second with {@code capacityCallers} threads calling one after the other: what it
     * can run (on a busy machine some of these calls time out, and a closed loop of timeouts is itself an overload,
     * so its successes would understate the capacity; they are printed beside it).
     */
    private static double measureCapacity(Workload sync, Workers workers, Options o, PrintStream out)
            throws InterruptedException {
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong succeeded = new AtomicLong();
        List<Thread> callers = new ArrayList<>();
        for (int i = 0; i < o.capacityCallers(); i++) {
            Thread caller = new Thread(() -> {
                while (running.get()) {
                    try {
                        sync.work(System.nanoTime(), o.workMillis());
                        succeeded.incrementAndGet();
                    } catch (RpcException e) {
                        // counted by the provider all the same: capacity is what it runs
                    }
                }
            }, "capacity-" + i);
            caller.setDaemon(true);
            callers.add(caller);
            caller.start();
        }
        TimeUnit.SECONDS.sleep(1);
        long from = System.nanoTime();
        long doneBefore = workers.workDone.get();
        long succeededBefore = succeeded.get();
        TimeUnit.SECONDS.sleep(o.capacitySeconds());
        long elapsed = System.nanoTime() - from;
        long done = workers.workDone.get() - doneBefore;
        long ok = succeeded.get() - succeededBefore;
        running.set(false);
        for (Thread caller : callers) {
            caller.join(TimeUnit.SECONDS.toMillis(10));
        }
        out.printf(Locale.ROOT, "capacity run: %,d executions, %,d calls succeeded in %.1f s%n", done, ok,
                elapsed / 1e9);
        return done * 1e9 / elapsed;
    }

    /** Offers the schedule's calls at their times, whatever the answers (behind time: at once, none skipped). */
    private static void offer(Workload async, Options o, double capacity, Outcomes outcomes, AtomicLong pending,
                              long start) {
        long phaseStart = start;
        for (Schedule.Phase phase : o.schedule().phases()) {
            double rate = Math.max(1, phase.callsPerSecond(capacity));
            long calls = Math.round(rate * phase.seconds());
            for (long k = 0; k < calls; k++) {
                long at = phaseStart + (long) (k * 1e9 / rate);
                long left;
                while ((left = at - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(left);
                }
                outcomes.offered.add(at);
                pending.incrementAndGet();
                try {
                    async.work(at, o.workMillis());
                    InvokeFuture<?> future = InvokeFutureContext.future();
                    future.whenComplete((value, error) -> {
                        outcomes.ended(at, System.nanoTime(), error);
                        pending.decrementAndGet();
                    });
                } catch (RuntimeException e) {
                    outcomes.ended(at, System.nanoTime(), e);
                    pending.decrementAndGet();
                }
            }
            phaseStart += TimeUnit.SECONDS.toNanos(phase.seconds());
        }
    }

    /** Waits until the provider ran nothing for half a second (at most a minute). */
    private static void awaitIdle(Workers workers) throws InterruptedException {
        long last = -1;
        for (int i = 0; i < 120; i++) {
            TimeUnit.MILLISECONDS.sleep(500);
            long done = workers.workDone.get();
            if (done == last) {
                return;
            }
            last = done;
        }
    }

    /** Waits until every call ended and the provider ran nothing for a second, at most {@code drainSeconds}. */
    private static void awaitQuiet(Workers workers, AtomicLong pending, int seconds, int drainSeconds, long start)
            throws InterruptedException {
        long until = start + TimeUnit.SECONDS.toNanos(seconds + drainSeconds);
        long last = -1;
        while (System.nanoTime() - until < 0) {
            TimeUnit.SECONDS.sleep(1);
            long executed = workers.executed().sum(0, seconds);
            if (pending.get() == 0 && executed == last) {
                return;
            }
            last = executed;
        }
    }

    private static void print(Report r, PrintStream out) {
        Outcomes o = r.outcomes();
        out.println();
        out.println("| s | offered/s | goodput | shed | throttled | timed out | failed | p99 ms | executed "
                + "| for nobody |");
        out.println("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        int seconds = r.schedule().seconds();
        for (int s = 0; s < seconds; s++) {
            out.printf(Locale.ROOT, "| %d | %s %,d | %,d | %,d | %,d | %,d | %,d | %s | %,d | %,d |%n", s,
                    r.schedule().phaseAt(s).label(), o.offered.get(s), o.goodput.get(s), o.shed.get(s),
                    o.throttled.get(s), o.timedOut.get(s), o.failed.get(s), millis(o.p99Millis(s)),
                    r.provider().executed().get(s), r.provider().forNobody().get(s));
        }
        out.println();
        out.println("| phase | seconds | offered | goodput/s (2nd s on) | goodput / C | succeeded | p99 ms | executed "
                + "| for nobody |");
        out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|");
        for (Schedule.Phase phase : r.schedule().phases()) {
            int from = r.schedule().startOf(phase);
            int to = from + phase.seconds();
            int steady = Math.min(to - 1, from + 1);
            double goodputPerSecond = (double) r.goodput(steady, to) / (to - steady);
            long offered = r.offered(from, to);
            long executed = r.executed(from, to);
            out.printf(Locale.ROOT, "| %s | %d-%d | %,d | %.0f | %.2f | %.1f %% | %s | %,d | %,d (%.1f %%) |%n",
                    phase.label(), from, to - 1, offered, goodputPerSecond, goodputPerSecond / r.capacity(),
                    offered == 0 ? 0.0 : 100.0 * r.goodput(from, to) / offered, millis(o.p99Millis(from, to)),
                    executed, r.forNobody(from, to), executed == 0 ? 0.0 : 100.0 * r.forNobody(from, to) / executed);
        }
    }

    private static String millis(double millis) {
        return millis < 0 ? "-" : String.format(Locale.ROOT, "%.1f", millis);
    }
}
