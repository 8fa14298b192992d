package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.StringValue;
import io.grpc.CallOptions;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.reflection.v1alpha.ServerReflectionGrpc;
import io.grpc.reflection.v1alpha.ServerReflectionRequest;
import io.grpc.reflection.v1alpha.ServerReflectionResponse;
import io.grpc.reflection.v1alpha.ServiceResponse;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.security.TokenAuthenticator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A server with a {@link TokenAuthenticator}: HTTP and gRPC callers present their token as
 * {@code authorization: Bearer <token>}; the token names the caller for the authorizer (which allows {@code shop}
 * only), a wrong or missing one is refused {@code UNAUTHENTICATED} / {@code 401}.
 */
class CallerTokenProtocolsTest {

    private static final String SHOP = "token-of-the-shop-0123456789";
    private static final String CLERK = "token-of-the-clerk-0123456789";

    private static JupiterServer server;
    private static int port;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).protocols(HttpProtocols.httpAndGrpc())
                .tokenAuthenticator(TokenAuthenticator.of(Map.of(SHOP, "shop", CLERK, "clerk")))
                .authorizer((caller, service, method) -> caller.name().equals("shop"))
                .build();
        server.register(new GreeterImpl(), Greeter.class);
        server.register(new CalculatorImpl(), Calculator.class);
        port = server.start().getPort();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** A unary call on a new connection, with {@code authorization} set to {@code value} unless it is null. */
    private static StringValue sayHello(String value) throws InterruptedException {
        return BearerCalls.grpc(port, GrpcMethods.SAY_HELLO, value, StringValue.of("token"));
    }

    private static void assertGrpcRefused(String authorization, Status.Code code, String message) {
        assertThatThrownBy(() -> sayHello(authorization)).isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
            assertThat(e.getStatus().getCode()).isEqualTo(code);
            assertThat(e.getStatus().getDescription()).contains(message);
        });
    }

    @Test
    void grpcCallersAreNamedByTheirBearerToken() throws Exception {
        assertThat(sayHello("Bearer " + SHOP).getValue()).isEqualTo("Hello, token");
        assertGrpcRefused("Bearer " + CLERK, Status.Code.PERMISSION_DENIED, "caller clerk is not authorized");
        assertGrpcRefused("Bearer not-a-token-we-know", Status.Code.UNAUTHENTICATED, "caller token refused");
        assertGrpcRefused(null, Status.Code.UNAUTHENTICATED, "caller token missing");
        assertGrpcRefused("Basic " + SHOP, Status.Code.UNAUTHENTICATED, "caller token missing");
    }

    @Test
    void httpCallersAreNamedByTheirBearerToken() throws Exception {
        assertThat(add("Bearer " + SHOP)).isEqualTo(new Curl.Reply(200, "5", 0));
        Curl.Reply clerk = add("Bearer " + CLERK);
        assertThat(clerk.status()).isEqualTo(403);
        Curl.Reply wrong = add("Bearer not-a-token-we-know");
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.body()).contains("\"status\":\"BAD_REQUEST\"").contains("caller token refused");
        Curl.Reply huge = add("Bearer " + "x".repeat(5_000)); // beyond the token frame's cap of 4,096 bytes
        assertThat(huge.status()).isEqualTo(401);
        assertThat(huge.body()).contains("caller token refused: longer than 4096 bytes");
        Curl.Reply none = add(null);
        assertThat(none.status()).isEqualTo(401);
        assertThat(none.body()).contains("caller token missing");
    }

    /**
     * One keep-alive connection: the first request's token names it; a later request with another token (or none)
     * is refused here, and one with the same token is served.
     */
    @Test
    void everyRequestOfAConnectionMustCarryItsFirstToken() throws Exception {
        String url = "http://127.0.0.1:" + port + "/" + Calculator.class.getName() + "/add";
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "20"));
        for (String token : new String[] {SHOP, CLERK, SHOP}) {
            command.addAll(List.of("-H", "Content-Type: application/json", "-H", "Authorization: Bearer " + token,
                    "--data-binary", "[2, 3]", "-w", "|%{http_code}|%{num_connects}\n", url, "--next"));
        }
        command.remove(command.size() - 1);
        Curl.Reply replies = Curl.run(command);
        List<String> lines = replies.body().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo("5|200|1");
        assertThat(lines.get(1)).endsWith("|401|0").contains("caller token refused: not the one this connection "
                + "presented first");
        assertThat(lines.get(2)).isEqualTo("5|200|0"); // the same connection, still open
    }

    /**
     * Health stays open (load balancers ask without credentials); reflection, which lists the services, answers only
     * a connection whose token the server accepted (any caller it knows: the authorizer decides calls, not this).
     */
    @Test
    void reflectionNeedsATokenTheServerAcceptsAndHealthDoesNot() throws Exception {
        ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
        try {
            assertThat(HealthGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                    .check(HealthCheckRequest.getDefaultInstance()).getStatus())
                    .isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
        } finally {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
        assertThat(listServices("Bearer " + SHOP)).contains(Greeter.class.getName());
        assertThat(listServices("Bearer " + CLERK)).contains(Greeter.class.getName());
        assertReflectionRefused(null, "caller token missing");
        assertReflectionRefused("Basic " + SHOP, "caller token missing");
        assertReflectionRefused("Bearer not-a-token-we-know", "caller token refused");
    }

    private static void assertReflectionRefused(String authorization, String message) {
        assertThatThrownBy(() -> listServices(authorization)).isInstanceOfSatisfying(ExecutionException.class,
                e -> assertThat(e.getCause()).isInstanceOfSatisfying(StatusRuntimeException.class, refused -> {
                    assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
                    assertThat(refused.getStatus().getDescription()).contains(message);
                }));
    }

    /** Reflection's {@code list_services} on a new connection, with {@code authorization} unless it is null. */
    private static List<String> listServices(String authorization) throws Exception {
        ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
        try {
            Metadata headers = new Metadata();
            if (authorization != null) {
                headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), authorization);
            }
            CompletableFuture<ServerReflectionResponse> answer = new CompletableFuture<>();
            StreamObserver<ServerReflectionRequest> requests = ClientCalls.asyncBidiStreamingCall(
                    ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers))
                            .newCall(ServerReflectionGrpc.getServerReflectionInfoMethod(),
                                    CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS)),
                    new StreamObserver<>() {
                        @Override
                        public void onNext(ServerReflectionResponse value) {
                            answer.complete(value);
                        }

                        @Override
                        public void onError(Throwable t) {
                            answer.completeExceptionally(t);
                        }

                        @Override
                        public void onCompleted() {
                            answer.completeExceptionally(new IllegalStateException("ended without an answer"));
                        }
                    });
            requests.onNext(ServerReflectionRequest.newBuilder().setListServices("*").build());
            List<String> names = answer.get(30, TimeUnit.SECONDS).getListServicesResponse().getServiceList().stream()
                    .map(ServiceResponse::getName).toList();
            requests.onCompleted();
            return names;
        } finally {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    private static Curl.Reply add(String authorization) throws Exception {
        return BearerCalls.http(port, "add", "[2, 3]", authorization);
    }
}
