package io.jupiter.rpc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.transport.Status;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every status a component raises or tests for is named through {@link StatusTable}: this test reads the main
 * sources of every module and fails on a <em>status literal</em> anywhere else.
 *
 * <p>A status literal is, in a file that uses {@code io.jupiter.transport.Status} (imports it, names it fully, or
 * sits in its package):
 * <ul>
 *   <li>a constant of {@code Status} other than {@code OK} ({@code Status.SERVER_BUSY}), bare or fully qualified;
 *       {@code OK} is success, no error decision, and stays free to use;</li>
 *   <li>a raw status byte turned into a status ({@code Status.fromByte((byte) 0x51)}, {@code fromByte(81)}).</li>
 * </ul>
 * Allowed only in {@code Status.java} (the wire bytes) and {@code StatusTable.java} (what each means). Elsewhere code
 * writes {@code StatusTable.SERVER_BUSY.status()}, {@code StatusTable.SERVER_BUSY.is(status)} or one of the
 * table's predicates ({@code StatusTable.isFull}). Test sources are not read: tests assert on statuses.
 */
class StatusLiteralsTest {

    private static final Set<String> ALLOWED_FILES = Set.of(
            "jupiter-transport/jupiter-transport-api/src/main/java/io/jupiter/transport/Status.java",
            "jupiter-rpc/src/main/java/io/jupiter/rpc/internal/StatusTable.java");

    private static final String NAMES = Arrays.stream(Status.values())
            .filter(s -> s != Status.OK)
            .map(Enum::name)
            .collect(Collectors.joining("|"));

    private static final Pattern CONSTANT = Pattern.compile("(?<![\\w.])Status\\.(" + NAMES + ")\\b");
    private static final Pattern QUALIFIED = Pattern.compile("io\\.jupiter\\.transport\\.Status\\.(" + NAMES + ")\\b");
    private static final Pattern RAW_BYTE =
            Pattern.compile("Status\\.fromByte\\(\\s*(\\(byte\\)\\s*)?(0x[0-9a-fA-F]+|[0-9]+)\\s*\\)");

    @Test
    void noStatusLiteralOutsideTheTable() throws IOException {
        Path root = repositoryRoot();
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> p.toString().contains("/src/main/java/"))
                    .filter(p -> !p.toString().contains("/target/"))
                    .forEach(p -> scan(root, p, found));
        }
        assertThat(found)
                .as("status literals outside StatusTable (name the status through its row: StatusTable.X.status())")
                .isEmpty();
    }

    @Test
    void theRuleSeesWhatItMustSee() {
        String source = "import io.jupiter.transport.Status;\n"
                + "class A { Object a = Status.SERVER_BUSY; Object b = io.jupiter.transport.Status.BAD_REQUEST;"
                + " Object c = Status.fromByte((byte) 0x51); Object ok = Status.OK;"
                + " Object other = HttpResponseStatus.BAD_REQUEST; Object t = StatusTable.SERVER_BUSY.status(); }";
        assertThat(literals(source)).containsExactlyInAnyOrder("Status.SERVER_BUSY",
                "io.jupiter.transport.Status.BAD_REQUEST", "Status.fromByte((byte) 0x51)");
        assertThat(literals("import io.jupiter.transport.Status;\n"
                + "class C { Object s = Status.fromByte(frame.status()); }"))
                .as("a status read from a frame is no literal")
                .isEmpty();
        assertThat(literals("class B { Object r = Status.REJECTED; Object s = Status.SERVER_BUSY; }"))
                .as("a file that does not use our Status (java.io.ObjectInputFilter.Status, say)")
                .isEmpty();
    }

    private static void scan(Path root, Path file, List<String> found) {
        String relative = root.relativize(file).toString().replace('\\', '/');
        if (ALLOWED_FILES.contains(relative)) {
            return;
        }
        String source;
        try {
            source = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String literal : literals(source)) {
            found.add(relative + ": " + literal);
        }
    }

    /** The status literals in one source file (see the class comment). */
    static List<String> literals(String source) {
        List<String> found = new ArrayList<>();
        Matcher qualified = QUALIFIED.matcher(source);
        while (qualified.find()) {
            found.add(qualified.group());
        }
        boolean usesStatus = source.contains("import io.jupiter.transport.Status;")
                || source.contains("package io.jupiter.transport;");
        if (!usesStatus) {
            return found;
        }
        Matcher constant = CONSTANT.matcher(source);
        while (constant.find()) {
            found.add(constant.group());
        }
        Matcher raw = RAW_BYTE.matcher(source);
        while (raw.find()) {
            found.add(raw.group());
        }
        return found;
    }

    private static Path repositoryRoot() {
        Path dir = Paths.get("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("jupiter-transport"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("the repository root above the working directory").isNotNull();
        return dir;
    }
}
