package io.jupiter.compat;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A JVM running the original Jupiter 1.3.1 with its own classpath (its Netty 4.1.27 never meets ours), started by
 * a test class and driven over its standard input and output. The programs under {@code src/legacy/java} (and the
 * shared {@code compat.model} classes) are compiled against the 1.3.1 classpath once per test JVM.
 */
final class LegacyJvm implements AutoCloseable {

    /** JDK 17 needs these for 1.3.1: unsafe buffer access (nio), protostuff on throwables (lang), hessian (math). */
    private static final List<String> JVM_FLAGS = List.of(
            "--add-opens", "java.base/java.nio=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "--add-opens", "java.base/java.math=ALL-UNNAMED",
            "--add-opens", "java.base/java.util=ALL-UNNAMED",
            "-Xmx256m", "-XX:TieredStopAtLevel=1",
            "-Djupiter.rpc.load-balancer.warm-up=0");

    private static String classpath;

    private final String name;
    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Path log;

    private LegacyJvm(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("io-error " + e);
            }
        }, "legacy-" + name + "-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code compat.legacy.<mainClass>} with {@code args}. */
    static LegacyJvm start(String mainClass, String... args) throws IOException {
        return start(List.of(), mainClass, args);
    }

    /** Starts {@code compat.legacy.<mainClass>} with {@code args} and extra JVM flags (e.g. {@code -Dkey=value}). */
    static LegacyJvm start(List<String> jvmFlags, String mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_FLAGS);
        command.addAll(jvmFlags);
        command.add("-cp");
        command.add(classpath());
        command.add("compat.legacy." + mainClass);
        command.addAll(List.of(args));
        Path log = Paths.get(System.getProperty("compat.legacy.classes")).resolveSibling(
                "legacy-" + mainClass + "-" + System.nanoTime() + ".log");
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        return new LegacyJvm(mainClass, process, log);
    }

    /** A port that was free a moment ago, for the 1.3.1 provider (its acceptor cannot report a bound port 0). */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * The first of {@code count} consecutive ports that were free a moment ago: the first chosen by the OS, the
     * others bound while it is held (for the load driver, which puts target {@code t} on {@code base + t}).
     */
    static int freeConsecutivePorts(int count) throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            try (ServerSocket first = new ServerSocket(0)) {
                int base = first.getLocalPort();
                if (base + count - 1 <= 65_000 && bindable(base + 1, count - 1)) {
                    return base;
                }
            }
        }
        throw new IOException("no " + count + " consecutive free ports in 100 attempts");
    }

    private static boolean bindable(int from, int count) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int port = from; port < from + count; port++) {
                held.add(new ServerSocket(port));
            }
            return true;
        } catch (IOException taken) {
            return false;
        } finally {
            for (ServerSocket socket : held) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // closing a listening socket we own
                }
            }
        }
    }

    /** The next line that starts with {@code prefix}; fails after {@code seconds}. */
    String awaitLine(String prefix, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left <= 0 ? null : lines.poll(left, TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError("1.3.1 " + name + ": no line starting with '" + prefix + "' within "
                        + seconds + " s (alive: " + process.isAlive() + "); stderr: " + tail());
            }
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    /** Sends one command and returns the lines it printed, up to {@code end}. */
    List<String> command(String command, long seconds) throws IOException, InterruptedException {
        stdin.write(command + "\n");
        stdin.flush();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<String> out = new ArrayList<>();
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left <= 0 ? null : lines.poll(left, TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError("1.3.1 " + name + ": '" + command + "' did not end within " + seconds
                        + " s; got " + out + "; stderr: " + tail());
            }
            if (line.equals("end")) {
                return out;
            }
            out.add(line);
        }
    }

    /** Waits for the program to end by itself and returns its exit status; fails after {@code seconds}. */
    int awaitExit(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("1.3.1 " + name + " did not end within " + seconds + " s; stderr: " + tail());
        }
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        try {
            stdin.write("exit\n");
            stdin.close();
        } catch (IOException e) {
            // already gone
        }
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroy();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    private String tail() {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - 30), all.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** The class path of the 1.3.1 JVMs (compiling our legacy programs on first use). */
    static String legacyClassPath() throws IOException {
        return classpath();
    }

    /**
     * Our compiled legacy programs and their resources (the SPI file of their 1.3.1 filters) first, then 1.3.1's
     * classpath (byte-buddy 1.14 in place of 1.9.10).
     */
    private static synchronized String classpath() throws IOException {
        if (classpath == null) {
            String legacy = Files.readString(Paths.get(System.getProperty("compat.legacy.classpath.file"))).trim();
            Path classes = Paths.get(System.getProperty("compat.legacy.classes"));
            Files.createDirectories(classes);
            List<String> sources = new ArrayList<>();
            for (String dir : System.getProperty("compat.legacy.sources").split(File.pathSeparator)) {
                try (Stream<Path> files = Files.walk(Paths.get(dir))) {
                    sources.addAll(files.filter(f -> f.toString().endsWith(".java")).map(Path::toString)
                            .collect(Collectors.toList()));
                }
            }
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            List<String> compileArgs = new ArrayList<>(List.of("--release", "8", "-nowarn", "-Xlint:-options",
                    "-encoding", "UTF-8", "-d", classes.toString(), "-cp", legacy));
            compileArgs.addAll(sources);
            ByteArrayOutputStream errors = new ByteArrayOutputStream();
            int rc = javac.run(null, errors, errors, compileArgs.toArray(new String[0]));
            if (rc != 0) {
                throw new IllegalStateException("cannot compile the 1.3.1 programs: " + errors);
            }
            classpath = classes + File.pathSeparator + System.getProperty("compat.legacy.resources")
                    + File.pathSeparator + legacy;
        }
        return classpath;
    }
}
