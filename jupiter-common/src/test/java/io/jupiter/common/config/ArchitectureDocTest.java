package io.jupiter.common.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * build, and its thread table every thread name prefix the main sources give.
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
     * How the main sources name a thread or a pool of threads: a thread factory, a transport's thread name prefix,
     * a worker pool, a registry worker, virtual threads, a single thread made with its name.
     */
    private static final Pattern THREAD_NAME = Pattern.compile(
            "(?:NamedThreadFactory\\(|threadNamePrefix\\(|threadNamePrefix = |WorkerPool\\(|RegistryWorker\\("
                    + "|newThreadPerTaskExecutor\\(|\\},\\s*)\"(jupiter-[a-z0-9-]*)\"");

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
            Matcher m = THREAD_NAME.matcher(read(source));
            while (m.find()) {
                names.add(m.group(1).replaceAll("-+$", ""));
            }
        }
        assertThat(names).as("thread names found in the sources").contains("jupiter-provider", "jupiter-acceptor");
        List<String> missing = new ArrayList<>();
        for (String name : names) {
            if (!table.contains("`" + name + "`") && !table.contains("`" + name + "-*`")
                    && !table.contains("`" + name + "*`")) {
                missing.add(name);
            }
        }
        assertThat(missing).as("thread names missing from the thread table of " + DOCUMENT).isEmpty();
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
        String pom = Files.readString(dir.resolve("pom.xml"));
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
