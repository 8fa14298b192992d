package io.jupiter.protocol.http.client;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import java.util.concurrent.Flow;

/** The server streams of {@code test.Echo} as a Jupiter consumer sees them. */
public interface Streams {

    /** 1, 2, ... n, then OK. */
    Flow.Publisher<Int64Value> count(Int64Value n);

    /** n texts of 1 KiB, sent only as the client's flow control allows. */
    Flow.Publisher<StringValue> flood(Int64Value n);

    /** A unary call beside the streams: "{server}:{text}". */
    StringValue echo(StringValue text);

    /** 1, 2, ... n, then NOT_FOUND "gone after n". */
    Flow.Publisher<Int64Value> failAfter(Int64Value n);
}
