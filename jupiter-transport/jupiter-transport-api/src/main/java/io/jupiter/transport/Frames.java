package io.jupiter.transport;

import io.jupiter.common.Requires;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.concurrent.FastThreadLocalThread;

/**
 * Builds outbound frames in one buffer: reserve the header, let a serializer append the body, then fill the header
 * in ({@link ProtocolHeader} defines its layout). This is 1.3.1's "low copy" path; the bytes are the same as writing
 * header and body separately.
 */
public final class Frames {

    /** Heap buffers for frames built off Netty's threads; the GC reclaims them, so they are not leak-tracked. */
    private static final ByteBufAllocator HEAP = new UnpooledByteBufAllocator(false, true);

    private Frames() {
    }

    /** A buffer with the 16 header bytes reserved; append the body, then call {@link #fillHeader}. */
    public static ByteBuf newFrame(ByteBufAllocator alloc, int bodySizeHint) {
        ByteBuf frame = alloc.ioBuffer(ProtocolHeader.HEADER_SIZE + Math.max(bodySizeHint, 0));
        frame.writerIndex(ProtocolHeader.HEADER_SIZE);
        return frame;
    }

    /**
     * {@link #newFrame} for a frame built on the calling thread and written by a connection: from {@code alloc} on
     * Netty's own threads (IO threads, Jupiter's pools), a heap buffer on any other. Such a thread has no cache in
     * Netty's pooled allocator, so a direct buffer would come from an arena shared with every other calling thread,
     * under its lock; the transport copies a heap frame into a pooled direct buffer on its IO thread, whose cache
     * that buffer returns to once written.
     */
    public static ByteBuf newFrameOnCallingThread(ByteBufAllocator alloc, int bodySizeHint) {
        if (Thread.currentThread() instanceof FastThreadLocalThread) {
            return newFrame(alloc, bodySizeHint);
        }
        ByteBuf frame = HEAP.heapBuffer(ProtocolHeader.HEADER_SIZE + Math.max(bodySizeHint, 0));
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
        // Magic, sign and status in one write (big-endian, as the header is): each write checks the buffer.
        frame.setInt(start, (ProtocolHeader.MAGIC & 0xffff) << 16 | (sign & 0xff) << 8 | status & 0xff);
        frame.setLong(start + ProtocolHeader.ID_OFFSET, id);
        frame.setInt(start + ProtocolHeader.BODY_SIZE_OFFSET, frame.writerIndex() - start - ProtocolHeader.HEADER_SIZE);
        return frame;
    }

    /** The heartbeat frame: {@code ba be 0f 00} followed by 12 zero bytes. */
    public static ByteBuf heartbeat(ByteBufAllocator alloc) {
        return heartbeat(alloc, 0L);
    }

    /**
     * A heartbeat frame with {@code id}: a ping when it is not 0, and a pong when it echoes a ping's id
     * ({@link ProtocolHeader#HEARTBEAT}).
     */
    public static ByteBuf heartbeat(ByteBufAllocator alloc, long id) {
        ByteBuf frame = alloc.ioBuffer(ProtocolHeader.HEADER_SIZE);
        frame.writeShort(ProtocolHeader.MAGIC);
        frame.writeByte(ProtocolHeader.HEARTBEAT);
        frame.writeByte(0);
        frame.writeLong(id);
        frame.writeInt(0);
        return frame;
    }

    /**
     * A heartbeat whose status byte is {@code announcement}, e.g. {@link ProtocolHeader#STREAMS_ANNOUNCED}: what a
     * provider sends first on a connection to say what it speaks beyond 1.3.1.
     */
    public static ByteBuf announcement(ByteBufAllocator alloc, byte announcement) {
        ByteBuf frame = heartbeat(alloc);
        frame.setByte(ProtocolHeader.STATUS_OFFSET, announcement);
        return frame;
    }

    /**
     * The frame that cancels the call with invoke id {@code id}: a {@link ProtocolHeader#STREAM_CANCEL} with status
     * {@link ProtocolHeader#CALL_CANCEL} and no body. Only for a provider that announced
     * {@link ProtocolHeader#CALL_CANCELS_ANNOUNCED}.
     */
    public static ByteBuf callCancel(ByteBufAllocator alloc, long id) {
        ByteBuf frame = heartbeat(alloc, id);
        frame.setByte(ProtocolHeader.SIGN_OFFSET, ProtocolHeader.toSign(0, ProtocolHeader.STREAM_CANCEL));
        frame.setByte(ProtocolHeader.STATUS_OFFSET, ProtocolHeader.CALL_CANCEL);
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
