package io.jupiter.rpc.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.EchoService;
import io.jupiter.rpc.EchoServiceImpl;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.exception.BadRequestException;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.rpc.safety.Contraband;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.jupiter.testkit.ForgedRequests;
import io.jupiter.transport.Status;
import java.io.IOException;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue #16 part 2: the caller's identity is established once per connection ({@link CallerIdentifier}) and seen by
 * interceptors; the {@link AuthorizationRules} decide from the envelope alone, so an unauthorized request is refused
 * before its arguments are read (an argument the allow-list refuses goes unnoticed, with the serializers that put
 * the envelope first); a service pinned to some serializers refuses the others. Raw sockets and a real client on
 * 127.0.0.1, every serializer.
 */
class AuthorizationTest {

    private static final ServiceKey ECHO = ServiceKey.of(EchoService.class, ServiceKey.DEFAULT_VERSION);

    /** The name the next connection gets: read once, when it opens. */
    private static final AtomicReference<String> nextCaller = new AtomicReference<>("alice");
    private static final List<CallerIdentity> seenByInterceptor = new CopyOnWriteArrayList<>();
    private static final List<String> methodsRun = new CopyOnWriteArrayList<>();

    private static JupiterServer server;
    private static JupiterServer pinned;
    private static int port;

    @BeforeAll
    static void start() {
        AuthorizationRules rules = AuthorizationRules.builder()
                .allow(ECHO, "hello", "alice", "bob")
                .allow(ECHO, AuthorizationRules.ANY_METHOD, "root")
                .build();
        server = JupiterServer.builder().host("127.0.0.1").port(0).serializers(SerializerType.values())
                .callerIdentifier(connection -> CallerIdentity.of(nextCaller.get()))
                .authorizer(rules)
                .interceptor(new Interceptor() {
                    @Override
                    public void beforeInvoke(Invocation invocation) {
                        seenByInterceptor.add(invocation.caller());
                        methodsRun.add(invocation.methodName());
                    }
                })
                .build();
        server.register(new EchoServiceImpl());
        port = server.start().getPort();

        pinned = JupiterServer.builder().host("127.0.0.1").port(0).serializers(SerializerType.values()).build();
        pinned.register(new EchoServiceImpl());
        pinned.pinSerializers(ECHO, SerializerType.PROTOSTUFF, SerializerType.HESSIAN);
        pinned.start();
    }

    @AfterAll
    static void stop() {
        server.close();
        pinned.close();
    }

    /** A connection whose caller is {@code name}: it made one call, so its identity was established. */
    private static Socket connectAs(String name, SerializerType type) throws IOException {
        nextCaller.set(name);
        Socket socket = RawCalls.connect(port);
        RawCalls.call(socket, type, RawCalls.request(type, "echo", "ping"));
        return socket;
    }

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void anUnauthorizedCallerIsRefusedBeforeItsArgumentsAreRead(SerializerType type) throws IOException {
        try (Socket mallory = connectAs("mallory", type)) {
            RawCalls.Answer answer = RawCalls.call(mallory, type,
                    RawCalls.request(type, "echo", "hello", new Contraband()));

            assertThat(answer.status()).isEqualTo(Status.BAD_REQUEST.value());
            if (Serializers.get(type).readsEnvelopeFirst()) {
                assertThat(answer.message()).isEqualTo("caller mallory is not authorized to call "
                        + ECHO + ".hello");
            } else {
                // Java serialization and Kryo put the arguments before the envelope: refused, but after reading.
                assertThat(answer.message()).contains("not trusted");
            }
            RawCalls.Answer good = RawCalls.call(mallory, type, RawCalls.request(type, "echo", "hello", "m"));
            assertThat(good.status()).as("a valid request, still unauthorized").isEqualTo(Status.BAD_REQUEST.value());
            assertThat(good.message()).isEqualTo("caller mallory is not authorized to call " + ECHO + ".hello");
        }
    }

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void rulesAllowPerMethodAndForEveryMethod(SerializerType type) throws IOException {
        try (Socket alice = connectAs("alice", type); Socket root = connectAs("root", type)) {
            assertThat(RawCalls.call(alice, type, RawCalls.request(type, "echo", "hello", "a")).ok()).isTrue();
            RawCalls.Answer add = RawCalls.call(alice, type, RawCalls.request(type, "echo", "add", 1, 2));
            assertThat(add.status()).isEqualTo(Status.BAD_REQUEST.value());
            assertThat(add.message()).isEqualTo("caller alice is not authorized to call " + ECHO + ".add");

            assertThat(RawCalls.call(root, type, RawCalls.request(type, "echo", "add", 1, 2)).ok()).isTrue();
            assertThat(RawCalls.call(root, type, RawCalls.request(type, "echo", "hello", "r")).ok()).isTrue();
        }
    }

    /**
     * Issue #25, item 1: alice may call {@code hello} only. A body that names {@code hello}, then {@code describe}
     * (protostuff: field 3 again after the arguments; Hessian: {@code methodName} twice in the class definition)
     * was authorized on the first name and ran the second ({@code OK}, "string:attacker-arg"). Now refused,
     * nothing runs, and the connection still serves what alice may call.
     */
    @ParameterizedTest
    @EnumSource(value = SerializerType.class, names = {"PROTOSTUFF", "HESSIAN"})
    void aSecondMethodNameAfterTheAuthorizedOneIsRefusedAndNothingRuns(SerializerType type) throws IOException {
        try (Socket alice = connectAs("alice", type)) {
            methodsRun.clear();
            RawCalls.Answer honest = RawCalls.call(alice, type,
                    RawCalls.request(type, "echo", "describe", "attacker-arg"));
            assertThat(honest.status()).isEqualTo(Status.BAD_REQUEST.value());

            RawCalls.Answer answer = RawCalls.call(alice, type,
                    RawCalls.requestNamingASecondMethod(type, "echo", "hello", "describe", "attacker-arg"));

            assertThat(answer.status()).as(answer.toString()).isEqualTo(Status.BAD_REQUEST.value());
            assertThat(answer.message()).contains("twice");
            assertThat(methodsRun).as("nothing ran").isEmpty();
            assertThat(RawCalls.call(alice, type, RawCalls.request(type, "echo", "hello", "a")).ok()).isTrue();
            assertThat(methodsRun).containsExactly("hello");
        }
    }

    /**
     * Issue #25, item 2: a Hessian request for a method alice may not call, whose class definition lists an unknown
     * field first, holding a list nested 200 deep. Its value was read before the check (answered "values nested
     * deeper than 100"); now the definition is refused before any value of the body is read.
     */
    @Test
    void hessianRefusesAnUnknownEnvelopeFieldBeforeReadingItsValue() throws IOException {
        SerializerType type = SerializerType.HESSIAN;
        try (Socket alice = connectAs("alice", type)) {
            methodsRun.clear();
            byte[] body = ForgedRequests.hessian(RawCalls.request(type, "echo", "add", 1, 2), List.of("padding"),
                    ForgedRequests.hessianNestedList(200), List.of(), new byte[0]);

            RawCalls.Answer answer = RawCalls.call(alice, type, body);

            assertThat(answer.status()).as(answer.toString()).isEqualTo(Status.BAD_REQUEST.value());
            assertThat(answer.message()).contains("has a field 'padding'").doesNotContain("nested");
            assertThat(methodsRun).isEmpty();
            assertThat(RawCalls.call(alice, type, RawCalls.request(type, "echo", "hello", "a")).ok()).isTrue();
        }
    }

    @Test
    void interceptorsSeeTheCallerAndOurClientHearsTheRefusal() {
        seenByInterceptor.clear();
        nextCaller.set("bob");
        try (JupiterClient bob = JupiterClient.builder().build()) {
            EchoService echo = bob.proxy(EchoService.class).address("127.0.0.1", port).connections(1)
                    .timeoutMillis(10_000).build();
            assertThat(echo.hello("b")).isEqualTo("hello, b");
            assertThat(seenByInterceptor).containsExactly(CallerIdentity.of("bob"));

            assertThatThrownBy(() -> echo.add(1, 2)).isInstanceOfSatisfying(BadRequestException.class,
                    e -> assertThat(e.status()).isEqualTo(Status.BAD_REQUEST))
                    .hasMessageContaining("caller bob is not authorized to call " + ECHO + ".add");
            assertThat(seenByInterceptor).as("refused before the interceptors").hasSize(1);
            assertThat(echo.hello("again")).isEqualTo("hello, again");
        }
    }

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void aPinnedServiceRefusesOtherSerializers(SerializerType type) throws IOException {
        boolean accepted = type == SerializerType.PROTOSTUFF || type == SerializerType.HESSIAN;
        try (Socket socket = RawCalls.connect(pinned.localAddress().getPort())) {
            RawCalls.Answer answer = RawCalls.call(socket, type, RawCalls.request(type, "echo", "hello", "p"));

            if (accepted) {
                assertThat(answer.ok()).isTrue();
            } else {
                assertThat(answer.status()).isEqualTo(Status.BAD_REQUEST.value());
                assertThat(answer.message()).isEqualTo("service " + ECHO + " accepts only [PROTOSTUFF, HESSIAN]"
                        + " serializers, not " + type.id());
                // The connection stays open for requests the service accepts.
                assertThat(RawCalls.call(socket, SerializerType.PROTOSTUFF,
                        RawCalls.request(SerializerType.PROTOSTUFF, "echo", "hello", "p")).ok()).isTrue();
            }
        }
    }
}
