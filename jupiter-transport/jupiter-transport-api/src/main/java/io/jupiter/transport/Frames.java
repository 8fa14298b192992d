package io.jupiter.transport;

import io.jupiter.common.Requires;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Builds outbound frames in one buffer: reserve the header, let a serializer append the body, then fill the header
 * in ({@link ProtocolHeader} defines its layout). This is 1.3.1's "low copy" path; the bytes are the same as writing
 * header and body separately.
 */
public final class Frames {

    private Frames() {
    }

    /** A buffer with the 16 header bytes reserved; append the body, then call {@link #fillHeader}. */
    public static ByteBuf newFrame(ByteBufAllocator alloc, int bodySizeHint) {
        ByteBuf frame = alloc.ioBuffer(ProtocolHeader.HEADER_SIZE + Math.max(bodySizeHint, 0));
        frame.writerIndex(ProtocolHeader.HEADER_SIZE);
        return frame;
    }

    /**
     * Writes the header into the first 16 bytes of a buffer made by {@link #newFrame}; the body size is everything
     * written after the header.
     *
     * @return {@code frame}
     */
    public static ByteBuf fillHeader(ByteBuf frame, byte sign, byte status, long id) {
        int start = frame.readerIndex();
        frame.setShort(start, ProtocolHeader.MAGIC);
        frame.setByte(start + ProtocolHeader.SIGN_OFFSET, sign);
        frame.setByte(start + ProtocolHeader.STATUS_OFFSET, status);
        frame.setLong(start + ProtocolHeader.ID_OFFSET, id);
        frame.setInt(start + ProtocolHeader.BODY_SIZE_OFFSET, frame.writerIndex() - start - ProtocolHeader.HEADER_SIZE);
        return frame;
    }

    /** The heartbeat frame: {@code ba be 0f 00} followed by 12 zero bytes. */
    public static ByteBuf heartbeat(ByteBufAllocator alloc) {
        ByteBuf frame = alloc.ioBuffer(ProtocolHeader.HEADER_SIZE);
        frame.writeShort(ProtocolHeader.MAGIC);
        frame.writeByte(ProtocolHeader.HEARTBEAT);
        frame.writeByte(0);
        frame.writeLong(0L);
        frame.writeInt(0);
        return frame;
    }

    /**
     * The {@link ProtocolHeader#CALLER_TOKEN} frame carrying {@code token} (UTF-8 bytes, at most
     * {@link ProtocolHeader#MAX_CALLER_TOKEN_SIZE}).
     *
     * @throws IllegalArgumentException if the token is longer
     */
    public static ByteBuf callerToken(ByteBufAllocator alloc, byte[] token) {
        Requires.argument(token.length <= ProtocolHeader.MAX_CALLER_TOKEN_SIZE, "caller token: " + token.length
                + " bytes (expected: at most " + ProtocolHeader.MAX_CALLER_TOKEN_SIZE + ")");
        ByteBuf frame = newFrame(alloc, token.length);
        frame.writeBytes(token);
        return fillHeader(frame, ProtocolHeader.toSign(0, ProtocolHeader.CALLER_TOKEN), (byte) 0, 0L);
    }
}
