package io.jupiter.rpc.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.EchoService;
import io.jupiter.rpc.EchoServiceImpl;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.safety.Contraband;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.jupiter.transport.Status;
import java.io.IOException;
import java.net.Socket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue #15 part 3: a request's envelope is read first, its service and method looked up, and its arguments read
 * against the method's parameter types. With every serializer, on raw sockets to a live provider: an argument of
 * another type is answered {@code BAD_REQUEST} naming it, and the same connection serves a good call next; an
 * unknown method or service is answered without its arguments being read (an argument the allow-list would refuse
 * goes unnoticed) where the format puts the envelope first, which protostuff and Hessian do; Java serialization and
 * Kryo put the arguments first, and there the refused argument is what the answer reports.
 */
class EnvelopeFirstTest {

    private static JupiterServer server;
    private static int port;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).serializers(SerializerType.values()).build();
        server.register(new EchoServiceImpl());
        port = server.start().getPort();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void anArgumentOfAnotherTypeIsBadRequestAndTheConnectionServesOn(SerializerType type) throws IOException {
        try (Socket socket = RawCalls.connect(port)) {
            RawCalls.Answer wrong = RawCalls.call(socket, type, RawCalls.request(type, "echo", "hello", 42L));

            assertThat(wrong.status()).isEqualTo(Status.BAD_REQUEST.value());
            assertThat(wrong.message()).contains("argument 1 of 1 for hello(String) is a java.lang.Long",
                    "(expected: a value assignable to the declared parameter type java.lang.String)");

            RawCalls.Answer intForLong = RawCalls.call(socket, type, RawCalls.request(type, "echo", "twice", 21));
            assertThat(intForLong.status()).as("an Integer for a long: cast, never converted")
                    .isEqualTo(Status.BAD_REQUEST.value());
            RawCalls.Answer count = RawCalls.call(socket, type, RawCalls.request(type, "echo", "add", 1, 2, 3));
            assertThat(count.status()).isEqualTo(Status.BAD_REQUEST.value());
            assertThat(count.message()).contains("3 argument(s) for add(Integer, Integer)");

            assertThat(RawCalls.call(socket, type, RawCalls.request(type, "echo", "add", 1, 2)).ok())
                    .as("a good call on the same connection").isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void aPojoOfAnotherTypeIsRefusedByItsClassName(SerializerType type) throws IOException {
        // color(Color) given a Person: refused by the class name where the format names it before the value
        // (protostuff, Hessian), once read otherwise (the serializers' own tests show that nothing in it is read).
        try (Socket socket = RawCalls.connect(port)) {
            RawCalls.Answer answer = RawCalls.call(socket, type,
                    RawCalls.request(type, "echo", "color", new EchoService.Person("p", 1, null)));

            assertThat(answer.status()).isEqualTo(Status.BAD_REQUEST.value());
            assertThat(answer.message()).contains("argument 1 of 1 for color(Color) is a "
                    + EchoService.Person.class.getName());
            assertThat(RawCalls.call(socket, type, RawCalls.request(type, "echo", "hello", "x")).ok()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void anUnknownMethodOrServiceIsAnsweredWithoutReadingTheArguments(SerializerType type) throws IOException {
        boolean envelopeFirst = Serializers.get(type).readsEnvelopeFirst();
        try (Socket socket = RawCalls.connect(port)) {
            RawCalls.Answer method = RawCalls.call(socket, type,
                    RawCalls.request(type, "echo", "noSuchMethod", new Contraband()));
            RawCalls.Answer service = RawCalls.call(socket, type,
                    RawCalls.request(type, "noSuchService", "hello", new Contraband()));

            if (envelopeFirst) {
                assertThat(method.status()).as("as 1.3.1 answers an unknown method")
                        .isEqualTo(Status.SERVICE_UNEXPECTED_ERROR.value());
                assertThat(method.message()).contains("noSuchMethod").doesNotContain("not trusted");
                assertThat(service.status()).isEqualTo(Status.SERVICE_NOT_FOUND.value());
                assertThat(service.message()).contains("test-noSuchService-1.0.0");
            } else {
                assertThat(method.status()).isEqualTo(Status.BAD_REQUEST.value());
                assertThat(method.message()).contains(Contraband.class.getName(), "not trusted");
                assertThat(service.status()).isEqualTo(Status.BAD_REQUEST.value());
            }
            assertThat(RawCalls.call(socket, type, RawCalls.request(type, "echo", "hello", "x")).ok()).isTrue();
        }
    }
}
