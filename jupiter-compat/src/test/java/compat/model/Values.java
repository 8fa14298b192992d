package compat.model;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The value cases, compiled into both our test classpath and the 1.3.1 programs (Java 8 source): for each echo
 * method of the compat service, the argument sent. The service returns its argument, so a case passes when the
 * value comes back equal.
 */
public final class Values {

    /** Methods whose values Hessian cannot carry as themselves, in 1.3.1 as here (4.0.38 semantics). */
    private static final Set<String> NOT_HESSIAN = new HashSet<>(Arrays.asList(
            "b", "bW", "s", "sW", "c", "cW", "f", "fW", "decimal"));

    private Values() {
    }

    /** Method name to argument, in a stable order. */
    public static Map<String, Object> cases() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("bool", true);
        m.put("boolW", Boolean.FALSE);
        m.put("b", (byte) -7);
        m.put("bW", Byte.MAX_VALUE);
        m.put("c", 'x');
        m.put("cW", '\u00e9');
        m.put("s", (short) -300);
        m.put("sW", Short.MIN_VALUE);
        m.put("i", -1);
        m.put("iW", Integer.MAX_VALUE);
        m.put("l", Long.MIN_VALUE);
        m.put("lW", 1234567890123L);
        m.put("f", 1.5f);
        m.put("fW", -0.25f);
        m.put("d", Math.PI);
        m.put("dW", -2.5e300);
        m.put("str", "jupiter");
        m.put("unicode", "\u6728\u661f \u00fcber \ud83d\ude80 \u0436");
        m.put("big", bigString());
        m.put("bytes", new byte[] {0, 1, -1, 127, -128});
        m.put("ints", new int[] {1, -2, 3});
        m.put("longs", new long[] {Long.MAX_VALUE, 0, -1});
        m.put("strings", new String[] {"a", "b", ""});
        m.put("objects", new Object[] {1, "z", 2L});
        m.put("list", new ArrayList<>(Arrays.asList("x", "y", "z")));
        m.put("set", new HashSet<>(Arrays.asList(3, 1, 2)));
        Map<String, Integer> map = new HashMap<>();
        map.put("k", 1);
        map.put("v", 2);
        m.put("map", map);
        m.put("emptyList", new ArrayList<>(Collections.<String>emptyList()));
        m.put("color", Color.GREEN);
        m.put("user", new User(9, "bob", new ArrayList<>(Arrays.asList("t1", "t2"))));
        m.put("decimal", new BigDecimal("12345.678900"));
        m.put("integer", new BigInteger("-123456789012345678901234567890"));
        m.put("date", new Date(1561420800000L));
        return m;
    }

    /** Whether {@code serializer} carries the case's value as itself. */
    public static boolean supported(String serializer, String method) {
        return !("hessian".equals(serializer) && NOT_HESSIAN.contains(method));
    }

    /** Equality that compares arrays by content. */
    public static boolean same(Object a, Object b) {
        return Objects.deepEquals(a, b);
    }

    /** A readable form of a value, arrays included, for failure messages. */
    public static String show(Object value) {
        if (value instanceof Object[]) {
            return Arrays.deepToString((Object[]) value);
        }
        if (value instanceof byte[]) {
            return Arrays.toString((byte[]) value);
        }
        if (value instanceof int[]) {
            return Arrays.toString((int[]) value);
        }
        if (value instanceof long[]) {
            return Arrays.toString((long[]) value);
        }
        String text = String.valueOf(value);
        return (value == null ? "" : value.getClass().getName() + ":")
                + (text.length() > 80 ? text.substring(0, 80) + "...(" + text.length() + " chars)" : text);
    }

    /** 1 MiB of text. */
    public static String bigString() {
        StringBuilder sb = new StringBuilder(1 << 20);
        while (sb.length() < (1 << 20)) {
            sb.append((char) ('a' + sb.length() % 26));
        }
        return sb.toString();
    }
}
