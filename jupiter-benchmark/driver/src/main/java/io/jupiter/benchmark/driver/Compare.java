package io.jupiter.benchmark.driver;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Side-by-side comparison with one load driver: every target's server and client run in JVMs of their own,
 * through {@link DriverMain} and the target's {@link BenchmarkTarget}, one measurement at a time. Repetitions are
 * the outer loop, then cases, then targets, so the targets of one case are measured back to back in every run and
 * their ratios come from the same run. Prints Markdown tables (see {@link ComparisonReport}).
 * <pre>
 * java -jar jupiter-benchmark-driver-standalone.jar --jupiter-classpath JAR --legacy-classpath CP
 *      [--targets raw,jupiter,jupiter-direct,legacy] [--cases "sync 1 small,sync 32 small,async 32 small,sync 32 1k"]
 *      [--runs 2] [--warmup 20] [--seconds 10] [--connections 2] [--io-threads 2] [--serializer protostuff]
 *      [--base-port 18190] [--logs target/compare-logs] [--out FILE] [--baseline-classpath JAR]
 *      [--jvm-options "-Xms1g -Xmx1g -XX:+AlwaysPreTouch"]
 * </pre>
 * {@code --jvm-options} go to every server and client JVM of every target, before the target's own; the default is
 * {@link #DEFAULT_JVM_OPTIONS}.
 * With {@code --baseline-classpath} (our example jar from another build), the targets {@code baseline} and
 * {@code baseline-direct} measure that build beside this one, so a change is measured before and after in one run.
 * {@code --jupiter-jvm-options "-Dkey=value ..."} adds JVM options to the {@code jupiter} and {@code jupiter-direct}
 * JVMs only (against {@code baseline} on the same jar, it measures a setting before and after). The target
 * {@code jupiter-tls} is {@code jupiter} with TLS on both sides; it needs {@code --tls-dir D} with {@code ca.crt},
 * {@code server.crt} (valid for 127.0.0.1) and {@code server.key}, as {@code bench/tls-certs.sh D} makes them.
 * The target {@code jupiter-protocols} is {@code jupiter} with HTTP/JSON and gRPC served on its port (the 1.3.1 path
 * behind the protocol sniffer).
 * {@code --transport auto|nio|epoll|io_uring} runs every target on this project's transport ({@code raw},
 * {@code jupiter*}, {@code baseline*}: server and client JVMs) on that IO transport, as
 * {@code -Djupiter.io.transport}; without it they take the default ({@code auto}: native epoll where it loads).
 * 1.3.1 and gRPC-java keep their own transports.
 * The target {@code grpc} is gRPC-java ({@code --grpc-classpath}: {@code jupiter-benchmark/grpc}'s standalone jar).
 * The target {@code grpc-on-jupiter} is gRPC-java's client of {@code grpc-direct} calling a Jupiter provider that
 * serves gRPC ({@code --grpc-on-jupiter-classpath}: {@code jupiter-benchmark}'s jar).
 * A case {@code "stream <streams> <payload>"} opens that many server streams and counts messages per second.
 */
public final class Compare {

    /** The cases of the performance issue's table. */
    static final String DEFAULT_CASES = "sync 1 small,sync 32 small,async 32 small,sync 32 1k";
    static final String DEFAULT_TARGETS = String.join(",", TargetSpec.RAW, TargetSpec.JUPITER,
            TargetSpec.JUPITER_DIRECT, TargetSpec.LEGACY);
    /**
     * Seconds of load not measured. On two cores shared by client and server, both JVMs' C2 compilers still took a
     * fifth of the machine 6-12 s into a run, and our sync 32 × 1 KB client went from 14k calls/s in its first
     * seconds to 55k after 20 s: a shorter warm-up measures the compilers, not the steady state.
     */
    static final int DEFAULT_WARMUP_SECONDS = 20;
    /**
     * JVM options of every child JVM: a fixed heap, touched at start. With the JVM's default sizing the young
     * generation kept growing through a whole run, so the allocating threads took a page fault for every new page of
     * eden (0.13 a call on our provider at sync 1, 0.16 on the client, 2026-11-26) instead of reusing eden as a server
     * that has run for a while does; sync 1 ran 20-25 % faster once the heap stood still. The same for every target.
     */
    static final String DEFAULT_JVM_OPTIONS = "-Xms1g -Xmx1g -XX:+AlwaysPreTouch";

    private static final Set<String> FLAGS = Set.of("jupiter-classpath", "legacy-classpath", "baseline-classpath",
            "jvm-options", "jupiter-jvm-options", "targets", "cases",
            "runs", "warmup", "seconds", "connections", "io-threads", "serializer", "base-port", "logs", "out",
            "tls-dir", "grpc-classpath", "grpc-on-jupiter-classpath", "transport");
    private static final long READY_TIMEOUT_SECONDS = 60;
    /** Beyond warm-up and measurement: JVM start, connecting, and the last async batches draining. */
    private static final long CLIENT_SLACK_SECONDS = 120;

    private final List<String> jvmOptions;
    private final List<TargetSpec> targets;
    private final List<LoadCase> cases;
    private final int runs;
    private final int warmup;
    private final int seconds;
    private final int connections;
    private final int ioThreads;
    private final String serializer;
    private final int basePort;
    private final Path logs;
    private final Path out;

    /** Reads the command-line flags (see the class comment); throws {@link IllegalArgumentException} on a bad one. */
    public static Compare fromFlags(String... args) {
        return new Compare(new Flags(args, 0, FLAGS));
    }

    private Compare(Flags flags) {
        String jupiterClassPath = flags.get("jupiter-classpath", null);
        String legacyClassPath = flags.get("legacy-classpath", null);
        Set<String> names = new LinkedHashSet<>(List.of(flags.get("targets", DEFAULT_TARGETS).split(",")));
        this.jvmOptions = options(flags.get("jvm-options", DEFAULT_JVM_OPTIONS));
        List<String> jupiterJvmOptions = options(flags.get("jupiter-jvm-options", ""));
        List<String> transportOptions = flags.has("transport")
                ? List.of("-Djupiter.io.transport=" + flags.oneOf("transport", "auto", "auto", "nio", "epoll",
                        "io_uring"))
                : List.of();
        List<TargetSpec> specs = new ArrayList<>();
        for (String name : names) {
            TargetSpec spec = TargetSpec.named(name.trim(), jupiterClassPath, legacyClassPath,
                    flags.get("baseline-classpath", null), flags.get("tls-dir", null),
                    flags.get("grpc-classpath", null), flags.get("grpc-on-jupiter-classpath", null));
            if (spec.name().startsWith(TargetSpec.JUPITER)) {
                spec = spec.withJvmOptions(jupiterJvmOptions);
            }
            specs.add(spec.onOurTransport() ? spec.withJvmOptions(transportOptions) : spec);
        }
        this.targets = List.copyOf(specs);
        this.cases = List.copyOf(new LinkedHashSet<>(LoadCase.parseList(flags.get("cases", DEFAULT_CASES))));
        this.runs = flags.getInt("runs", 2, 1, 20);
        this.warmup = flags.getInt("warmup", DEFAULT_WARMUP_SECONDS, 0, 600);
        this.seconds = flags.getInt("seconds", 10, 1, 3600);
        this.connections = flags.getInt("connections", DriverMain.DEFAULT_CONNECTIONS, 1, 64);
        this.ioThreads = flags.getInt("io-threads", DriverMain.DEFAULT_IO_THREADS, 1, 256);
        this.serializer = flags.oneOf("serializer", "protostuff", "protostuff", "hessian", "kryo", "java");
        this.basePort = flags.getInt("base-port", 18190, 1024, 65000);
        this.logs = Path.of(flags.get("logs", "target/compare-logs"));
        String outFile = flags.get("out", null);
        this.out = outFile == null ? null : Path.of(outFile);
    }

    /** The targets, with the JVM options the flags gave them. */
    List<TargetSpec> targets() {
        return targets;
    }

    private static List<String> options(String flag) {
        String trimmed = flag.trim();
        return trimmed.isEmpty() ? List.of() : List.of(trimmed.split("\\s+"));
    }

    public static void main(String[] args) throws Exception {
        Compare compare;
        try {
            compare = fromFlags(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(64);
            return;
        }
        System.out.println(compare.run());
    }

    /** Measures everything and returns the report (settings, machine, tables), also written to {@code --out}. */
    public String run() throws InterruptedException, IOException {
        ComparisonReport report = new ComparisonReport(cases, targets, runs);
        int total = runs * cases.size() * targets.size();
        int done = 0;
        for (int run = 0; run < runs; run++) {
            for (LoadCase loadCase : cases) {
                for (int t = 0; t < targets.size(); t++) {
                    TargetSpec target = targets.get(t);
                    done++;
                    String what = String.format("[%d/%d] run %d, %s, %s", done, total, run + 1, loadCase,
                            target.label());
                    measureOne(report, run, loadCase, target, basePort + t, what);
                }
            }
        }
        String markdown = header() + "\n" + report.toMarkdown();
        if (out != null) {
            Files.writeString(out, markdown, StandardCharsets.UTF_8);
        }
        return markdown;
    }

    private void measureOne(ComparisonReport report, int run, LoadCase loadCase, TargetSpec target, int port,
                            String what) throws InterruptedException, IOException {
        String stem = String.format("run%d-%s-%s", run + 1, loadCase.toString().replace(' ', '-'), target.name());
        List<String> serverFlags = List.of("--host", "127.0.0.1", "--port", Integer.toString(port),
                "--io-threads", Integer.toString(ioThreads), "--direct", Boolean.toString(target.direct()));
        try (ChildJvm server = ChildJvm.start(target, jvmOptions, "server", serverFlags,
                logs.resolve(stem + "-server.log"))) {
            server.awaitReady(READY_TIMEOUT_SECONDS);
            List<String> clientFlags = Stream.concat(loadCase.clientFlags().stream(), Stream.of(
                    "--host", "127.0.0.1", "--port", Integer.toString(port), "--warmup", Integer.toString(warmup),
                    "--seconds", Integer.toString(seconds), "--serializer", serializer,
                    "--connections", Integer.toString(connections), "--io-threads", Integer.toString(ioThreads),
                    "--direct", Boolean.toString(target.direct()))).toList();
            ChildJvm client = ChildJvm.start(target, jvmOptions, "client", clientFlags,
                    logs.resolve(stem + "-client.log"));
            int status = client.awaitExit(warmup + seconds + CLIENT_SLACK_SECONDS);
            if (status == 2) {
                List<String> lines = client.lines();
                String why = lines.isEmpty() ? "exit status 2" : lines.get(lines.size() - 1);
                report.unsupported(loadCase, target, why);
                System.err.println(what + ": not supported (" + why + ")");
                return;
            }
            LoadResult result = LoadResult.parse(client.lines());
            report.add(run, loadCase, target, result);
            System.err.printf("%s: %,d calls/s, p50 %d µs, p99 %d µs%s%n", what, result.qps(), result.p50Micros(),
                    result.p99Micros(), result.failures() > 0 ? ", " + result.failures() + " FAILED" : "");
        }
    }

    private String header() {
        String cpu = "unknown CPU";
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            cpu = lines.filter(line -> line.startsWith("model name")).findFirst()
                    .map(line -> line.substring(line.indexOf(':') + 1).trim()).orElse(cpu);
        } catch (IOException | RuntimeException e) {
            // Not Linux: the CPU stays unnamed.
        }
        return String.format("Machine: %d cores (%s), %s %s, Java %s. Each measurement runs one server JVM and one "
                        + "client JVM on these same cores, nothing else.%n"
                        + "Load: %d run(s) of every case and target, targets interleaved within each case; %d s "
                        + "warm-up, then %d s measured; %d connections, %d IO threads per side, %s; async keeps "
                        + "%d calls in flight per thread and waits for the batch. JVM options of every server and "
                        + "client: %s.%n",
                Runtime.getRuntime().availableProcessors(), cpu, System.getProperty("os.name"),
                System.getProperty("os.version"), System.getProperty("java.version"), runs, warmup, seconds,
                connections, ioThreads, serializer, LoadDriver.IN_FLIGHT,
                jvmOptions.isEmpty() ? "none" : String.join(" ", jvmOptions));
    }
}
