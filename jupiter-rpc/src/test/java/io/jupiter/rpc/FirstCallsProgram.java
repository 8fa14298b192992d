package io.jupiter.rpc;

import io.jupiter.serialization.SerializerType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A server and a client in one JVM making their first calls with each serializer: values, a user class, JDK types
 * written field by field ({@code BigInteger}; {@code java.time} values, but not with Hessian) and both kinds of
 * failure (a declared exception and an undeclared one, with stack traces sent). Prints {@code start <serializer>}
 * before each serializer's first call, {@code done} at the end; exits non-zero on a wrong answer. The arguments name
 * the serializers to call, in order (all when none). Run by {@link Jdk25StartWarningsTest}.
 */
public final class FirstCallsProgram {

    private FirstCallsProgram() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("start server");
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0)
                .serializers(SerializerType.values()).sendStackTraces(true).build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(new EchoServiceImpl());
            InetSocketAddress address = server.start();
            for (SerializerType type : serializers(args)) {
                System.out.println("start " + type);
                EchoService echo = client.proxy(EchoService.class).address("127.0.0.1", address.getPort())
                        .serializer(type).build();
                check(echo.hello("a"), "hello, a");
                EchoService.Person person = new EchoService.Person("p", 3, List.of("t"));
                check(echo.person(person), person);
                check(echo.map(Map.of("k", 1)), Map.of("k", 1, "size", 1));
                check(echo.list(List.of("x", "y")), List.of("x", "y", "!"));
                check(echo.color(EchoService.Color.RED), EchoService.Color.BLUE);
                check(echo.add(2, 3), 5);
                check(echo.decimal(new BigDecimal("1.5")), new BigDecimal("2.5"));
                check(echo.echo(new BigInteger("-123456789012345678901234567890")),
                        new BigInteger("-123456789012345678901234567890"));
                check(echo.echo(BigInteger.ZERO), BigInteger.ZERO);
                if (type != SerializerType.HESSIAN) {
                    // Hessian cannot write them: without the packages open it cannot open their fields; with
                    // them, its serializer loops on java.time's writeReplace objects.
                    check(echo.echo(LocalDate.of(2026, 12, 7)), LocalDate.of(2026, 12, 7));
                    check(echo.echo(Duration.ofMillis(1500)), Duration.ofMillis(1500));
                }
                // Protostuff and Kryo send a stack trace only once the provider's JVM filled it; these two always.
                boolean traced = type == SerializerType.HESSIAN || type == SerializerType.JAVA;
                check(failure(() -> echo.failChecked("declared"), traced), "declared");
                check(failure(() -> echo.failUnchecked("undeclared"), traced), "undeclared");
            }
        }
        System.out.println("done");
    }

    private static List<SerializerType> serializers(String[] args) {
        return args.length == 0 ? List.of(SerializerType.values())
                : Arrays.stream(args).map(SerializerType::valueOf).toList();
    }

    private static String failure(Call call, boolean traced) {
        try {
            call.run();
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (traced && cause.getStackTrace().length == 0) {
                throw new AssertionError("no stack trace in " + cause);
            }
            return cause.getMessage();
        }
        throw new AssertionError("no failure");
    }

    /** A call that fails. */
    private interface Call {
        Object run() throws Exception;
    }

    private static void check(Object actual, Object expected) {
        if (!expected.equals(actual)) {
            throw new AssertionError("expected " + expected + ", got " + actual);
        }
    }
}
