package io.jupiter.protocol.http.client;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.function.Function;

/** {@code test.Upload} ({@link UploadServer}) as a Jupiter consumer sees it. */
public interface Uploads {

    /** gRPC's names of these methods: {@code sumAsync -> Sum}. */
    Function<Method, String> NAMES = m -> GrpcClientProtocol.UPPER_CAMEL.apply(m).replaceFirst("Async$", "");

    /** The sum of 1, 2, ... n sent in order (a client stream). */
    Int64Value sum(Flow.Publisher<Int64Value> values);

    /** The same, as a future. */
    CompletableFuture<Int64Value> sumAsync(Flow.Publisher<Int64Value> values);

    /** Each message answered with itself (a bidirectional stream). */
    Flow.Publisher<Int64Value> chat(Flow.Publisher<Int64Value> values);

    /** The characters of all the texts sent (a client stream). */
    Int64Value size(Flow.Publisher<StringValue> texts);

    /** Never reads a message. */
    CompletableFuture<Int64Value> stallAsync(Flow.Publisher<StringValue> texts);

    /** {@code UNAVAILABLE} after reading 3 messages. */
    Int64Value refuse(Flow.Publisher<Int64Value> values);

    /** A unary call beside the streams: "echo:{text}". */
    StringValue echo(StringValue text);
}
