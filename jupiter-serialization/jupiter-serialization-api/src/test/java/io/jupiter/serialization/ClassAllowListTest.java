package io.jupiter.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

class ClassAllowListTest {

    private final ClassAllowList strict = ClassAllowList.create(ClassAllowList.Mode.STRICT);

    @ParameterizedTest
    @ValueSource(strings = {"java.lang.String", "java.lang.Integer", "java.math.BigDecimal", "java.util.ArrayList",
            "java.util.HashMap", "java.util.Date", "java.util.UUID", "java.util.Optional", "java.time.Instant",
            "java.time.LocalDate", "java.util.concurrent.ConcurrentHashMap", "java.util.Collections$EmptyList",
            "java.lang.IllegalStateException", "java.lang.NullPointerException", "java.lang.RuntimeException",
            "java.lang.Throwable", "java.lang.StackTraceElement", "java.lang.OutOfMemoryError",
            "java.io.IOException", "java.util.concurrent.TimeoutException", "[Ljava.lang.String;", "[[I", "[B",
            "io.jupiter.serialization.wire.MessageWrapper", "org.jupiter.rpc.model.metadata.MessageWrapper",
            "org.jupiter.rpc.exception.JupiterBadRequestException",
            "io.jupiter.serialization.wire.legacy.JupiterBizException", "int", "long", "double", "boolean"})
    void builtInTypesAreTrusted(String name) {
        assertThat(strict.isTrusted(name)).isTrue();
        assertThatCode(() -> strict.check("test", name)).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"java.lang.Runtime", "java.lang.ProcessBuilder", "java.lang.Thread", "java.lang.Class",
            "java.lang.reflect.Proxy", "javax.management.BadAttributeValueExpException",
            "java.rmi.server.UnicastRemoteObject", "sun.reflect.annotation.AnnotationInvocationHandler",
            "com.sun.rowset.JdbcRowSetImpl", "org.apache.commons.collections.functors.InvokerTransformer",
            "org.springframework.beans.factory.ObjectFactory", "com.mchange.v2.c3p0.PoolBackedDataSource",
            "[Lorg.apache.commons.collections.Transformer;", "java.net.URL", "com.acme.Unknown", "Unqualified",
            "java.lang.Foo$Exception", "java.util.logging.Level", "java.util.concurrent.ThreadPoolExecutor$Worker",
            "java.util.concurrent.ForkJoinPool$WorkQueue", "java.lang.ProcessBuilder$Redirect", ""})
    void othersAreRefusedInStrictMode(String name) {
        assertThat(strict.isTrusted(name)).isFalse();
        assertThatThrownBy(() -> strict.check("test", name))
                .isInstanceOf(ClassNotTrustedException.class)
                .hasMessageContaining("'" + name + "'");
    }

    @Test
    void neverTrustedNamesCannotBeTrustedEvenWhenAsked() {
        assertThatThrownBy(() -> strict.trust(ProcessBuilder.class))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("never trusted");
        assertThatThrownBy(() -> strict.trustName("org.apache.commons.collections.functors.InvokerTransformer"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> strict.trustPackage("org.springframework.beans"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> strict.trustName("java.util.concurrent.ThreadPoolExecutor$Worker"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("never trusted");
        strict.trustPackage("org.acme"); // a trusted package still leaves out the gadget packages inside it
        assertThat(strict.isTrusted("org.acme.Order")).isTrue();
    }

    @Test
    void aOneSegmentPackageIsRefused() {
        for (String wide : List.of("org", "com.", " java ")) {
            assertThatThrownBy(() -> strict.trustPackage(wide))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one-segment prefix");
        }
        assertThat(strict.isTrusted("org.acme.Order")).isFalse();
    }

    @Test
    void trustingAClassOrPackageUndoesAnEarlierRefusal() {
        assertThat(strict.isTrusted(Order.class.getName())).isFalse();
        strict.trust(Order.class);
        assertThat(strict.isTrusted(Order.class.getName())).isTrue();
        assertThat(strict.isTrusted("[L" + Order.class.getName() + ";")).isTrue();

        assertThat(strict.isTrusted("com.acme.model.deep.Thing")).isFalse();
        strict.trustPackage("com.acme.model");
        assertThat(strict.isTrusted("com.acme.model.deep.Thing")).isTrue();
        assertThat(strict.isTrusted("com.acme.modelx.Thing")).isFalse();
    }

    @Test
    void warnModeAllowsAndOffModeChecksNothing() {
        ClassAllowList warn = ClassAllowList.create(ClassAllowList.Mode.WARN);
        assertThatCode(() -> warn.check("test", "com.acme.Unknown")).doesNotThrowAnyException();
        assertThatCode(() -> warn.check("test", "com.acme.Unknown")).doesNotThrowAnyException();
        ClassAllowList off = ClassAllowList.create(ClassAllowList.Mode.OFF);
        assertThatCode(() -> off.check("test", "java.lang.Runtime")).doesNotThrowAnyException();
        assertThat(off.mode(ClassAllowList.Mode.STRICT).mode()).isEqualTo(ClassAllowList.Mode.STRICT);
        assertThatThrownBy(() -> off.check("test", "java.lang.Runtime")).isInstanceOf(ClassNotTrustedException.class);
    }

    @Test
    void warnModeLogsAWireClassNameEscaped() {
        // Issue #25, item 6: a class name from the wire reached the WARN line as it came.
        Logger logger = (Logger) LoggerFactory.getLogger(ClassAllowList.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        // the logging thread appends while the test reads: a list that iterates over a snapshot
        lines.list = new CopyOnWriteArrayList<>();
        lines.start();
        logger.addAppender(lines);
        try {
            ClassAllowList warn = ClassAllowList.create(ClassAllowList.Mode.WARN);
            warn.check("test", "com.acme.X\n12:00:00.000 ERROR forged\u0085line\u009b31m");
        } finally {
            logger.detachAppender(lines);
        }
        assertThat(lines.list).singleElement().extracting(ILoggingEvent::getFormattedMessage).asString()
                .contains("class 'com.acme.X?12:00:00.000 ERROR forged?line?31m'")
                .doesNotContain("\n").doesNotContain("\u0085").doesNotContain("\u009b");
    }

    @Test
    void modeParsesTheSystemPropertyValues() {
        assertThat(ClassAllowList.Mode.parse(" Warn ")).isEqualTo(ClassAllowList.Mode.WARN);
        assertThatThrownBy(() -> ClassAllowList.Mode.parse("lenient"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(ClassAllowList.MODE_PROPERTY).hasMessageContaining("strict, warn or off");
    }

    @Test
    void aServiceInterfacesOwnTypesAreTrustedWithTheirFieldsAndGenericArguments() {
        strict.trustTypesOf(OrderService.class);

        for (Class<?> type : List.of(Order.class, Line.class, Sku.class, Customer.class, Receipt.class, Status.class,
                OrderRejected.class, Address.class)) {
            assertThat(strict.isTrusted(type.getName())).as(type.getName()).isTrue();
        }
        // Not reachable from the interface: a value of it in an Object field needs trusting by hand.
        assertThat(strict.isTrusted(Unrelated.class.getName())).isFalse();
    }

    @Test
    void theRefusalSaysHowToTrust() {
        assertThatThrownBy(() -> strict.check("hessian", "com.acme.Order"))
                .isInstanceOf(ClassNotTrustedException.class)
                .hasMessage("hessian: class 'com.acme.Order' is not trusted for deserialization; if it is yours,"
                        + " trust it with ClassAllowList.global().trust(Order.class) or trustPackage(\"com.acme\")"
                        + " on both sides (or run with -Djupiter.serialization.allowlist=warn to only log)");
    }

    interface OrderService {
        Receipt place(Order order) throws OrderRejected;

        CompletableFuture<List<Receipt>> history(Map<String, Customer> byId);

        Optional<Status> status(long id);
    }

    static class Order implements Serializable {
        List<Line> lines;
        Object note; // declared Object: says nothing about what travels in it
    }

    static class Line implements Serializable {
        Sku[] skus;
        int quantity;
    }

    static class Sku implements Serializable {
        String code;
    }

    static class Customer implements Serializable {
        Map<String, List<Address>> addresses;
    }

    static class Address implements Serializable {
        String street;
    }

    static class Receipt implements Serializable {
        Status status;
    }

    enum Status { OPEN, DONE }

    static class OrderRejected extends Exception {
    }

    static class Unrelated implements Serializable {
    }
}
