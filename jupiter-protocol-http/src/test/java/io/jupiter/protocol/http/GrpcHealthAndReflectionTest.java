package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import com.google.protobuf.StringValue;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.MethodDescriptor;
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
import io.grpc.stub.StreamObserver;
import io.jupiter.rpc.JupiterServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * gRPC's health and server-reflection services on a Jupiter server, called with grpc-java's own generated stubs
 * (grpc-services): what a load balancer's health probe and grpcurl's {@code list} and {@code describe} ask.
 */
class GrpcHealthAndReflectionTest {

    private static final String GREETER = Greeter.class.getName();
    private static final String TICKER = Ticker.class.getName();
    private static final String TALLY = Tally.class.getName();

    private static JupiterServer server;
    private static ManagedChannel channel;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).protocols(HttpProtocols.httpAndGrpc()).build();
        server.register(new GreeterImpl(), Greeter.class);
        server.register(new CalculatorImpl(), Calculator.class); // no protobuf method: not described
        server.register(new TickerImpl(), Ticker.class); // server streams
        server.register(new TallyImpl(), Tally.class); // client and bidirectional streams
        channel = ManagedChannelBuilder.forAddress("127.0.0.1", server.start().getPort()).usePlaintext().build();
    }

    @AfterAll
    static void stop() throws InterruptedException {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        server.close();
    }

    @Test
    void healthCheckAnswersServingForTheServerAndEachRegisteredService() {
        HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(channel)
                .withDeadlineAfter(20, TimeUnit.SECONDS);
        assertThat(health.check(HealthCheckRequest.getDefaultInstance()).getStatus())
                .isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
        assertThat(health.check(HealthCheckRequest.newBuilder().setService(GREETER).build()).getStatus())
                .isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
        assertThat(health.check(HealthCheckRequest.newBuilder().setService(Calculator.class.getName()).build())
                .getStatus()).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
        assertThatThrownBy(() -> health.check(HealthCheckRequest.newBuilder().setService("no.Such").build()))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
                    assertThat(e.getStatus().getDescription()).contains("no.Such");
                });
        assertThatThrownBy(() -> health.watch(HealthCheckRequest.getDefaultInstance()).hasNext())
                .isInstanceOfSatisfying(StatusRuntimeException.class, e ->
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED));
        // The provider's own calls still work on the same connection.
        assertThat(ClientCalls.blockingUnaryCall(channel, GrpcMethods.SAY_HELLO, CallOptions.DEFAULT,
                StringValue.of("Ada")).getValue()).isEqualTo("Hello, Ada");
    }

    @Test
    void reflectionListsTheServicesCallableOverGrpc() throws Exception {
        try (Reflection reflection = new Reflection()) {
            ServerReflectionResponse list = reflection.ask(ServerReflectionRequest.newBuilder()
                    .setHost("localhost").setListServices("*").build());
            assertThat(list.getValidHost()).isEqualTo("localhost");
            assertThat(list.getOriginalRequest().getListServices()).isEqualTo("*");
            assertThat(list.getListServicesResponse().getServiceList()).extracting(ServiceResponse::getName)
                    .containsExactly(GREETER, TALLY, TICKER);
        }
    }

    @Test
    void reflectionDescribesServerStreamingMethods() throws Exception {
        try (Reflection reflection = new Reflection()) {
            FileDescriptor file = build(reflection.ask(ServerReflectionRequest.newBuilder()
                    .setFileContainingSymbol(TICKER).build()).getFileDescriptorResponse()
                    .getFileDescriptorProtoList()).get(ServiceDescriptors.fileName(TICKER));
            Descriptors.MethodDescriptor count = file.findServiceByName("Ticker").findMethodByName("count");
            assertThat(count.isServerStreaming()).isTrue();
            assertThat(count.isClientStreaming()).isFalse();
            assertThat(count.getOutputType().getFullName()).isEqualTo("google.protobuf.Int64Value");
        }
    }

    @Test
    void reflectionDescribesClientAndBidirectionalStreamingMethods() throws Exception {
        try (Reflection reflection = new Reflection()) {
            FileDescriptor file = build(reflection.ask(ServerReflectionRequest.newBuilder()
                    .setFileContainingSymbol(TALLY).build()).getFileDescriptorResponse()
                    .getFileDescriptorProtoList()).get(ServiceDescriptors.fileName(TALLY));
            Descriptors.MethodDescriptor sum = file.findServiceByName("Tally").findMethodByName("sum");
            assertThat(sum.isClientStreaming()).isTrue();
            assertThat(sum.isServerStreaming()).isFalse();
            assertThat(sum.getInputType().getFullName()).isEqualTo("google.protobuf.Int64Value");
            Descriptors.MethodDescriptor echo = file.findServiceByName("Tally").findMethodByName("echo");
            assertThat(echo.isClientStreaming()).isTrue();
            assertThat(echo.isServerStreaming()).isTrue();
            assertThat(echo.getInputType().getFullName()).isEqualTo("google.protobuf.StringValue");
        }
    }

    /** What grpcurl's describe does: the service's file, its imports, built into descriptors. */
    @Test
    void reflectionDescribesAServiceItsMethodsAndTheirMessages() throws Exception {
        try (Reflection reflection = new Reflection()) {
            ServerReflectionResponse response = reflection.ask(ServerReflectionRequest.newBuilder()
                    .setFileContainingSymbol(GREETER).build());
            List<ByteString> files = response.getFileDescriptorResponse().getFileDescriptorProtoList();
            FileDescriptor file = build(files).get(ServiceDescriptors.fileName(GREETER));
            ServiceDescriptor service = file.findServiceByName("Greeter");
            assertThat(service.getFullName()).isEqualTo(GREETER);
            assertThat(service.getMethods()).extracting(Descriptors.MethodDescriptor::getName)
                    .containsExactlyInAnyOrder("annotate", "fail", "reverse", "sayHello", "sleep");
            Descriptors.MethodDescriptor sayHello = service.findMethodByName("sayHello");
            assertThat(sayHello.getInputType().getFullName()).isEqualTo("google.protobuf.StringValue");
            assertThat(sayHello.getOutputType().getFullName()).isEqualTo("google.protobuf.StringValue");
            assertThat(sayHello.isServerStreaming()).isFalse();

            // A method's symbol, a message's symbol and a file by name, as grpcurl asks for them.
            assertThat(reflection.ask(ServerReflectionRequest.newBuilder()
                    .setFileContainingSymbol(GREETER + ".sayHello").build()).getFileDescriptorResponse()
                    .getFileDescriptorProtoList()).isEqualTo(files);
            FileDescriptorProto wrappers = FileDescriptorProto.parseFrom(reflection.ask(ServerReflectionRequest
                    .newBuilder().setFileContainingSymbol("google.protobuf.StringValue").build())
                    .getFileDescriptorResponse().getFileDescriptorProto(0));
            assertThat(wrappers.getName()).isEqualTo("google/protobuf/wrappers.proto");
            assertThat(reflection.ask(ServerReflectionRequest.newBuilder()
                    .setFileByFilename("google/protobuf/struct.proto").build()).getFileDescriptorResponse()
                    .getFileDescriptorProtoCount()).isEqualTo(1);

            // Unknown things are answered with an error on the same stream, which goes on.
            ServerReflectionResponse missing = reflection.ask(ServerReflectionRequest.newBuilder()
                    .setFileContainingSymbol("no.Such").build());
            assertThat(missing.getErrorResponse().getErrorCode()).isEqualTo(Status.Code.NOT_FOUND.value());
            assertThat(reflection.ask(ServerReflectionRequest.newBuilder().setAllExtensionNumbersOfType(
                    "google.protobuf.StringValue").build()).getAllExtensionNumbersResponse().getBaseTypeName())
                    .isEqualTo("google.protobuf.StringValue");
        }
    }

    /** v1 has the same messages under another name: asked with v1alpha's messages on v1's path. */
    @Test
    void reflectionV1AnswersAsV1alpha() throws Exception {
        MethodDescriptor<ServerReflectionRequest, ServerReflectionResponse> v1 =
                ServerReflectionGrpc.getServerReflectionInfoMethod().toBuilder()
                        .setFullMethodName("grpc.reflection.v1.ServerReflection/ServerReflectionInfo").build();
        try (Reflection reflection = new Reflection(v1)) {
            assertThat(reflection.ask(ServerReflectionRequest.newBuilder().setListServices("").build())
                    .getListServicesResponse().getServiceList()).extracting(ServiceResponse::getName)
                    .containsExactly(GREETER, TALLY, TICKER);
        }
    }

    /** Builds the files in import order, keyed by name. */
    private static Map<String, FileDescriptor> build(List<ByteString> files) throws Exception {
        Map<String, FileDescriptorProto> protos = new HashMap<>();
        for (ByteString bytes : files) {
            FileDescriptorProto proto = FileDescriptorProto.parseFrom(bytes);
            protos.put(proto.getName(), proto);
        }
        Map<String, FileDescriptor> built = new HashMap<>();
        for (String name : protos.keySet()) {
            build(name, protos, built);
        }
        return built;
    }

    private static FileDescriptor build(String name, Map<String, FileDescriptorProto> protos,
                                        Map<String, FileDescriptor> built) throws Exception {
        FileDescriptor done = built.get(name);
        if (done != null) {
            return done;
        }
        FileDescriptorProto proto = protos.get(name);
        assertThat(proto).as("file %s was sent", name).isNotNull();
        List<FileDescriptor> dependencies = new ArrayList<>();
        for (String dependency : proto.getDependencyList()) {
            dependencies.add(build(dependency, protos, built));
        }
        FileDescriptor file = FileDescriptor.buildFrom(proto, dependencies.toArray(new FileDescriptor[0]));
        built.put(name, file);
        return file;
    }

    private static <T> StreamObserver<T> observer(BlockingQueue<T> answers, CompletableFuture<Void> done) {
        return new StreamObserver<>() {
            @Override
            public void onNext(T value) {
                answers.add(value);
            }

            @Override
            public void onError(Throwable t) {
                done.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
                done.complete(null);
            }
        };
    }

    /** One reflection stream (v1alpha, what grpcurl tries first): a question, then its answer. */
    private static final class Reflection implements AutoCloseable {
        private final BlockingQueue<ServerReflectionResponse> answers = new LinkedBlockingQueue<>();
        private final CompletableFuture<Void> done = new CompletableFuture<>();
        private final StreamObserver<ServerReflectionRequest> requests;

        Reflection() {
            this(ServerReflectionGrpc.getServerReflectionInfoMethod());
        }

        Reflection(MethodDescriptor<ServerReflectionRequest, ServerReflectionResponse> method) {
            requests = ClientCalls.asyncBidiStreamingCall(channel.newCall(method,
                    CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS)), observer(answers, done));
        }

        ServerReflectionResponse ask(ServerReflectionRequest request) throws InterruptedException {
            requests.onNext(request);
            ServerReflectionResponse answer = answers.poll(20, TimeUnit.SECONDS);
            assertThat(answer).as("answer to %s", request).isNotNull();
            return answer;
        }

        @Override
        public void close() throws Exception {
            requests.onCompleted();
            done.get(20, TimeUnit.SECONDS); // the server ends the stream OK once the client half-closed
        }
    }
}
