package io.jupiter.protocol.http;

import com.google.protobuf.StringValue;
import io.grpc.CallOptions;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Calls with an {@code authorization} header, each on a new connection, for the caller-token tests. */
final class BearerCalls {

    private BearerCalls() {
    }

    /** A grpc-java unary call to 127.0.0.1:{@code port}, with {@code authorization} set unless it is null. */
    static StringValue grpc(int port, MethodDescriptor<StringValue, StringValue> method, String authorization,
                            StringValue request) throws InterruptedException {
        ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
        try {
            Metadata headers = new Metadata();
            if (authorization != null) {
                headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), authorization);
            }
            return ClientCalls.blockingUnaryCall(ClientInterceptors.intercept(channel,
                    MetadataUtils.newAttachHeadersInterceptor(headers)), method,
                    CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), request);
        } finally {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    /** curl's {@code POST} of {@code body} to {@code Calculator/method}, with {@code authorization} unless null. */
    static Curl.Reply http(int port, String method, String body, String authorization) throws Exception {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "20", "-H",
                "Content-Type: application/json", "--data-binary", body, "-w", "\n%{http_code}"));
        if (authorization != null) {
            command.addAll(List.of("-H", "Authorization: " + authorization));
        }
        command.add("http://127.0.0.1:" + port + "/" + Calculator.class.getName() + "/" + method);
        return Curl.run(command);
    }
}
