package io.jupiter.serialization.protostuff;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.testkit.suites.serialization.Samples;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.protostuff.LinkedBuffer;
import io.protostuff.MapSchema;
import io.protostuff.Schema;
import io.protostuff.runtime.RuntimeEnv;
import java.io.File;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Timestamp;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Calendar;
import java.util.Collection;
import java.util.Currency;
import java.util.GregorianCalendar;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The serializer as it starts by default writes exactly the bytes protostuff writes in its {@code sun.misc.Unsafe}
 * mode (that of Jupiter 1.3.1), for a corpus of the JDK classes whose private fields protostuff's reflective mode
 * cannot open (docs/protocol.md, "Protostuff"), and reads each back. Each side is a fresh copy of protostuff and of
 * this module's classes in a class loader of its own, so both meet the classes in the same order (a throwable's form
 * depends on whether protostuff's id strategy knows its class; the first one of a class goes under field 52, later
 * ones under 127), and one of them is started with {@code protostuff.runtime.use_sun_misc_unsafe=true}. What is read
 * back must be what the Unsafe mode reads back (under field 52 a throwable loses its cause, under 127 one without a
 * cause gets a copy of itself); the results that the Unsafe mode itself does not read back as written (it leaves out
 * the JDK's transient fields) are listed. In this JVM (no package opened) the default start is the Unsafe mode; a
 * child JVM that opens {@link ProtostuffStart#OPENED} must start reflectively and pass the same check.
 */
class UnsafeModeIdentityTest {

    private static final String UNSAFE = "protostuff.runtime.use_sun_misc_unsafe";

    /** A user exception with a field of its own. */
    public static class CodedException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private int code;

        public CodedException(String message, int code, Throwable cause) {
            super(message, cause);
            this.code = code;
        }

        public int code() {
            return code;
        }
    }

    /** A user class holding each JDK value in a field of its own type, and all of them in collections. */
    public static class Holder {
        Throwable throwable;
        RuntimeException runtime;
        StackTraceElement element;
        LocalDate localDate;
        LocalTime localTime;
        LocalDateTime localDateTime;
        Instant instant;
        Duration duration;
        Period period;
        ZonedDateTime zonedDateTime;
        OffsetDateTime offsetDateTime;
        ZoneOffset zoneOffset;
        ZoneId zoneId;
        Year year;
        YearMonth yearMonth;
        MonthDay monthDay;
        UUID uuid;
        Optional<String> optional;
        AtomicInteger atomicInteger;
        AtomicLong atomicLong;
        AtomicBoolean atomicBoolean;
        AtomicReference<String> atomicReference;
        URI uri;
        URL url;
        File file;
        Currency currency;
        TimeZone timeZone;
        Calendar calendar;
        Timestamp timestamp;
        StringBuilder stringBuilder;
        Pattern pattern;
        BitSet bitSet;
        Random random;
        List<Object> list;
        Map<String, Object> map;
        Object[] array;
    }

    /**
     * Here (no package opened to protostuff: its {@code Unsafe} mode on both sides unless the build opens them), and
     * the same in a child JVM that opens {@link ProtostuffStart#OPENED}, where the default start is reflective.
     */
    @Test
    void defaultStartWritesTheUnsafeModesBytesAndReadsThemBack() throws Exception {
        Outcome outcome = compare();
        assertThat(outcome.differences).as("bodies whose bytes differ from protostuff's Unsafe mode").isEmpty();
        assertThat(outcome.readBack).as("bodies read back otherwise than the Unsafe mode reads them").isEmpty();
        assertThat(outcome.compared).isEqualTo(corpus().size() * 2);
        // What protostuff's Unsafe mode (1.3.1's) itself does not read back as written: it leaves out the JDK's
        // transient fields (ZoneOffset's id, URL's handler, Calendar's and Date's time, BitSet's wordsInUse).
        assertThat(outcome.lossy).as("results the Unsafe mode does not read back as written").containsExactly(
                LOSSY.toArray(String[]::new));
    }

    @Test
    void reflectiveStartWithThePackagesOpenedWritesTheUnsafeModesBytes(@TempDir Path dir) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m"));
        for (String opened : ProtostuffStart.OPENED) {
            command.add("--add-opens=" + opened + "=ALL-UNNAMED");
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), UnsafeModeIdentityTest.class.getName()));
        Path output = dir.resolve("output.txt");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                .start();
        boolean exited = process.waitFor(120, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        String printed = Files.readString(output);
        assertThat(exited).as("the child exited in time:%n%s", printed).isTrue();
        assertThat(process.exitValue()).as("exit status:%n%s", printed).isZero();
        assertThat(printed).contains("reflective start, " + corpus().size() * 2 + " bodies as the Unsafe mode's");
    }

    /** The child JVM of {@link #reflectiveStartWithThePackagesOpenedWritesTheUnsafeModesBytes}. */
    public static void main(String[] args) throws Exception {
        Outcome outcome = compare();
        boolean same = outcome.differences.isEmpty() && outcome.readBack.isEmpty()
                && new ArrayList<>(outcome.lossy).equals(LOSSY);
        System.out.println("differences " + outcome.differences + ", read back otherwise " + outcome.readBack
                + ", lossy " + outcome.lossy);
        if (!outcome.oursReflective || !same) {
            System.out.println("FAILED (reflective start: " + outcome.oursReflective + ")");
            System.exit(1);
        }
        System.out.println("reflective start, " + outcome.compared + " bodies as the Unsafe mode's");
    }

    /** The results that protostuff's Unsafe mode does not read back as written (see the first test). */
    private static final List<String> LOSSY = List.of("result ZonedDateTime", "result OffsetDateTime",
            "result ZoneOffset", "result URL", "result Calendar", "result Timestamp", "result BitSet", "result list",
            "result map", "result array");

    /** What {@link #compare()} found. */
    private static final class Outcome {
        final List<String> differences = new ArrayList<>();
        final List<String> readBack = new ArrayList<>();
        final Set<String> lossy = new LinkedHashSet<>();
        int compared;
        boolean oursReflective;
    }

    /** Writes the corpus with both copies of protostuff and reads back what ours wrote. */
    private static Outcome compare() throws Exception {
        Serializer unsafe = serializerInOwnLoader(true);
        Serializer ours = serializerInOwnLoader(false);
        Outcome outcome = new Outcome();
        outcome.oursReflective = !Class.forName(RuntimeEnv.class.getName(), false, ours.getClass().getClassLoader())
                .getField("USE_SUN_MISC_UNSAFE").getBoolean(null);
        for (Map.Entry<String, Object> entry : corpus().entrySet()) {
            Object body = entry.getValue();
            // Twice: the first throwable of a class and the later ones have different forms.
            for (String pass : List.of("first", "later")) {
                String what = entry.getKey() + " (" + pass + ")";
                byte[] expected = Samples.encode(unsafe, body);
                byte[] actual;
                try {
                    actual = Samples.encode(ours, body);
                } catch (RuntimeException e) {
                    outcome.differences.add(what + ": " + e);
                    continue;
                }
                outcome.compared++;
                if (!Arrays.equals(expected, actual)) {
                    outcome.differences.add(what);
                    continue;
                }
                // As protostuff's Unsafe mode reads it: some forms lose a throwable's cause (docs/protocol.md).
                String read = describe(read(ours, actual, body.getClass()));
                if (!read.equals(describe(read(unsafe, expected, body.getClass())))) {
                    outcome.readBack.add(what + ": " + read);
                }
                if (body instanceof ResultWrapper result && !(result.getResult() instanceof Throwable)
                        && !entry.getKey().contains("holder") && !read.equals(describe(body))) {
                    outcome.lossy.add(entry.getKey());
                }
            }
        }
        return outcome;
    }

    /** A {@link ProtostuffSerializer} of a fresh copy of protostuff, started in its Unsafe mode if {@code unsafe}. */
    private static Serializer serializerInOwnLoader(boolean unsafe) throws Exception {
        ClassLoader loader = new OwnCopyLoader();
        String before = System.getProperty(UNSAFE);
        if (unsafe) {
            System.setProperty(UNSAFE, "true");
        }
        try {
            // The serializer first: it sets protostuff's other properties before protostuff starts.
            Class.forName(ProtostuffSerializer.class.getName(), true, loader);
            Class.forName(RuntimeEnv.class.getName(), true, loader);
        } finally {
            if (before == null) {
                System.clearProperty(UNSAFE);
            } else {
                System.setProperty(UNSAFE, before);
            }
        }
        Class<?> type = Class.forName(ProtostuffSerializer.class.getName(), false, loader);
        assertThat(type).isNotSameAs(ProtostuffSerializer.class);
        return (Serializer) type.getConstructor(ClassAllowList.class)
                .newInstance(ClassAllowList.create(ClassAllowList.Mode.OFF));
    }

    /** Loads protostuff and this module's main classes itself; everything else from the test's class loader. */
    private static final class OwnCopyLoader extends URLClassLoader {

        OwnCopyLoader() {
            super(locations(RuntimeEnv.class, Schema.class, LinkedBuffer.class, MapSchema.class,
                    ProtostuffSerializer.class),
                    UnsafeModeIdentityTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> type = findLoadedClass(name);
                if (type == null && (name.startsWith("io.protostuff.")
                        || name.startsWith(ProtostuffSerializer.class.getPackageName() + "."))) {
                    try {
                        type = findClass(name);
                    } catch (ClassNotFoundException notHere) {
                        // a test class of this package: the parent's
                    }
                }
                if (type == null) {
                    return super.loadClass(name, resolve);
                }
                if (resolve) {
                    resolveClass(type);
                }
                return type;
            }
        }

        private static URL[] locations(Class<?>... types) {
            LinkedHashSet<URL> urls = new LinkedHashSet<>();
            for (Class<?> type : types) {
                urls.add(type.getProtectionDomain().getCodeSource().getLocation());
            }
            return urls.toArray(URL[]::new);
        }
    }

    /** Each body to write, by name: each value as a result, in a user class, in collections, as an argument. */
    private static Map<String, Object> corpus() throws Exception {
        Map<String, Object> values = values();
        Map<String, Object> bodies = new LinkedHashMap<>();
        for (Map.Entry<String, Object> entry : values.entrySet()) {
            bodies.put("result " + entry.getKey(), new ResultWrapper(entry.getValue()));
        }
        for (Map.Entry<String, Object> entry : values.entrySet()) {
            bodies.put("argument " + entry.getKey(), Samples.request(new Object[] {"x", entry.getValue()}, null));
        }
        Holder holder = holder();
        bodies.put("result holder", new ResultWrapper(holder));
        bodies.put("argument holder", Samples.request(new Object[] {holder}, null));
        bodies.put("result list", new ResultWrapper(new ArrayList<>(values.values())));
        bodies.put("result map", new ResultWrapper(new LinkedHashMap<>(values)));
        bodies.put("result array", new ResultWrapper(values.values().toArray()));
        bodies.put("arguments all", Samples.request(values.values().toArray(), null));
        return bodies;
    }

    /** One value of each class, by name. */
    private static Map<String, Object> values() throws Exception {
        Map<String, Object> values = new LinkedHashMap<>();
        IllegalStateException bare = new IllegalStateException("bare");
        bare.setStackTrace(new StackTraceElement[0]);
        values.put("exception", bare);
        IllegalArgumentException traced = new IllegalArgumentException("traced");
        traced.setStackTrace(new StackTraceElement[] {new StackTraceElement("a.B", "m", "B.java", 7)});
        values.put("exception with stack trace", traced);
        // Its stack trace is never asked for: Throwable.stackTrace still holds its empty "unassigned" marker, which
        // protostuff's Unsafe mode writes as it is (an empty array), while getStackTrace() would give the frames.
        values.put("exception thrown", thrown());
        CodedException coded = new CodedException("coded", 42, new IllegalStateException("inner"));
        coded.setStackTrace(new StackTraceElement[0]);
        coded.getCause().setStackTrace(new StackTraceElement[0]);
        coded.addSuppressed(bare);
        values.put("user exception with cause and suppressed", coded);
        values.put("InvocationTargetException", new InvocationTargetException(bare, "invoked"));
        values.put("DateTimeParseException", new DateTimeParseException("unparsed", "2026-13", 5));
        values.put("NoSuchFileException", new NoSuchFileException("/tmp/a", "/tmp/b", "gone"));
        values.put("ParseException", new ParseException("at 3", 3));
        values.put("stack trace element", new StackTraceElement("loader", "module", "1.0", "a.B", "m", "B.java", 7));
        LocalDateTime dateTime = LocalDateTime.of(2026, 12, 7, 8, 45, 1, 5000);
        values.put("LocalDate", dateTime.toLocalDate());
        values.put("LocalTime", dateTime.toLocalTime());
        values.put("LocalDateTime", dateTime);
        values.put("Instant", Instant.ofEpochSecond(1_765_000_000L, 123_456_789));
        values.put("Duration", Duration.ofMillis(1500));
        values.put("Period", Period.of(1, 2, 3));
        values.put("ZonedDateTime", ZonedDateTime.of(dateTime, ZoneId.of("Europe/Paris")));
        values.put("OffsetDateTime", OffsetDateTime.of(dateTime, ZoneOffset.ofHours(2)));
        values.put("ZoneOffset", ZoneOffset.ofHoursMinutes(5, 30));
        values.put("ZoneId", ZoneId.of("Asia/Tokyo"));
        values.put("Year", Year.of(2026));
        values.put("YearMonth", YearMonth.of(2026, 12));
        values.put("MonthDay", MonthDay.of(12, 7));
        values.put("UUID", new UUID(0x0123456789abcdefL, 0xfedcba9876543210L));
        values.put("Optional", Optional.of("present"));
        values.put("empty Optional", Optional.empty());
        values.put("AtomicInteger", new AtomicInteger(5));
        values.put("AtomicLong", new AtomicLong(-6));
        values.put("AtomicBoolean", new AtomicBoolean(true));
        values.put("AtomicReference", new AtomicReference<>("ref"));
        values.put("URI", URI.create("http://user@host:8080/p/a?q=1#f"));
        values.put("URL", URI.create("http://host:8080/p?q=1").toURL());
        values.put("File", new File("/tmp/jupiter/file.txt"));
        values.put("Currency", Currency.getInstance("EUR"));
        values.put("TimeZone", TimeZone.getTimeZone("America/New_York"));
        GregorianCalendar calendar = new GregorianCalendar(TimeZone.getTimeZone("UTC"));
        calendar.setTimeInMillis(1_765_000_000_000L);
        values.put("Calendar", calendar);
        Timestamp timestamp = new Timestamp(1_765_000_000_000L);
        timestamp.setNanos(123_456_789);
        values.put("Timestamp", timestamp);
        values.put("StringBuilder", new StringBuilder("built"));
        values.put("Pattern", Pattern.compile("a+b", Pattern.CASE_INSENSITIVE));
        values.put("BitSet", BitSet.valueOf(new long[] {0b1011, 1L << 40}));
        values.put("Random", new Random(42));
        return values;
    }

    private static IllegalStateException thrown() {
        try {
            throw new IllegalStateException("thrown");
        } catch (IllegalStateException e) {
            return e;
        }
    }

    private static Holder holder() throws Exception {
        Map<String, Object> values = values();
        Holder h = new Holder();
        h.throwable = (Throwable) values.get("user exception with cause and suppressed");
        h.runtime = (RuntimeException) values.get("exception");
        h.element = (StackTraceElement) values.get("stack trace element");
        h.localDate = (LocalDate) values.get("LocalDate");
        h.localTime = (LocalTime) values.get("LocalTime");
        h.localDateTime = (LocalDateTime) values.get("LocalDateTime");
        h.instant = (Instant) values.get("Instant");
        h.duration = (Duration) values.get("Duration");
        h.period = (Period) values.get("Period");
        h.zonedDateTime = (ZonedDateTime) values.get("ZonedDateTime");
        h.offsetDateTime = (OffsetDateTime) values.get("OffsetDateTime");
        h.zoneOffset = (ZoneOffset) values.get("ZoneOffset");
        h.zoneId = (ZoneId) values.get("ZoneId");
        h.year = (Year) values.get("Year");
        h.yearMonth = (YearMonth) values.get("YearMonth");
        h.monthDay = (MonthDay) values.get("MonthDay");
        h.uuid = (UUID) values.get("UUID");
        h.optional = Optional.of("held");
        h.atomicInteger = (AtomicInteger) values.get("AtomicInteger");
        h.atomicLong = (AtomicLong) values.get("AtomicLong");
        h.atomicBoolean = (AtomicBoolean) values.get("AtomicBoolean");
        h.atomicReference = new AtomicReference<>("held");
        h.uri = (URI) values.get("URI");
        h.url = (URL) values.get("URL");
        h.file = (File) values.get("File");
        h.currency = (Currency) values.get("Currency");
        h.timeZone = (TimeZone) values.get("TimeZone");
        h.calendar = (Calendar) values.get("Calendar");
        h.timestamp = (Timestamp) values.get("Timestamp");
        h.stringBuilder = (StringBuilder) values.get("StringBuilder");
        h.pattern = (Pattern) values.get("Pattern");
        h.bitSet = (BitSet) values.get("BitSet");
        h.random = (Random) values.get("Random");
        h.list = new ArrayList<>(values.values());
        h.map = new LinkedHashMap<>(values);
        h.array = values.values().toArray();
        return h;
    }

    private static Object read(Serializer serializer, byte[] body, Class<?> type) {
        ByteBuf buf = Unpooled.wrappedBuffer(body);
        try {
            return serializer.read(buf, type);
        } finally {
            buf.release();
        }
    }

    /**
     * Whether {@code cause} is none, {@code t} itself, or the copy of {@code t} that protostuff reads where {@code t}
     * held itself as cause (its form under field 127).
     */
    private static boolean selfOrCopy(Throwable t, Throwable cause) {
        return cause == null || cause == t || cause.getClass() == t.getClass()
                && Objects.equals(cause.getMessage(), t.getMessage()) && cause.getCause() == null;
    }

    /** What must survive the trip, as text (several of these classes have no {@code equals} of their own). */
    private static String describe(Object value) {
        try {
            return describeUnguarded(value);
        } catch (RuntimeException broken) {
            // Protostuff reads some JDK values back without their transient state (a URL without its handler).
            return value.getClass().getName() + " unusable: " + broken.getClass().getName();
        }
    }

    private static String describeUnguarded(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof ResultWrapper result) {
            return "result " + describe(result.getResult());
        }
        if (value instanceof MessageWrapper request) {
            return "request " + request.getMethodName() + " " + describe(request.getArgs());
        }
        if (value instanceof Throwable t) {
            String cause = selfOrCopy(t, t.getCause()) ? "" : " cause " + describe(t.getCause());
            String code = t instanceof CodedException c ? " code " + c.code() : "";
            return t.getClass().getName() + ": " + t.getMessage() + code + cause + " trace "
                    + describe(t.getStackTrace()) + " suppressed " + describe(t.getSuppressed());
        }
        if (value instanceof Random) {
            return "Random " + ((Random) value).nextLong();
        }
        if (value instanceof Calendar c) {
            return "Calendar " + c.getTimeInMillis() + " " + c.getTimeZone().getID();
        }
        if (value instanceof Holder h) {
            StringBuilder text = new StringBuilder("Holder");
            for (Field field : Holder.class.getDeclaredFields()) {
                try {
                    text.append(' ').append(field.getName()).append('=').append(describe(field.get(h)));
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
            return text.toString();
        }
        if (value.getClass().isArray()) {
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < Array.getLength(value); i++) {
                parts.add(describe(Array.get(value, i)));
            }
            return parts.toString();
        }
        if (value instanceof Collection<?> c) {
            return describe(c.toArray());
        }
        if (value instanceof Map<?, ?> m) {
            List<String> parts = new ArrayList<>();
            m.forEach((k, v) -> parts.add(describe(k) + "=" + describe(v)));
            return parts.toString();
        }
        return value.getClass().getName() + " " + value;
    }
}
