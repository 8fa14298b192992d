package io.jupiter.protocol.http;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;

/** Large answers to small requests: what a peer that never returns window would make a server hold. */
public interface Blobs {

    /** A text of {@code bytes} ASCII characters. */
    StringValue blob(Int64Value bytes);
}
