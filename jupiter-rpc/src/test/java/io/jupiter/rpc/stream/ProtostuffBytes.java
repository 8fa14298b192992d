package io.jupiter.rpc.stream;

import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

/** The protostuff bytes of a value, as the raw peers of the stream tests write frame bodies. */
final class ProtostuffBytes {

    private ProtostuffBytes() {
    }

    static byte[] of(Object value) {
        ByteBuf body = Unpooled.buffer();
        try {
            Serializers.get(SerializerType.PROTOSTUFF).write(body, value);
            return ByteBufUtil.getBytes(body);
        } finally {
            body.release();
        }
    }
}
