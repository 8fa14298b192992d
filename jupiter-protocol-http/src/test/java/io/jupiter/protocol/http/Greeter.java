package io.jupiter.protocol.http;

import com.google.protobuf.Int64Value;
import com.google.protobuf.ListValue;
import com.google.protobuf.StringValue;
import com.google.protobuf.Struct;

/**
 * A service of protobuf messages (protobuf's own well-known types, generated classes that ship with protobuf-java),
 * as a service written from a {@code .proto} would be: callable over gRPC.
 */
public interface Greeter {

    /** "Hello, {name}", with the {@code tenant} attachment when one came. */
    StringValue sayHello(StringValue name);

    /** Sleeps this many milliseconds, then answers how long it had left of the caller's deadline when it started. */
    Int64Value sleep(Int64Value millis);

    /** Throws {@link IllegalArgumentException} with the given text. */
    StringValue fail(StringValue why);

    /** The values in reverse order: repeated, nested messages with a oneof. */
    ListValue reverse(ListValue values);

    /** The struct with a field {@code seen: true} added: a message of maps, lists and oneofs. */
    Struct annotate(Struct struct);

    /** Not a protobuf method: not callable over gRPC. */
    String plain(String text);
}
