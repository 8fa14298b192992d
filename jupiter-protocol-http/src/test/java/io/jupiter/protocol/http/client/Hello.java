package io.jupiter.protocol.http.client;

import com.google.protobuf.StringValue;

/** A Jupiter service of protobuf messages, served over gRPC by a Jupiter provider. */
public interface Hello {

    /** "Hello, {name}", with " of {tenant}" when that attachment came. */
    StringValue sayHello(StringValue name);

    /** Throws {@link IllegalArgumentException} with the given text. */
    StringValue fail(StringValue why);
}
