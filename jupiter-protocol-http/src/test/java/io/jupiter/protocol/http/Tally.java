package io.jupiter.protocol.http;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import java.util.concurrent.Flow;

/** Client and bidirectional streams of protobuf messages: callable over gRPC as client- and bidi-streaming methods. */
public interface Tally {

    /** The sum of the numbers the client sends (client streaming). */
    Int64Value sum(Flow.Publisher<Int64Value> numbers);

    /** Each line back as it arrives (bidirectional streaming). */
    Flow.Publisher<StringValue> echo(Flow.Publisher<StringValue> lines);

    /** How many messages arrived: reads the first, waits until the test resumes it, then reads the rest. */
    Int64Value stall(Flow.Publisher<StringValue> chunks);

    /** Reads one number and throws {@link IllegalArgumentException} naming it. */
    Int64Value reject(Flow.Publisher<Int64Value> numbers);

    /** How many messages arrived, counting as it reads; notes how its reading ended. */
    Int64Value count(Flow.Publisher<StringValue> chunks);
}
