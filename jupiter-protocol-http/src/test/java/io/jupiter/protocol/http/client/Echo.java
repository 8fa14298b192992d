package io.jupiter.protocol.http.client;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import java.util.concurrent.CompletableFuture;

/** A gRPC service {@code test.Echo} as a Jupiter consumer sees it (methods named in gRPC's upper camel case). */
public interface Echo {

    /** "{server}:{text}", with " tenant={t}" when the {@code tenant} metadata came. */
    StringValue echo(StringValue text);

    /** The same, as a future. */
    CompletableFuture<StringValue> echoAsync(StringValue text);

    /** Fails with PERMISSION_DENIED and the text as its description. */
    StringValue deny(StringValue text);

    /** Never answers. */
    Int64Value hang(Int64Value ignored);

    /** A text of this many bytes. */
    StringValue big(Int64Value bytes);

    /** Not on the server: UNIMPLEMENTED. */
    StringValue missing(StringValue text);
}
