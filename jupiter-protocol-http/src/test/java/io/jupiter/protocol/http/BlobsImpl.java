package io.jupiter.protocol.http;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;

final class BlobsImpl implements Blobs {

    @Override
    public StringValue blob(Int64Value bytes) {
        return StringValue.of("b".repeat(Math.toIntExact(bytes.getValue())));
    }
}
