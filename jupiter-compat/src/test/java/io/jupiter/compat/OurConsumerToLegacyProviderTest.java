package io.jupiter.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import compat.model.CompatException;
import compat.model.Values;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.context.RpcContext;
import io.jupiter.rpc.exception.BadRequestException;
import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.ServiceNotFoundException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.serialization.SerializerType;
import io.jupiter.testkit.FaultProxy;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
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
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Our consumer calls a real Jupiter 1.3.1 provider, started in its own JVM once for the class. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OurConsumerToLegacyProviderTest {

    private LegacyJvm provider;
    private int port;
    private JupiterClient client;

    @BeforeAll
    void startLegacyProvider() throws Exception {
        port = LegacyJvm.freePort();
        provider = LegacyJvm.start("LegacyProvider", String.valueOf(port));
        provider.awaitLine("ready", 60);
        client = JupiterClient.builder().appName("compat-ours").build();
        // warm-up: the first calls into a fresh 1.3.1 JVM can take seconds
        assertThat(service(SerializerType.PROTOSTUFF).str("warm-up")).isEqualTo("warm-up");
    }

    @AfterAll
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (provider != null) {
            provider.close();
        }
    }

    private CompatService service(SerializerType serializer) {
        return client.proxy(CompatService.class).address("127.0.0.1", port).serializer(serializer)
                .timeoutMillis(20_000).connections(2).build();
    }

    static List<Arguments> valueCases() {
        List<Arguments> cases = new ArrayList<>();
        for (SerializerType serializer : List.of(SerializerType.PROTOSTUFF, SerializerType.HESSIAN,
                SerializerType.JAVA)) {
            for (Map.Entry<String, Object> c : Values.cases().entrySet()) {
                if (Values.supported(serializer.id(), c.getKey())) {
                    cases.add(Arguments.of(serializer, c.getKey()));
                }
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("valueCases")
    void valueComesBackEqual(SerializerType serializer, String method) throws Throwable {
        Object sent = Values.cases().get(method);
        Method m = List.of(CompatService.class.getMethods()).stream()
                .filter(x -> x.getName().equals(method)).findFirst().orElseThrow();
        Object got;
        try {
            got = m.invoke(service(serializer), sent);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
        assertThat(Values.same(got, sent)).as("sent %s, got %s", Values.show(sent), Values.show(got)).isTrue();
    }

    @ParameterizedTest
    @EnumSource(names = {"PROTOSTUFF", "HESSIAN", "JAVA"})
    void noArgsEmptyAndNullArguments(SerializerType serializer) {
        CompatService service = service(serializer);
        assertThat(service.noArgs()).isEqualTo("no-args");
        assertThat(service.str("")).isEmpty();
        assertThat(service.str(null)).isNull();
    }

    @Test
    void protostuffCompactsNullArgumentsAs131Does() {
        // 1.3.1's default: null array elements are dropped and the array keeps its length.
        assertThat(service(SerializerType.PROTOSTUFF).three("a", null, "c")).isEqualTo("a|c|null");
        assertThat(service(SerializerType.HESSIAN).three("a", null, "c")).isEqualTo("a|null|c");
        assertThat(service(SerializerType.JAVA).three("a", null, "c")).isEqualTo("a|null|c");
    }

    @ParameterizedTest
    @EnumSource(names = {"PROTOSTUFF", "HESSIAN", "JAVA"})
    void declaredExceptionIsRethrown(SerializerType serializer) {
        assertThatThrownBy(() -> service(serializer).declared("declared-message"))
                .isExactlyInstanceOf(CompatException.class).hasMessage("declared-message");
    }

    @ParameterizedTest
    @EnumSource(names = {"PROTOSTUFF", "HESSIAN", "JAVA"})
    void undeclaredExceptionKeepsClassAndMessage(SerializerType serializer) {
        assertThatThrownBy(() -> service(serializer).unexpected("unexpected-message"))
                .isInstanceOfSatisfying(RemoteServiceException.class, e -> {
                    assertThat(e.status().value()).isEqualTo((byte) 0x53);
                    assertThat(e.remoteClassName()).isEqualTo("java.lang.IllegalStateException");
                    assertThat(e.remoteMessage()).isEqualTo("unexpected-message");
                });
    }

    @ParameterizedTest
    @EnumSource(names = {"PROTOSTUFF", "HESSIAN", "JAVA"})
    void serviceNotFoundBodyIsMapped(SerializerType serializer) {
        try (JupiterClient refused = refusedCallsClient()) {
            CompatService missing = refused.proxy(CompatService.class).address("127.0.0.1", port)
                    .serializer(serializer).version("9.9.9").timeoutMillis(20_000).build();
            assertThatThrownBy(() -> missing.str("x"))
                    .isExactlyInstanceOf(ServiceNotFoundException.class)
                    .hasMessageContaining("org.jupiter.rpc.exception.JupiterServiceNotFoundException")
                    .hasMessageContaining("version='9.9.9'");
        }
    }

    /**
     * A 1.3.1 provider closes the connection after every refusal it answers. A call the shared client sends next may
     * pick that connection before its close has reached us, and fail with "connection closed" instead of what the
     * test asserts; so the tests of refusals use a client of their own.
     */
    private static JupiterClient refusedCallsClient() {
        return JupiterClient.builder().appName("compat-ours-refused").build();
    }

    @ParameterizedTest
    @EnumSource(names = {"PROTOSTUFF", "HESSIAN", "JAVA"})
    void completableFutureMethods(SerializerType serializer) throws Exception {
        CompatService service = service(serializer);
        assertThat(service.later("from-the-future").get(20, TimeUnit.SECONDS)).isEqualTo("from-the-future");
        assertThatThrownBy(() -> service.laterFails("future-failed").get(20, TimeUnit.SECONDS))
                .hasCauseInstanceOf(RpcException.class)
                .cause().satisfies(e -> assertThat(((RpcException) e).status().value()).isEqualTo((byte) 0x50));
    }

    @Test
    void kryoFailsAtOnceWithAClearError() {
        // 1.3.1's Kryo 2.23 cannot read our Kryo 5 body: it answers 0x40 (in a Kryo 2 body we cannot read) and
        // closes the connection. The call must fail with that, not wait for its timeout.
        try (JupiterClient refused = refusedCallsClient()) {
            CompatService kryo = refused.proxy(CompatService.class).address("127.0.0.1", port)
                    .serializer(SerializerType.KRYO).timeoutMillis(20_000).build();
            long start = System.nanoTime();
            assertThatThrownBy(() -> kryo.str("x"))
                    .isInstanceOf(BadRequestException.class)
                    .hasMessageContaining("kryo");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(10_000);
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"PROTOSTUFF", "HESSIAN", "JAVA"})
    void scopedAttachmentsReachThe131Provider(SerializerType serializer) {
        // The 1.3.1 side reads them in a provider JFilter from MessageWrapper.attachments (field #5).
        CompatService service = service(serializer);
        try (RpcContext.Scope tenant = RpcContext.attach("tenant", "acme");
             RpcContext.Scope trace = RpcContext.attach("trace-id", "t-ours")) {
            // With the deadline our consumer sends by default (issue #35): the 1.3.1 provider reads it as one more
            // attachment, and serves the call.
            assertThat(service.attachments()).isEqualTo("jupiter.timeout=20000;tenant=acme;trace-id=t-ours");
        }
        assertThat(service.attachments()).isEqualTo("jupiter.timeout=20000");
    }

    @Test
    void interceptorAttachmentsReachThe131Provider() {
        Interceptor tenant = new Interceptor() {
            @Override
            public void beforeInvoke(Invocation invocation) {
                invocation.attach("tenant", "from-interceptor");
            }
        };
        CompatService service = client.proxy(CompatService.class).address("127.0.0.1", port)
                .timeoutMillis(20_000).interceptor(tenant).build();
        assertThat(service.attachments()).isEqualTo("jupiter.timeout=20000;tenant=from-interceptor");
    }

    /**
     * A call to a 1.3.1 provider that times out sends no cancel: the provider never answered the client's question
     * about cancels (it drops heartbeats), and would close the connection on the cancel's unknown message code. The
     * call after the timeout goes out on the same connection, which stays the only one.
     */
    @Test
    void aTimedOutCallSendsNothingNewToThe131Provider() {
        try (FaultProxy relay = FaultProxy.start(port);
             JupiterClient own = JupiterClient.builder().appName("compat-ours-cancel").build()) {
            CompatService service = own.proxy(CompatService.class).address("127.0.0.1", relay.port())
                    .connections(1).timeoutMillis(20_000).methodTimeoutMillis("slow", 300).build();
            // The first response makes the client ask (a heartbeat); a provider of ours would have answered by now.
            assertThat(service.str("first")).isEqualTo("first");
            assertThat(service.str("second")).isEqualTo("second");
            assertThatThrownBy(() -> service.slow(1_500)).isInstanceOf(TimeoutException.class);
            assertThat(service.str("after")).isEqualTo("after");
            assertThat(service.slow(10)).isEqualTo("slept");
            assertThat(relay.acceptedConnections()).as("connections opened through the relay").isEqualTo(1);
            assertThat(relay.openConnections()).as("connections open through the relay").isEqualTo(1);
        }
    }
}
