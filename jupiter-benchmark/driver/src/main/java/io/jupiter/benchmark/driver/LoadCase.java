package io.jupiter.benchmark.driver;

import java.util.ArrayList;
import java.util.List;

/**
 * One row of a comparison: {@code "<sync|async> <threads> <payload or scenario>"}, e.g. {@code "sync 32 small"},
 * {@code "async 32 1k"}, {@code "sync 32 1m"} (the payloads: {@link Payloads}), {@code "sync 32 getUser"}, or
 * {@code "stream <streams> <payload>"}, e.g.
 * {@code "stream 100 small"}: that many server streams at once (see {@link StreamDriver}), or
 * {@code "fanout <subscribers> <payload>"}: that many subscribers of one topic ({@link StreamDriver#fanOut}), or
 * {@code "upload <streams> <payload>"}: that many client streams at once ({@link StreamDriver#upload}), or
 * {@code "echo <streams> <payload>"}: that many bidirectional streams echoing ({@link StreamDriver#echo}).
 *
 * @param mode     {@code sync}, {@code async}, {@code stream}, {@code fanout}, {@code upload} or {@code echo}
 * @param threads  caller threads, or streams in {@code stream}, {@code upload} and {@code echo} mode, or
 *                 subscribers in
 *                 {@code fanout} mode
 * @param payload  a {@link Payloads} name for the {@code hello} scenario, else {@code small} (unused)
 * @param scenario {@code hello} or a user-service call of the rpc-benchmark
 */
public record LoadCase(String mode, int threads, String payload, String scenario) {

    /** The most subscribers of a fan-out case. */
    static final int MAX_SUBSCRIBERS = 20_000;

    /** The modes, as {@link DriverMain}'s {@code --mode} takes them. */
    static final List<String> MODES = List.of("sync", "async", "stream", "fanout", "upload", "echo");

    private static final List<String> USER_SCENARIOS = List.of("existUser", "createUser", "getUser", "listUser");

    /** Parses {@code "<mode> <threads> <payload|scenario>"}. */
    public static LoadCase parse(String text) {
        String[] parts = text.trim().split("\\s+");
        if (parts.length != 3 || !MODES.contains(parts[0])) {
            throw new IllegalArgumentException("case '" + text + "' (expected: '<sync|async> <threads> "
                    + "<" + String.join("|", Payloads.NAMES) + "|" + String.join("|", USER_SCENARIOS)
                    + ">' or '<stream|fanout|upload|echo> <streams> <small|1k>')");
        }
        int threads;
        try {
            threads = Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("case '" + text + "': threads must be a number", e);
        }
        int most = parts[0].equals("fanout") ? MAX_SUBSCRIBERS : 4096;
        if (threads < 1 || threads > most) {
            throw new IllegalArgumentException("case '" + text + "': threads must be 1.." + most);
        }
        if (USER_SCENARIOS.contains(parts[2]) && (parts[0].equals("sync") || parts[0].equals("async"))) {
            return new LoadCase(parts[0], threads, "small", parts[2]);
        }
        Payloads.of(parts[2]);
        return new LoadCase(parts[0], threads, parts[2], "hello");
    }

    /** Parses a comma-separated list of cases. */
    public static List<LoadCase> parseList(String text) {
        List<LoadCase> cases = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                cases.add(parse(part));
            }
        }
        if (cases.isEmpty()) {
            throw new IllegalArgumentException("no cases in '" + text + "'");
        }
        return cases;
    }

    /** The flags of {@link DriverMain}'s client for this case. */
    List<String> clientFlags() {
        return List.of("--mode", mode, "--threads", Integer.toString(threads), "--payload", payload,
                "--scenario", scenario);
    }

    @Override
    public String toString() {
        return mode + " " + threads + " " + (scenario.equals("hello") ? payload : scenario);
    }
}
