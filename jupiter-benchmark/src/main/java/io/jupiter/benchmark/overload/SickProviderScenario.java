package io.jupiter.benchmark.overload;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ProxyBuilder;
import io.jupiter.rpc.balance.OutlierEjection;
import io.jupiter.rpc.cluster.ClientThrottling;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.exception.RpcException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Issue #35's sick provider on one machine: two providers ("a" and "b", server defaults), one client with
 * {@code --threads} callers (default 8) calling an idempotent method with {@code failOver(2)} and a 1 s timeout,
 * defaults otherwise. After {@code --healthy} seconds (default 5), provider a's method throws an exception it does
 * not declare on {@code --failing} % of its calls (default 70) for {@code --sick} seconds (default 10), then heals
 * for {@code --healed} seconds (default 15). Prints per second: calls that succeeded and failed (by the second they
 * ended), executions on a and on b and a's share of them; then the sick period's failures, a's share from its 2nd
 * second and the first second after healing in which a has a third of the executions again.
 *
 * <pre>
 *   java -cp jupiter-benchmark.jar io.jupiter.benchmark.overload.SickProviderScenario [--threads 8]
 *       [--failing 70] [--server-errors on|off] [--throttling on|off]
 * </pre>
 *
 * {@code --server-errors off} has outlier ejection count only timeouts and connection errors (before issue #35).
 */
public final class SickProviderScenario {

    /** The scenario's settings; see the class comment. */
    record Options(int threads, int failingPercent, int healthy, int sick, int healed, Boolean serverErrors,
                   Boolean throttling) {

        static Options defaults() {
            return new Options(8, 70, 5, 10, 15, null, null);
        }

        static Options parse(String[] args) {
            Options o = defaults();
            for (int i = 0; i < args.length; i++) {
                String value = i + 1 < args.length ? args[i + 1] : "";
                switch (args[i]) {
                    case "--threads" -> o = new Options(Integer.parseInt(value), o.failingPercent, o.healthy, o.sick,
                            o.healed, o.serverErrors, o.throttling);
                    case "--failing" -> o = new Options(o.threads, Integer.parseInt(value), o.healthy, o.sick,
                            o.healed, o.serverErrors, o.throttling);
                    case "--healthy" -> o = new Options(o.threads, o.failingPercent, Integer.parseInt(value), o.sick,
                            o.healed, o.serverErrors, o.throttling);
                    case "--sick" -> o = new Options(o.threads, o.failingPercent, o.healthy, Integer.parseInt(value),
                            o.healed, o.serverErrors, o.throttling);
                    case "--healed" -> o = new Options(o.threads, o.failingPercent, o.healthy, o.sick,
                            Integer.parseInt(value), o.serverErrors, o.throttling);
                    case "--server-errors" -> o = new Options(o.threads, o.failingPercent, o.healthy, o.sick,
                            o.healed, OverloadScenario.Options.onOff(value), o.throttling);
                    case "--throttling" -> o = new Options(o.threads, o.failingPercent, o.healthy, o.sick, o.healed,
                            o.serverErrors, OverloadScenario.Options.onOff(value));
                    default -> throw new IllegalArgumentException("unknown argument " + args[i] + " (expected: "
                            + "--threads N, --failing PERCENT, --healthy S, --sick S, --healed S, "
                            + "--server-errors on|off, --throttling on|off)");
                }
                i++;
            }
            return o;
        }

        int seconds() {
            return healthy + sick + healed;
        }
    }

    /** What a run measured, per second. */
    record Report(Options options, PerSecond ok, PerSecond failed, Workers a, Workers b) {

        long calls(int from, int to) {
            return ok.sum(from, to) + failed.sum(from, to);
        }

        long failed(int from, int to) {
            return failed.sum(from, to);
        }

        /** a's share of the executions in seconds {@code from} to {@code to} (excluded), 0 to 1. */
        double sickShare(int from, int to) {
            long onA = a.executed().sum(from, to);
            long all = onA + b.executed().sum(from, to);
            return all == 0 ? 0 : (double) onA / all;
        }
    }

    private SickProviderScenario() {
    }

    public static void main(String[] args) throws Exception {
        run(Options.parse(args), System.out);
    }

    static Report run(Options o, PrintStream out) throws Exception {
        int seconds = o.seconds();
        Workers a = new Workers("a", 1_000, seconds);
        Workers b = new Workers("b", 1_000, seconds);
        JupiterServer serverA = JupiterServer.builder().host("127.0.0.1").port(0).build();
        JupiterServer serverB = JupiterServer.builder().host("127.0.0.1").port(0).build();
        JupiterClient client = JupiterClient.builder().build();
        List<Thread> callers = new ArrayList<>();
        AtomicBoolean running = new AtomicBoolean(true);
        try {
            serverA.register(a);
            serverB.register(b);
            String addresses = "127.0.0.1:" + serverA.start().getPort() + ",127.0.0.1:" + serverB.start().getPort();
            ProxyBuilder<Workload> builder = client.proxy(Workload.class).address(addresses)
                    .cluster(ClusterStrategy.failOver(2)).idempotent("who").timeoutMillis(1_000);
            if (o.serverErrors() != null) {
                builder.outlierEjection(OutlierEjection.defaults().withServerErrors(o.serverErrors()));
            }
            if (o.throttling() != null) {
                builder.clientThrottling(o.throttling() ? ClientThrottling.adaptive() : ClientThrottling.off());
            }
            Workload proxy = builder.build();
            out.printf(Locale.ROOT, "sick provider: 2 providers, %d callers, failOver(2), idempotent, timeout 1000 ms;"
                    + " a fails %d %% of its calls (undeclared exception) in seconds %d-%d; server errors %s, "
                    + "client-side throttling %s%n", o.threads(), o.failingPercent(), o.healthy(),
                    o.healthy() + o.sick() - 1, o.serverErrors() == null ? "default" : o.serverErrors() ? "on" : "off",
                    o.throttling() == null ? "default" : o.throttling() ? "on" : "off");

            PerSecond ok = new PerSecond(seconds);
            PerSecond failed = new PerSecond(seconds);
            for (int i = 0; i < o.threads(); i++) {
                Thread caller = new Thread(() -> {
                    while (running.get()) {
                        try {
                            proxy.who();
                            ok.add(System.nanoTime());
                        } catch (RpcException e) {
                            failed.add(System.nanoTime());
                        }
                    }
                }, "sick-caller-" + i);
                caller.setDaemon(true);
                callers.add(caller);
                caller.start();
            }
            TimeUnit.SECONDS.sleep(2); // warm-up, not counted
            long start = System.nanoTime();
            for (PerSecond counter : new PerSecond[] {ok, failed}) {
                counter.start(start);
            }
            a.startCounting(start);
            b.startCounting(start);
            sleepUntil(start + TimeUnit.SECONDS.toNanos(o.healthy()));
            a.failingPercent.set(o.failingPercent());
            sleepUntil(start + TimeUnit.SECONDS.toNanos(o.healthy() + o.sick()));
            a.failingPercent.set(0);
            sleepUntil(start + TimeUnit.SECONDS.toNanos(seconds));
            running.set(false);
            for (Thread caller : callers) {
                caller.join(TimeUnit.SECONDS.toMillis(5));
            }
            Report report = new Report(o, ok, failed, a, b);
            print(report, out);
            return report;
        } finally {
            running.set(false);
            client.close();
            serverA.close();
            serverB.close();
        }
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        long left;
        while ((left = nanos - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    private static void print(Report r, PrintStream out) {
        Options o = r.options();
        out.println();
        out.println("| s | a | calls ok | failed | executions on a | on b | a's share |");
        out.println("|---:|---|---:|---:|---:|---:|---:|");
        for (int s = 0; s < o.seconds(); s++) {
            String phase = s < o.healthy() ? "healthy" : s < o.healthy() + o.sick() ? "sick " + o.failingPercent()
                    + " %" : "healed";
            out.printf(Locale.ROOT, "| %d | %s | %,d | %,d | %,d | %,d | %.1f %% |%n", s, phase, r.ok().get(s),
                    r.failed().get(s), r.a().executed().get(s), r.b().executed().get(s), 100 * r.sickShare(s, s + 1));
        }
        int sickFrom = o.healthy();
        int sickTo = o.healthy() + o.sick();
        long calls = r.calls(sickFrom, sickTo);
        int back = -1;
        for (int s = sickTo; s < o.seconds() && back < 0; s++) {
            if (r.sickShare(s, s + 1) >= 1.0 / 3) {
                back = s - sickTo;
            }
        }
        out.println();
        out.printf(Locale.ROOT, "sick period: %,d calls, %,d failed (%.2f %%); a's share %.1f %% from its 2nd second "
                        + "(%.1f %% in its first 2 s); a back to a third of the executions %s%n", calls,
                r.failed(sickFrom, sickTo), calls == 0 ? 0.0 : 100.0 * r.failed(sickFrom, sickTo) / calls,
                100 * r.sickShare(Math.min(sickTo - 1, sickFrom + 2), sickTo),
                100 * r.sickShare(sickFrom, Math.min(sickTo, sickFrom + 2)),
                back < 0 ? "never within " + o.healed() + " s" : back + " s after healing");
    }
}
