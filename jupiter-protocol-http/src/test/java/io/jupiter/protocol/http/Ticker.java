package io.jupiter.protocol.http;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import java.util.concurrent.Flow;

/** Server streams of protobuf messages: callable over gRPC as server-streaming methods. */
public interface Ticker {

    /** 1, 2, ... {@code n}, then the end. */
    Flow.Publisher<Int64Value> count(Int64Value n);

    /** {@code n} messages, then the method's error ({@link IllegalStateException}). */
    Flow.Publisher<Int64Value> failAfter(Int64Value n);

    /** {@code n} messages of 16 KiB each (ASCII text), as fast as the stream takes them. */
    Flow.Publisher<StringValue> flood(Int64Value n);

    /** {@code n} messages of 256 KiB each (ASCII text), as fast as the stream takes them. */
    Flow.Publisher<StringValue> bulk(Int64Value n);
}
