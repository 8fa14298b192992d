package io.jupiter.benchmark.driver;

import java.util.ArrayList;
import java.util.List;

/**
 * How {@link Compare} runs one target: the class path and {@link BenchmarkTarget} class of its JVMs, their JVM
 * options, and whether its sides run calls on their IO threads.
 *
 * @param name       what {@code --targets} calls it
 * @param label      its column heading
 * @param classPath  the class path of its server and client JVMs (holds the driver and the target)
 * @param adapter    its {@link BenchmarkTarget} class
 * @param jvmOptions options of both its JVMs
 * @param direct     passed to both sides as {@code --direct}
 * @param reference  whether others are compared against it (the raw echo, 1.3.1)
 */
record TargetSpec(String name, String label, String classPath, String adapter, List<String> jvmOptions,
                  boolean direct, boolean reference) {

    static final String RAW = "raw";
    static final String JUPITER = "jupiter";
    static final String JUPITER_DIRECT = "jupiter-direct";
    static final String JUPITER_NON_BLOCKING = "jupiter-nonblocking";
    static final String JUPITER_TLS = "jupiter-tls";
    static final String JUPITER_PROTOCOLS = "jupiter-protocols";
    static final String LEGACY = "legacy";
    static final String LEGACY_POOL = "legacy-pool";
    static final String BASELINE = "baseline";
    static final String BASELINE_DIRECT = "baseline-direct";
    static final String GRPC = "grpc";
    static final String GRPC_DIRECT = "grpc-direct";
    static final String GRPC_ON_JUPITER = "grpc-on-jupiter";

    /** Opens 1.3.1 needs on JDK 17 (its Netty 4.1.27 and protostuff 1.6 reach into the JDK). */
    private static final List<String> LEGACY_OPENS = List.of("--add-opens", "java.base/java.nio=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-opens", "java.base/java.math=ALL-UNNAMED");

    /** 1.3.1's own benchmark settings, minus CPU affinity (2 cores shared by client and server here). */
    private static final List<String> LEGACY_SETTINGS = List.of("-Djupiter.metric.needed=false",
            "-Djupiter.use.non_blocking_hash=true", "-Djupiter.executor.factory.affinity.thread=false");

    /**
     * The targets this project compares, by name: {@code raw} (the raw Netty echo with our framing: the ceiling),
     * {@code jupiter} (our defaults), {@code jupiter-nonblocking} (our defaults, the services declared
     * {@code @NonBlocking}), {@code jupiter-direct} (provider and consumer work on the IO threads),
     * {@code legacy} (1.3.1 at its fastest: callerRuns provider and consumer executors) and {@code legacy-pool}
     * (1.3.1 with its default provider thread pool); {@code baseline} and {@code baseline-direct} are ours again
     * from another build ({@code --baseline-classpath}), to measure a change before and after in one run.
     */
    static TargetSpec named(String name, String jupiterClassPath, String legacyClassPath) {
        return named(name, jupiterClassPath, legacyClassPath, null);
    }

    /** As {@link #named(String, String, String)}, with the class path of the baseline build (or {@code null}). */
    static TargetSpec named(String name, String jupiterClassPath, String legacyClassPath, String baselineClassPath) {
        return named(name, jupiterClassPath, legacyClassPath, baselineClassPath, null);
    }

    /**
     * As {@link #named(String, String, String, String)}, with the directory of the TLS files of {@code jupiter-tls}
     * (or {@code null}): {@code ca.crt}, {@code server.crt} and {@code server.key} ({@code bench/tls-certs.sh} makes
     * them). {@code jupiter-tls} is {@code jupiter} (defaults) with TLS on both sides.
     */
    static TargetSpec named(String name, String jupiterClassPath, String legacyClassPath, String baselineClassPath,
                            String tlsDir) {
        return named(name, jupiterClassPath, legacyClassPath, baselineClassPath, tlsDir, null);
    }

    /**
     * As {@link #named(String, String, String, String, String)}, with the class path of the gRPC-java target
     * ({@code jupiter-benchmark/grpc}'s standalone jar, or {@code null}): {@code grpc} is gRPC-java with its
     * defaults, {@code grpc-direct} the same with {@code directExecutor()} on both sides (handlers and callbacks on
     * the transport threads, gRPC's advice for code that never blocks), both compared against as references.
     */
    static TargetSpec named(String name, String jupiterClassPath, String legacyClassPath, String baselineClassPath,
                            String tlsDir, String grpcClassPath) {
        return named(name, jupiterClassPath, legacyClassPath, baselineClassPath, tlsDir, grpcClassPath, null);
    }

    /**
     * As {@link #named(String, String, String, String, String, String)}, with the class path of the target
     * {@code grpc-on-jupiter} ({@code jupiter-benchmark}'s jar, or {@code null}): gRPC-java's client of
     * {@code grpc-direct} (the same code and messages, {@code directExecutor()}) calling a Jupiter provider that serves
     * gRPC, its methods on the IO threads ({@code providerThreads(0)}).
     */
    static TargetSpec named(String name, String jupiterClassPath, String legacyClassPath, String baselineClassPath,
                            String tlsDir, String grpcClassPath, String grpcOnJupiterClassPath) {
        String jupiterAdapter = "io.jupiter.example.benchmark.JupiterTarget";
        return switch (name) {
            case RAW -> new TargetSpec(name, "raw echo", required(jupiterClassPath, "--jupiter-classpath", name),
                    "io.jupiter.example.benchmark.RawEchoTarget", List.of(), false, true);
            case JUPITER -> new TargetSpec(name, "jupiter (defaults)",
                    required(jupiterClassPath, "--jupiter-classpath", name), jupiterAdapter, List.of(), false, false);
            case JUPITER_DIRECT -> new TargetSpec(name, "jupiter (IO threads)",
                    required(jupiterClassPath, "--jupiter-classpath", name), jupiterAdapter, List.of(), true, false);
            case JUPITER_NON_BLOCKING -> new TargetSpec(name, "jupiter (defaults, @NonBlocking)",
                    required(jupiterClassPath, "--jupiter-classpath", name),
                    "io.jupiter.example.benchmark.NonBlockingJupiterTarget", List.of(), false, false);
            case JUPITER_TLS -> new TargetSpec(name, "jupiter (TLS)",
                    required(jupiterClassPath, "--jupiter-classpath", name), jupiterAdapter,
                    List.of("-Djupiter.benchmark.tls.dir=" + required(tlsDir, "--tls-dir", name)), false, false);
            case JUPITER_PROTOCOLS -> new TargetSpec(name, "jupiter (defaults, HTTP/JSON and gRPC on)",
                    required(jupiterClassPath, "--jupiter-classpath", name), jupiterAdapter,
                    List.of("-Djupiter.benchmark.protocols=true"), false, false);
            case LEGACY -> new TargetSpec(name, "1.3.1 fastest", required(legacyClassPath, "--legacy-classpath", name),
                    "io.jupiter.benchmark.legacy.LegacyTarget",
                    concat(LEGACY_OPENS, LEGACY_SETTINGS,
                            "-Djupiter.executor.factory.provider.factory_name=callerRuns"),
                    false, true);
            case LEGACY_POOL -> new TargetSpec(name, "1.3.1 thread pool",
                    required(legacyClassPath, "--legacy-classpath", name), "io.jupiter.benchmark.legacy.LegacyTarget",
                    concat(LEGACY_OPENS, LEGACY_SETTINGS), false, false);
            case BASELINE -> new TargetSpec(name, "baseline (defaults)",
                    required(baselineClassPath, "--baseline-classpath", name), jupiterAdapter, List.of(), false, true);
            case BASELINE_DIRECT -> new TargetSpec(name, "baseline (IO threads)",
                    required(baselineClassPath, "--baseline-classpath", name), jupiterAdapter, List.of(), true, true);
            case GRPC -> new TargetSpec(name, "grpc-java", required(grpcClassPath, "--grpc-classpath", name),
                    "io.jupiter.benchmark.grpc.GrpcTarget", List.of(), false, true);
            case GRPC_DIRECT -> new TargetSpec(name, "grpc-java (directExecutor)",
                    required(grpcClassPath, "--grpc-classpath", name), "io.jupiter.benchmark.grpc.GrpcTarget",
                    List.of(), true, true);
            case GRPC_ON_JUPITER -> new TargetSpec(name, "gRPC on jupiter (IO threads)",
                    required(grpcOnJupiterClassPath, "--grpc-on-jupiter-classpath", name),
                    "io.jupiter.benchmark.interop.GrpcOnJupiterTarget", List.of(), true, false);
            default -> throw new IllegalArgumentException("--targets: unknown target '" + name + "' (expected: "
                    + String.join("|", RAW, JUPITER, JUPITER_DIRECT, JUPITER_NON_BLOCKING, JUPITER_TLS,
                    JUPITER_PROTOCOLS, LEGACY, LEGACY_POOL, BASELINE, BASELINE_DIRECT, GRPC, GRPC_DIRECT,
                    GRPC_ON_JUPITER)
                    + ")");
        };
    }

    /** Whether this target runs on this project's transport (and so takes {@code -Djupiter.io.transport}). */
    boolean onOurTransport() {
        return name.equals(RAW) || name.startsWith(JUPITER) || name.startsWith(BASELINE);
    }

    /** This target with {@code more} JVM options after its own. */
    TargetSpec withJvmOptions(List<String> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<String> all = new ArrayList<>(jvmOptions);
        all.addAll(more);
        return new TargetSpec(name, label + " " + String.join(" ", more), classPath, adapter, List.copyOf(all), direct,
                reference);
    }

    private static String required(String classPath, String flag, String target) {
        if (classPath == null || classPath.isBlank()) {
            throw new IllegalArgumentException("target '" + target + "' needs " + flag);
        }
        return classPath;
    }

    private static List<String> concat(List<String> first, List<String> second, String... more) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        all.addAll(List.of(more));
        return List.copyOf(all);
    }
}
