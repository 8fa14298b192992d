package io.jupiter.rpc.internal.stream;

import io.jupiter.rpc.exception.PayloadTooLargeException;
import io.jupiter.rpc.exception.SerializationFailedException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.serialization.Serializer;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Builds and reads the stream frames ({@link ProtocolHeader#STREAM_OPEN} to {@link ProtocolHeader#STREAM_CANCEL});
 * each is a 16-byte header whose id is the stream id, and a body as the header's javadoc says.
 */
public final class StreamFrames {

    /** Longest reason text carried by an end or cancel frame, in bytes; longer ones are cut. */
    static final int MAX_REASON_BYTES = 1024;
    /** Shared bodies up to this size are copied into each stream's frame rather than shared. */
    static final int COPY_BODY_BYTES = 256;

    private StreamFrames() {
    }

    /** A message frame carrying {@code value} written by {@code serializer}. */
    static ByteBuf message(Connection connection, Serializer serializer, long id, Object value, int sizeHint) {
        ByteBuf frame = Frames.newFrameOnCallingThread(connection.alloc(), sizeHint);
        try {
            serializer.write(frame, value);
        } catch (RuntimeException e) {
            frame.release();
            throw new SerializationFailedException(StatusTable.SERVER_ERROR.status(),
                    "cannot write a stream message with "
                    + serializer.type().id() + ": " + e.getMessage(), e);
        }
        checkSize(connection, frame.readableBytes() - ProtocolHeader.HEADER_SIZE, frame);
        return Frames.fillHeader(frame, ProtocolHeader.toSign(serializer.type().code(), ProtocolHeader.STREAM_MESSAGE),
                Status.OK.value(), id);
    }

    /**
     * A message frame with {@code sharedBody} as its body, for one of many streams: a body of at most
     * {@value #COPY_BODY_BYTES} bytes is copied behind the header into one buffer (one small allocation, where a
     * composite of a header and a duplicate costs three objects and a pooled header, and is no smaller); a larger one
     * is a retained duplicate of {@code sharedBody} behind a header of its own, shared with every other frame made
     * from it: one serialization for many streams, nothing copied.
     */
    static ByteBuf sharedMessage(ByteBufAllocator alloc, byte serializerCode, long id, ByteBuf sharedBody) {
        int bodySize = sharedBody.readableBytes();
        boolean copy = bodySize <= COPY_BODY_BYTES;
        ByteBuf header = alloc.ioBuffer(ProtocolHeader.HEADER_SIZE + (copy ? bodySize : 0));
        header.writeShort(ProtocolHeader.MAGIC);
        header.writeByte(ProtocolHeader.toSign(serializerCode, ProtocolHeader.STREAM_MESSAGE));
        header.writeByte(Status.OK.value());
        header.writeLong(id);
        header.writeInt(bodySize);
        if (copy) {
            return header.writeBytes(sharedBody, sharedBody.readerIndex(), bodySize);
        }
        CompositeByteBuf frame = alloc.compositeBuffer(2);
        return frame.addComponents(true, header, sharedBody.retainedDuplicate());
    }

    static void checkSize(Connection connection, int bodySize, ByteBuf frame) {
        if (bodySize > connection.maxBodySize()) {
            frame.release();
            throw new PayloadTooLargeException(StatusTable.SERVER_ERROR.status(), "a stream message of " + bodySize
                    + " bytes is above the " + connection.maxBodySize() + "-byte body cap: not sent");
        }
    }

    /** A credit frame adding {@code messages} (at least 1) to what the sender may send. */
    static ByteBuf credit(ByteBufAllocator alloc, long id, int messages) {
        ByteBuf frame = Frames.newFrame(alloc, 4);
        frame.writeInt(messages);
        return Frames.fillHeader(frame, ProtocolHeader.toSign(0, ProtocolHeader.STREAM_CREDIT), (byte) 0, id);
    }

    /** The messages a credit frame's body adds, or -1 if the body is not a positive 4-byte int. */
    static int creditOf(ByteBuf body) {
        if (body.readableBytes() != 4) {
            return -1;
        }
        int messages = body.getInt(body.readerIndex());
        return messages > 0 ? messages : -1;
    }

    /** An end frame with {@code status} and, unless it is {@code null}, the reason. */
    static ByteBuf end(ByteBufAllocator alloc, long id, Status status, String reason) {
        return withReason(alloc, ProtocolHeader.STREAM_END, status.value(), id, reason);
    }

    /** A cancel frame with the reason, if any. */
    static ByteBuf cancel(ByteBufAllocator alloc, long id, String reason) {
        return withReason(alloc, ProtocolHeader.STREAM_CANCEL, (byte) 0, id, reason);
    }

    private static ByteBuf withReason(ByteBufAllocator alloc, byte code, byte status, long id, String reason) {
        byte[] text = reason == null ? new byte[0] : reason.getBytes(StandardCharsets.UTF_8);
        int length = Math.min(text.length, MAX_REASON_BYTES);
        ByteBuf frame = Frames.newFrame(alloc, length);
        frame.writeBytes(text, 0, length);
        return Frames.fillHeader(frame, ProtocolHeader.toSign(0, code), status, id);
    }

    /** The reason text of an end or cancel frame's body. */
    static String reasonOf(ByteBuf body) {
        int length = Math.min(body.readableBytes(), MAX_REASON_BYTES);
        return body.toString(body.readerIndex(), length, StandardCharsets.UTF_8);
    }
}
