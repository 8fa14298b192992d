package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.transport.TransportConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** HTTP/JSON beside the 1.3.1 protocol on one port, called with the machine's own curl. */
class HttpJsonTest {

    private static final String SERVICE = Calculator.class.getName();
    private static final CountingInterceptor intercepted = new CountingInterceptor();

    private static JupiterServer server;
    private static String base;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0)
                .protocols(HttpProtocols.httpAndGrpc())
                .interceptor(intercepted)
                .build();
        server.register(new CalculatorImpl(), Calculator.class);
        base = "http://127.0.0.1:" + server.start().getPort() + "/" + SERVICE + "/";
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void callsWithAJsonArrayOfTheArguments() throws Exception {
        int before = intercepted.seen();
        assertThat(Curl.post(base + "add", "[2, 3]")).isEqualTo(new Curl.Reply(200, "5", 0));
        assertThat(Curl.post(base + "greet", "[{\"name\": \"Ada\", \"age\": 36}]").body())
                .isEqualTo("\"Hello, Ada (36)\"");
        assertThat(Curl.post(base + "split", "[\"a,b,c\"]").body()).isEqualTo("[\"a\",\"b\",\"c\"]");
        assertThat(Curl.post(base + "now", null).body()).isEqualTo("\"now\"");
        assertThat(Curl.post(base + "now", "[]").body()).isEqualTo("\"now\"");
        // Through the provider chain: the server's interceptors saw every call.
        assertThat(intercepted.seen() - before).isEqualTo(5);
    }

    @Test
    void answersErrorsAsJsonWithTheStatus() throws Exception {
        Curl.Reply thrown = Curl.post(base + "boom", "[\"on purpose\"]");
        assertThat(thrown.status()).isEqualTo(500);
        assertThat(thrown.body()).contains("\"status\":\"SERVICE_UNEXPECTED_ERROR\"")
                .contains("IllegalStateException: on purpose");

        Curl.Reply noService = Curl.post("http://" + hostPort() + "/no.such.Service/add", "[1, 2]");
        assertThat(noService.status()).isEqualTo(404);
        assertThat(noService.body()).contains("\"status\":\"SERVICE_NOT_FOUND\"");

        Curl.Reply noMethod = Curl.post(base + "subtract", "[1, 2]");
        assertThat(noMethod.status()).isEqualTo(404);
        assertThat(noMethod.body()).contains("no method subtract");

        Curl.Reply badJson = Curl.post(base + "add", "[1, ");
        assertThat(badJson.status()).isEqualTo(400);
        assertThat(badJson.body()).contains("\"status\":\"BAD_REQUEST\"").contains("not valid JSON");

        Curl.Reply wrongType = Curl.post(base + "add", "[\"x\", 2]");
        assertThat(wrongType.status()).isEqualTo(400);
        assertThat(wrongType.body()).contains("argument 0 is not a int");

        Curl.Reply unknownField = Curl.post(base + "greet", "[{\"name\": \"Ada\", \"evil\": 1}]");
        assertThat(unknownField.status()).isEqualTo(400);

        Curl.Reply object = Curl.post(base + "add", "{\"a\": 1}");
        assertThat(object.status()).isEqualTo(400);
        assertThat(object.body()).contains("expected: an array");

        Curl.Reply get = Curl.run(List.of("curl", "-sS", "-w", "\n%{http_code}", base + "add"));
        assertThat(get.status()).isEqualTo(400);
    }

    @Test
    void refusesJsonBeyondTheBinaryProtocolsLimits() throws Exception {
        String deep = "[" + "[".repeat(5000) + "]".repeat(5000) + "]";
        Curl.Reply tooDeep = Curl.post(base + "split", deep);
        assertThat(tooDeep.status()).isEqualTo(400);
        assertThat(tooDeep.body()).contains("nesting depth");

        // One byte over the body cap: refused before it is parsed.
        int cap = TransportConfig.DEFAULT_MAX_BODY_SIZE;
        Path big = Files.createTempFile("jupiter-big", ".json");
        try {
            Files.writeString(big, "[\"" + "x".repeat(cap) + "\"]");
            Curl.Reply tooBig = Curl.post(base + "split", "@" + big);
            assertThat(tooBig.status()).isEqualTo(413);
        } finally {
            Files.deleteIfExists(big);
        }
        // The server still answers on new connections.
        assertThat(Curl.post(base + "add", "[1, 1]").body()).isEqualTo("2");
    }

    @Test
    void theServersAuthorizerDecidesAsForAnyCaller() throws Exception {
        try (JupiterServer guarded = JupiterServer.builder().host("127.0.0.1").port(0)
                .protocols(HttpProtocols.httpAndGrpc())
                .authorizer((caller, service, method) -> !method.equals("boom"))
                .build()) {
            guarded.register(new CalculatorImpl(), Calculator.class);
            String url = "http://127.0.0.1:" + guarded.start().getPort() + "/" + SERVICE + "/";
            Curl.Reply refused = Curl.post(url + "boom", "[\"x\"]");
            assertThat(refused.status()).isEqualTo(403);
            assertThat(refused.body()).contains("\"status\":\"BAD_REQUEST\"").contains("not authorized");
            assertThat(Curl.post(url + "add", "[1, 2]").body()).isEqualTo("3");
        }
    }

    @Test
    void aJupiterClientStillCallsTheSamePort() {
        try (JupiterClient client = JupiterClient.builder().build()) {
            Calculator calculator = client.proxy(Calculator.class)
                    .address("127.0.0.1", server.localAddress().getPort()).timeoutMillis(10_000).build();
            assertThat(calculator.add(40, 2)).isEqualTo(42);
            assertThat(calculator.greet(new Calculator.Person("Grace", 45))).isEqualTo("Hello, Grace (45)");
        }
    }

    private static String hostPort() {
        return "127.0.0.1:" + server.localAddress().getPort();
    }
}
