package io.jupiter.compat;

import static org.assertj.core.api.Assertions.assertThat;

import compat.model.Values;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.serialization.SerializerType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A real Jupiter 1.3.1 consumer (its own JVM, started once for the class) calls our provider. Each scenario runs
 * once in the 1.3.1 JVM and prints one line per case; the tests check those lines.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class LegacyConsumerToOurProviderTest {

    private static final String LEGACY = "org.jupiter.rpc.exception.";

    private JupiterServer server;
    /** One provider thread and one queue slot, and the default serializers (Java serialization refused). */
    private JupiterServer strict;
    private LegacyJvm consumer;
    private final Map<String, Map<String, String>> results = new HashMap<>();

    @BeforeAll
    void start() throws Exception {
        server = JupiterServer.builder().host("127.0.0.1").port(0).serializers(SerializerType.PROTOSTUFF,
                SerializerType.HESSIAN, SerializerType.KRYO, SerializerType.JAVA).build();
        server.register(new CompatServiceImpl());
        // A stream service too: every connection of the 1.3.1 consumer then receives our stream announcement
        // first (a heartbeat frame with status 0x01), and every case below shows 1.3.1 takes it as a heartbeat.
        server.register(new CompatStreamsImpl());
        server.start();
        strict = JupiterServer.builder().host("127.0.0.1").port(0).providerThreads(1).queueCapacity(1).build();
        strict.register(new CompatServiceImpl());
        strict.start();
        consumer = LegacyJvm.start("LegacyConsumer");
        // warm-up: the first 1.3.1 call (proxy generation, class loading) can take seconds
        assertThat(run("one", "PROTO_STUFF", server, 1)).containsEntry("one", "VALUE one");
    }

    @AfterAll
    void stop() throws Exception {
        if (consumer != null) {
            consumer.close();
        }
        if (server != null) {
            server.close();
        }
        if (strict != null) {
            strict.close();
        }
    }

    /** Runs a scenario in the 1.3.1 JVM once and returns case name to outcome. */
    private Map<String, String> run(String scenario, String serializer, JupiterServer target, int connections)
            throws Exception {
        String command = scenario + " " + serializer + " " + target.localAddress().getPort() + " " + connections;
        Map<String, String> cached = results.get(command);
        if (cached != null) {
            return cached;
        }
        Map<String, String> outcomes = new HashMap<>();
        for (String line : consumer.command(command, 60)) {
            if (line.startsWith("case ")) {
                String[] parts = line.split(" ", 3);
                outcomes.put(parts[1], parts.length > 2 ? parts[2] : "");
            }
        }
        results.put(command, outcomes);
        return outcomes;
    }

    private static String legacyName(String serializer) {
        return serializer.equals("protostuff") ? "PROTO_STUFF" : serializer.toUpperCase();
    }

    static List<Arguments> valueCases() {
        List<Arguments> cases = new ArrayList<>();
        for (String serializer : List.of("protostuff", "hessian", "java")) {
            for (String method : Values.cases().keySet()) {
                if (Values.supported(serializer, method)) {
                    cases.add(Arguments.of(serializer, method));
                }
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("valueCases")
    void valueComesBackEqual(String serializer, String method) throws Exception {
        // two connections to the same address, as 1.3.1's benchmark client opens several
        Map<String, String> outcomes = run("values", legacyName(serializer), server, 2);
        assertThat(outcomes).containsEntry(method, "PASS");
    }

    @ParameterizedTest
    @ValueSource(strings = {"protostuff", "hessian", "java"})
    void noArgsEmptyAndNullArguments(String serializer) throws Exception {
        Map<String, String> outcomes = run("calls", legacyName(serializer), server, 1);
        assertThat(outcomes).containsEntry("noArgs", "VALUE no-args")
                .containsEntry("emptyStringArg", "VALUE ")
                .containsEntry("nullArg", "VALUE null");
    }

    @Test
    void nullArgumentsArriveAs131SendsThem() throws Exception {
        // protostuff (1.3.1's default settings) compacts nulls in the argument array; the others keep them.
        assertThat(run("calls", "PROTO_STUFF", server, 1)).containsEntry("nullsInTheMiddle", "VALUE a|c|null");
        assertThat(run("calls", "HESSIAN", server, 1)).containsEntry("nullsInTheMiddle", "VALUE a|null|c");
        assertThat(run("calls", "JAVA", server, 1)).containsEntry("nullsInTheMiddle", "VALUE a|null|c");
    }

    @ParameterizedTest
    @ValueSource(strings = {"protostuff", "hessian", "java"})
    void declaredExceptionIsRethrown(String serializer) throws Exception {
        assertThat(run("calls", legacyName(serializer), server, 1))
                .containsEntry("declared", "THROWN compat.model.CompatException|declared-message");
    }

    @ParameterizedTest
    @ValueSource(strings = {"protostuff", "hessian", "java"})
    void undeclaredExceptionIsABizExceptionWithTheRemoteToString(String serializer) throws Exception {
        assertThat(run("calls", legacyName(serializer), server, 1)).containsEntry("unexpected",
                "THROWN " + LEGACY + "JupiterBizException|java.lang.IllegalStateException: unexpected-message");
    }

    @ParameterizedTest
    @ValueSource(strings = {"protostuff", "hessian", "java"})
    void completableFutureMethods(String serializer) throws Exception {
        Map<String, String> outcomes = run("calls", legacyName(serializer), server, 1);
        assertThat(outcomes).containsEntry("future", "VALUE from-the-future");
        // 0x50: 1.3.1 reports a non-1.3.1 error body of any other status as a JupiterRemoteException
        assertThat(outcomes.get("futureFails")).startsWith("THROWN " + LEGACY + "JupiterRemoteException|");
    }

    @ParameterizedTest
    @ValueSource(strings = {"protostuff", "hessian", "java"})
    void serviceNotFoundIs131sOwnException(String serializer) throws Exception {
        assertThat(run("notFound", legacyName(serializer), server, 1)).containsEntry("notFound",
                "THROWN " + LEGACY + "JupiterServiceNotFoundException|service not found: compat-compat-9.9.9");
    }

    @Test
    void badRequestIs131sOwnException() throws Exception {
        // The strict provider refuses Java serialization: 0x40, answered in Java serialization.
        assertThat(run("one", "JAVA", strict, 1).get("one"))
                .startsWith("THROWN " + LEGACY + "JupiterBadRequestException|")
                .contains("java serializer");
    }

    @Test
    void serverBusyIs131sOwnException() throws Exception {
        Map<String, String> outcomes = run("busy", "PROTO_STUFF", strict, 1);
        assertThat(outcomes.get("busy")).startsWith("THROWN " + LEGACY + "JupiterServerBusyException|provider busy");
        assertThat(outcomes.get("busySlept")).isIn("VALUE 1", "VALUE 2");
    }

    @Test
    void kryoFailsAtOnceNotByTimeout() throws Exception {
        // Our provider cannot read 1.3.1's Kryo 2.23 body: 0x40 in a Kryo 5 body 1.3.1 cannot read, then close.
        long start = System.nanoTime();
        String outcome = run("one", "KRYO", server, 1).get("one");
        assertThat(outcome).startsWith("THROWN " + LEGACY).doesNotContain("Timeout");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(10_000);
    }

    @ParameterizedTest
    @ValueSource(strings = {"protostuff", "hessian", "java"})
    void genericInvoke(String serializer) throws Exception {
        Map<String, String> outcomes = run("generic", legacyName(serializer), server, 1);
        assertThat(outcomes).containsEntry("genericString", "VALUE generic")
                .containsEntry("genericInt", "VALUE 42")
                .containsEntry("genericUser", "VALUE " + Values.cases().get("user"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"protostuff", "hessian", "java"})
    void attachmentsOfA131ConsumerFilterReachOurProviderMethod(String serializer) throws Exception {
        // 1.3.1 sends them only from a consumer JFilter (compat.legacy.ConsumerAttachmentFilter, loaded by SPI);
        // our method reads them with RpcContext.attachments().
        Map<String, String> outcomes = run("attachments", legacyName(serializer), server, 1);
        assertThat(outcomes).containsEntry("attachments", "VALUE tenant=legacy-acme;trace-id=t-131")
                .containsEntry("noAttachments", "VALUE ");
    }
}
