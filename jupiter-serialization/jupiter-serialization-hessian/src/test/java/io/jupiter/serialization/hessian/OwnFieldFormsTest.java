package io.jupiter.serialization.hessian;

import static org.assertj.core.api.Assertions.assertThat;

import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.Hessian2Output;
import com.caucho.hessian.io.SerializerFactory;
import io.jupiter.serialization.ClassAllowList;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The field forms written without {@code sun.misc.Unsafe} ({@link ReflectiveSerializer}, {@link ThrowableForm},
 * {@link BigIntegerForm}, {@link StackTraceElementForm}) give the bytes Hessian's own {@code Unsafe} serializers
 * give, here on JDK 17 where {@code Unsafe} prints nothing, and each side reads what the other wrote.
 */
class OwnFieldFormsTest {

    static {
        HessianStart.ensure(); // as HessianSerializer does, before the factories below initialise Hessian
    }

    private static final ClassAllowList ALLOW = ClassAllowList.create(ClassAllowList.Mode.OFF);
    private static final SerializerFactory OURS = new LegacyNameSerializerFactory(
            OwnFieldFormsTest.class.getClassLoader(), ALLOW, true);
    private static final SerializerFactory HESSIANS = new LegacyNameSerializerFactory(
            OwnFieldFormsTest.class.getClassLoader(), ALLOW, false);

    static Stream<Object> values() {
        Everything nested = new Everything();
        nested.text = "inner";
        Everything outer = new Everything();
        outer.child = nested;
        outer.same = nested;
        outer.list = new ArrayList<>(List.of("a", "b"));
        outer.date = new Date(1_700_000_000_000L);
        outer.big = new BigInteger("-98765432109876543210");
        IllegalStateException withCause = new IllegalStateException("outer", new IllegalArgumentException("inner"));
        withCause.addSuppressed(new RuntimeException("suppressed"));
        return Stream.of(new Everything(), outer, new IllegalStateException("plain"), withCause,
                new Coded("coded", 42, "ERR"),
                new Coded(null, 0, null), new Formatted("E7"), new StackTraceElement("a.B", "m", "B.java", 7),
                List.of(new Everything(), new IllegalStateException("in a list")));
    }

    @ParameterizedTest
    @MethodSource("values")
    void sameBytesAsHessiansUnsafeFormsAndEachReadsTheOther(Object value) throws IOException {
        byte[] ours = write(OURS, value);
        byte[] hessians = write(HESSIANS, value);
        assertThat(ours).isEqualTo(hessians);

        assertSameValue(read(OURS, hessians), value);
        assertSameValue(read(HESSIANS, ours), value);
        assertSameValue(read(OURS, ours), value);
    }

    /** Real frames (JDK, test and library classes, with and without loader and module names) take our form. */
    @Test
    void stackTraceElementsTakeOurFormWithHessiansBytes() throws IOException {
        assertThat(OURS.getSerializer(StackTraceElement.class)).isInstanceOf(FieldsSerializer.class);
        StackTraceElement[] frames = new Throwable().getStackTrace();
        assertThat(frames).anyMatch(f -> f.getModuleName() != null).anyMatch(f -> f.getClassLoaderName() != null);
        assertThat(write(OURS, frames)).isEqualTo(write(HESSIANS, frames));
        assertThat((Object[]) read(OURS, write(OURS, frames))).isEqualTo(frames);
    }

    static Stream<BigInteger> bigIntegers() {
        return Stream.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.valueOf(-1), BigInteger.valueOf(255),
                BigInteger.valueOf(256), new BigInteger("-98765432109876543210"),
                new BigInteger("123456789012345678901234567890123456789"), BigInteger.TWO.pow(64).negate(),
                BigInteger.TWO.pow(95));
    }

    /**
     * Not byte for byte: besides {@code signum} and {@code mag} a {@code BigInteger} holds values it computed
     * when asked (bit length, ...), which Hessian writes as they happen to be and this form writes as 0 (not
     * computed); either way a reader gets the same number.
     */
    @ParameterizedTest
    @MethodSource("bigIntegers")
    void bigIntegersReadTheSameEitherWay(BigInteger value) throws IOException {
        assertThat(read(OURS, write(HESSIANS, value))).isEqualTo(value);
        assertThat(read(HESSIANS, write(OURS, value))).isEqualTo(value);
        assertThat(read(OURS, write(OURS, value))).isEqualTo(value);
        assertThat(BigIntegerForm.magnitude(value)).hasSize((value.abs().bitLength() + 31) / 32);
    }

    private static void assertSameValue(Object read, Object written) {
        if (written instanceof Throwable expected) {
            Throwable actual = (Throwable) read;
            assertThat(actual).isExactlyInstanceOf(expected.getClass()).hasMessage(expected.getMessage());
            assertThat(actual.getStackTrace()).isEqualTo(expected.getStackTrace());
            assertThat(actual.getSuppressed()).hasSameSizeAs(expected.getSuppressed());
            if (expected.getCause() == null) {
                assertThat(actual.getCause()).isNull();
            } else {
                assertSameValue(actual.getCause(), expected.getCause());
            }
            if (expected instanceof Coded coded) {
                assertThat(((Coded) actual).code).isEqualTo(coded.code);
                assertThat(((Coded) actual).kind).isEqualTo(coded.kind);
            }
        } else if (written instanceof List<?> list) {
            List<?> actual = (List<?>) read;
            assertThat(actual).hasSameSizeAs(list);
            for (int i = 0; i < list.size(); i++) {
                assertSameValue(actual.get(i), list.get(i));
            }
        } else {
            assertThat(read).isEqualTo(written);
        }
    }

    private static byte[] write(SerializerFactory factory, Object value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Hessian2Output out = new Hessian2Output(bytes);
        out.setSerializerFactory(factory);
        out.writeObject(value);
        out.flush();
        return bytes.toByteArray();
    }

    private static Object read(SerializerFactory factory, byte[] bytes) throws IOException {
        Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(bytes));
        in.setSerializerFactory(factory);
        return in.readObject();
    }

    /** A field of each kind Hessian writes differently. */
    static final class Everything implements Serializable {
        private static final long serialVersionUID = 1L;
        boolean flag = true;
        byte b = -3;
        short s = 300;
        char c = 'x';
        int i = -70_000;
        long l = 1L << 40;
        float f = 1.5f;
        double d = -2.25;
        String text = "text";
        Integer boxed = 9;
        Date date;
        List<String> list;
        Everything child;
        Everything same;
        BigInteger big;
        transient String skipped = "never";

        @Override
        public boolean equals(Object o) {
            return o instanceof Everything e && e.flag == flag && e.b == b && e.s == s && e.c == c && e.i == i
                    && e.l == l && e.f == f && e.d == d && Objects.equals(e.text, text)
                    && Objects.equals(e.boxed, boxed) && Objects.equals(e.date, date)
                    && Objects.equals(e.list, list) && Objects.equals(e.child, child)
                    && Objects.equals(e.same, same) && Objects.equals(e.big, big);
        }

        @Override
        public int hashCode() {
            return Objects.hash(text, i);
        }
    }

    /** A user exception whose constructor formats its message: read back without calling it (Hessian's form). */
    static final class Formatted extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Formatted(String code) {
            super("code " + code);
        }
    }

    /** A user exception with fields of its own. */
    static final class Coded extends Exception {
        private static final long serialVersionUID = 1L;
        private final int code;
        private final String kind;

        Coded(String message) {
            this(message, 0, null);
        }

        Coded(String message, int code, String kind) {
            super(message);
            this.code = code;
            this.kind = kind;
        }
    }
}
