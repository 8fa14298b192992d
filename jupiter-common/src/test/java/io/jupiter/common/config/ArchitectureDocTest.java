package io.jupiter.common.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md matches the code: every class it names exists, its module table lists every module of the
 * build (the root pom's modules, an aggregator's by their own), and its thread table every thread name the main
 * sources of the framework's modules give (found by reading each call that names a thread or a pool of threads).
 */
class ArchitectureDocTest {

    static final String DOCUMENT = "docs/architecture.md";

    /** Types the document names that are not ours (the JDK's, Netty's, the libraries we integrate with). */
    private static final Set<String> NOT_OURS = Set.of(
            "ByteBuf", "Channel", "ChannelPipeline", "CompletableFuture", "CompletionStage", "EventLoop",
            "ExecutionException", "Flow", "Future", "IdleStateHandler", "InterruptedException", "Observation",
            "Publisher", "SslHandler", "Subscriber", "Subscription", "Thread", "ThreadLocal", "Throwable",
            "ServiceLoader", "Executor", "ExecutorService", "Runnable", "Object", "String", "Error",
            "RuntimeException", "Exception", "IllegalArgumentException", "IllegalStateException", "Override",
            "FlushConsolidationHandler", "FastThreadLocalThread", "ReentrantLock");

    /**
     * Calls that name a thread or a pool of threads in the main sources: a thread, a thread factory, a transport's
     * thread name prefix, a worker pool, a registry worker, virtual threads ({@code Thread.ofVirtual().name(...)} or
     * our {@code newThreadPerTaskExecutor}). The name is the call's first string literal among its own arguments
     * (not one inside a lambda or a nested call), or, for {@code IoThreadFactory(prefix, role)}, the two joined.
     */
    private static final Pattern THREAD_NAMING_CALL = Pattern.compile(
            "\\b(?:new\\s+(Thread|NamedThreadFactory|IoThreadFactory|DefaultThreadFactory|WorkerPool|RegistryWorker)"
                    + "|(threadNamePrefix|newThreadPerTaskExecutor)|of(?:Virtual|Platform)\\(\\)\\s*\\.(name))\\s*\\(");

    /** A field or variable whose name says it holds a thread name, given a literal: {@code threadName = "x"}. */
    private static final Pattern THREAD_NAME_FIELD = Pattern.compile(
            "\\b([A-Za-z_][A-Za-z0-9_]*)\\s*=\\s*\"([^\"\\\\]+)\"");

    /**
     * Modules whose threads are not the framework's: the examples, the benchmarks, and test support (its fault
     * proxy and test threads live only in tests). Their main sources are not scanned for thread names.
     */
    private static final Set<String> TOOL_MODULES = Set.of("jupiter-example", "jupiter-example-spring",
            "jupiter-benchmark", "jupiter-testkit", "jupiter-testkit-suites", "jupiter-compat");

    private static Path root;
    private static String document;
    private static List<Path> mainSources;

    @BeforeAll
    static void read() throws IOException {
        root = RepositoryRoot.find();
        document = Files.readString(root.resolve(DOCUMENT));
        try (Stream<Path> files = Files.walk(root)) {
            mainSources = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> p.toString().contains("/src/main/java/"))
                    .filter(p -> !p.toString().contains("/target/"))
                    .collect(Collectors.toList());
        }
    }

    @Test
    void everyClassItNamesExists() {
        Set<String> ours = new TreeSet<>();
        Pattern declaration = Pattern.compile("\\b(?:class|interface|enum|record|@interface)\\s+([A-Z][A-Za-z0-9]*)");
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(p -> p.toString().endsWith(".java") && !p.toString().contains("/target/"))
                    .forEach(p -> {
                        Matcher m = declaration.matcher(read(p));
                        while (m.find()) {
                            ours.add(m.group(1));
                        }
                    });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> missing = new ArrayList<>();
        Matcher code = Pattern.compile(
                "`([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)(?:\\.java|\\.[a-z][A-Za-z0-9]*(?:\\(\\))?)?`").matcher(document);
        while (code.find()) {
            String name = code.group(1);
            if (!ours.contains(name) && !NOT_OURS.contains(name)) {
                missing.add(name);
            }
        }
        assertThat(missing).as("classes named in " + DOCUMENT + " that no source declares").isEmpty();
    }

    @Test
    void theModuleTableListsEveryModule() throws IOException {
        String table = section("## Modules and layers");
        Set<String> listed = new TreeSet<>();
        Matcher cell = Pattern.compile("^\\| `([^|]+)` \\|", Pattern.MULTILINE).matcher(table);
        while (cell.find()) {
            for (String name : cell.group(1).split("`,\\s*`")) {
                listed.addAll(expand(name.replace("`", "").trim()));
            }
        }
        List<String> missing = new ArrayList<>();
        for (String module : leafModules(root, "")) {
            if (!listed.contains(module)) {
                missing.add(module);
            }
        }
        assertThat(missing).as("modules of the build missing from the module table of " + DOCUMENT).isEmpty();
    }

    @Test
    void theThreadTableListsEveryThreadName() {
        String table = section("## Threads");
        Set<String> names = new TreeSet<>();
        for (Path source : mainSources) {
            if (!isToolModule(source)) {
                names.addAll(threadNames(withoutComments(read(source))));
            }
        }
        assertThat(names).as("thread names found in the main sources (the scan still finds each way of naming)")
                .contains("jupiter-provider", "jupiter-provider-virtual", "jupiter-acceptor", "jupiter-io",
                        "jupiter-inprocess", "jupiter-drain", "jupiter-local-stream", "jupiter-stream-deadlines",
                        "jupiter-registry-k8s", "jupiter-registry-dns-io", "jupiter-timeout");
        Set<String> listed = new TreeSet<>();
        Matcher code = Pattern.compile("`([a-z][a-z0-9-]*(?:-\\*)?)`").matcher(table);
        while (code.find()) {
            listed.add(code.group(1));
        }
        List<String> missing = new ArrayList<>();
        for (String name : names) {
            if (listed.stream().noneMatch(entry -> covers(entry, name))) {
                missing.add(name);
            }
        }
        assertThat(missing).as("thread names missing from the thread table of " + DOCUMENT).isEmpty();
    }

    @Test
    void theThreadNameScanReadsEachWayOfNamingAThread() {
        String source = """
                Thread drain = new Thread(() -> {
                    log("jupiter-not-a-name");
                    run(f("jupiter-nested"));
                }, "jupiter-drain");
                new NamedThreadFactory("jupiter-timeout", true);
                new IoThreadFactory("jupiter", "inprocess", true);
                TransportConfig.builder().threadNamePrefix("jupiter-acceptor").build();
                VirtualThreads.newThreadPerTaskExecutor("jupiter-stream-");
                Thread.ofVirtual().name("jupiter-virtual-", 0).factory();
                private String threadNamePrefix = "jupiter-io";
                String label = "jupiter-registry-client";
                new ThreadLocal<>("jupiter-not-a-thread");
                """;
        assertThat(threadNames(withoutComments(source))).containsExactlyInAnyOrder("jupiter-drain",
                "jupiter-timeout", "jupiter-inprocess", "jupiter-acceptor", "jupiter-stream", "jupiter-virtual",
                "jupiter-io");
        assertThat(covers("jupiter-acceptor-*", "jupiter-acceptor")).isTrue();
        assertThat(covers("jupiter-registry-*", "jupiter-registry-k8s")).isFalse();
        assertThat(covers("jupiter-stream", "jupiter-stream-starter")).isFalse();
        assertThat(withoutComments("a(\"x\"); // new Thread(\"jupiter-comment\")\n/* new Thread(\"y\") */ b"))
                .doesNotContain("jupiter-comment").doesNotContain("\"y\"");
    }

    /**
     * Whether a table entry covers a thread name the code gives: the name itself, or the name followed by {@code -*}
     * (the threads it numbers). A wildcard does not cover other names under it: {@code jupiter-registry-*} is the
     * embedded registry's IO threads, not {@code jupiter-registry-k8s}.
     */
    private static boolean covers(String entry, String name) {
        return entry.equals(name) || entry.equals(name + "-*");
    }

    private static boolean isToolModule(Path source) {
        Path relative = root.relativize(source);
        return TOOL_MODULES.contains(relative.getName(0).toString());
    }

    /** The thread names a source gives (trailing dashes dropped: a prefix names the threads it starts). */
    static Set<String> threadNames(String source) {
        Set<String> names = new TreeSet<>();
        Matcher call = THREAD_NAMING_CALL.matcher(source);
        while (call.find()) {
            List<String> literals = topLevelLiterals(source, call.end());
            if (literals.isEmpty()) {
                continue; // named from a variable: its literal, if any, is found as a field below
            }
            boolean ioThreadFactory = "IoThreadFactory".equals(call.group(1));
            String name = ioThreadFactory && literals.size() >= 2 ? literals.get(0) + "-" + literals.get(1)
                    : literals.get(0);
            names.add(name.replaceAll("-+$", ""));
        }
        Matcher field = THREAD_NAME_FIELD.matcher(source);
        while (field.find()) {
            if (field.group(1).toLowerCase(Locale.ROOT).contains("thread")) {
                names.add(field.group(2).replaceAll("-+$", ""));
            }
        }
        return names;
    }

    /**
     * The string literals among the arguments of the call whose opening parenthesis is just before {@code from}:
     * those at its own level, not inside a lambda's body, a nested call or an array.
     */
    private static List<String> topLevelLiterals(String source, int from) {
        List<String> literals = new ArrayList<>();
        int depth = 0;
        for (int i = from; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c == '"' || c == '\'') {
                int end = endOfLiteral(source, i);
                if (c == '"' && depth == 0) {
                    literals.add(source.substring(i + 1, end));
                }
                i = end;
            } else if (c == '(' || c == '{' || c == '[') {
                depth++;
            } else if (c == ')' || c == '}' || c == ']') {
                if (depth == 0) {
                    break; // the call's closing parenthesis
                }
                depth--;
            }
        }
        return literals;
    }

    /** The source without its comments (string and char literals kept as they are). */
    static String withoutComments(String source) {
        StringBuilder out = new StringBuilder(source.length());
        for (int i = 0; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c == '"' || c == '\'') {
                int end = endOfLiteral(source, i);
                out.append(source, i, end + 1);
                i = end;
            } else if (source.startsWith("//", i)) {
                int end = source.indexOf('\n', i);
                i = (end < 0 ? source.length() : end) - 1;
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                i = (end < 0 ? source.length() : end + 2) - 1;
                out.append(' ');
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * The index of the quote that closes the string literal (or text block) or char literal opening at {@code start}
     * (a line end closes an unclosed one).
     */
    private static int endOfLiteral(String source, int start) {
        char quote = source.charAt(start);
        if (source.startsWith("\"\"\"", start)) {
            int end = source.indexOf("\"\"\"", start + 3);
            return end < 0 ? source.length() - 1 : end + 2;
        }
        for (int i = start + 1; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == quote || c == '\n') {
                return i;
            }
        }
        return source.length() - 1;
    }

    /** The text of one section, from its heading to the next heading of the same level. */
    private static String section(String heading) {
        int start = document.indexOf("\n" + heading + "\n");
        assertThat(start).as(heading + " in " + DOCUMENT).isNotNegative();
        int end = document.indexOf("\n## ", start + heading.length() + 1);
        return document.substring(start, end < 0 ? document.length() : end);
    }

    /** {@code a-{b,c}} is {@code a-b} and {@code a-c}; a path such as {@code x/y} stays as it is. */
    private static List<String> expand(String name) {
        Matcher braces = Pattern.compile("^(.*)\\{([^}]*)\\}(.*)$").matcher(name);
        if (!braces.matches()) {
            return List.of(name);
        }
        List<String> names = new ArrayList<>();
        for (String part : braces.group(2).split(",")) {
            names.add(braces.group(1) + part.trim() + braces.group(3));
        }
        return names;
    }

    /**
     * The modules that are built: those of the root pom; an aggregator (a module with modules of its own) stands for
     * its modules, named by their folder (e.g. {@code jupiter-serialization-hessian}), except where the root pom
     * names a path ({@code jupiter-benchmark/driver}), which is kept.
     */
    private static List<String> leafModules(Path dir, String prefix) throws IOException {
        String pom = Files.readString(dir.resolve("pom.xml")).replaceAll("(?s)<!--.*?-->", ""); // no commented module
        Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(pom);
        List<String> found = new ArrayList<>();
        while (module.find()) {
            String name = module.group(1).trim();
            Path child = dir.resolve(name);
            String childPom = Files.exists(child.resolve("pom.xml")) ? Files.readString(child.resolve("pom.xml")) : "";
            if (childPom.contains("<module>")) {
                found.addAll(leafModules(child, ""));
            } else {
                found.add(prefix + name);
            }
        }
        return found;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
