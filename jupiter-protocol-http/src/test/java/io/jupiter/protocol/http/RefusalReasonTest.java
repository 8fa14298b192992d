package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.StringValue;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.exception.BadRequestException;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.security.TokenAuthenticator;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code 401}/{@code UNAUTHENTICATED} and {@code 403}/{@code PERMISSION_DENIED} come from the type of the provider's
 * refusal ({@link io.jupiter.rpc.protocol.RefusalReason}), not from its text: a caller named {@code "token refused"}
 * whom the authorizer refuses reads "caller token refused is not authorized ..." and still gets {@code 403}; an
 * interceptor's own {@code BAD_REQUEST} whose text starts "caller token missing" is {@code 400}. Matching the text,
 * as this module did before, answered both {@code 401}.
 */
class RefusalReasonTest {

    private static final String TOKEN = "token-of-a-caller-named-token-refused";
    /** What an interceptor refuses {@code split} and {@code plain} with: the token gate's words, not its type. */
    private static final String FORGED = "caller token missing: said by an interceptor, not by the token gate";

    private static JupiterServer server;
    private static int port;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).protocols(HttpProtocols.httpAndGrpc())
                .tokenAuthenticator(TokenAuthenticator.of(Map.of(TOKEN, "token refused")))
                .authorizer((caller, service, method) -> !method.equals("add") && !method.equals("sayHello"))
                .interceptor(new Interceptor() {
                    @Override
                    public void beforeInvoke(Invocation invocation) {
                        if (invocation.methodName().equals("split") || invocation.methodName().equals("fail")) {
                            throw new BadRequestException(StatusTable.BAD_REQUEST.status(), FORGED);
                        }
                    }
                })
                .build();
        server.register(new GreeterImpl(), Greeter.class);
        server.register(new CalculatorImpl(), Calculator.class);
        port = server.start().getPort();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void anUnauthorizedCallerWhoseRefusalMentionsATokenIsForbiddenNotUnauthenticated() throws Exception {
        Curl.Reply http = post("add", "[2, 3]", TOKEN);
        assertThat(http.status()).as(http.body()).isEqualTo(403);
        assertThat(http.body()).contains("\"status\":\"BAD_REQUEST\"")
                .contains("caller token refused is not authorized to call");

        assertThatThrownBy(() -> grpc(GrpcMethods.SAY_HELLO, TOKEN))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
                    assertThat(e.getStatus().getDescription()).contains("caller token refused is not authorized");
                });
    }

    @Test
    void anInterceptorsRefusalInTheTokenGatesWordsIsABadRequest() throws Exception {
        Curl.Reply http = post("split", "[\"a b\"]", TOKEN);
        assertThat(http.status()).as(http.body()).isEqualTo(400);
        assertThat(http.body()).contains(FORGED);

        assertThatThrownBy(() -> grpc(GrpcMethods.unary("fail", StringValue.parser(), StringValue.parser()), TOKEN))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                    assertThat(e.getStatus().getDescription()).contains(FORGED);
                });
    }

    @Test
    void theTokenGatesOwnRefusalsStayUnauthenticated() throws Exception {
        Curl.Reply none = post("add", "[2, 3]", null);
        assertThat(none.status()).as(none.body()).isEqualTo(401);
        assertThat(none.body()).contains("caller token missing");
        assertThatThrownBy(() -> grpc(GrpcMethods.SAY_HELLO, "not-a-token-we-know"))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
                    assertThat(e.getStatus().getDescription()).contains("caller token refused");
                });
    }

    /** A unary call on a new connection, presenting {@code token} as {@code authorization: Bearer}. */
    private static StringValue grpc(MethodDescriptor<StringValue, StringValue> method, String token)
            throws InterruptedException {
        return BearerCalls.grpc(port, method, "Bearer " + token, StringValue.of("x"));
    }

    private static Curl.Reply post(String method, String body, String token) throws Exception {
        return BearerCalls.http(port, method, body, token == null ? null : "Bearer " + token);
    }
}
