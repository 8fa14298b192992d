package io.jupiter.protocol.http;

import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;

/**
 * The provider's answer to a call: the request's id, the status and the result (the return value, or the throwable
 * when the status is not OK). Read back from the response frame the provider wrote ({@link #take}), or as the
 * provider handed it over for a call it got already read ({@link io.jupiter.rpc.internal.DecodedRequest}).
 */
record Answer(long id, Status status, Object result) {

    /** {@link #read}, then releases {@code frame}. */
    static Answer take(ByteBuf frame, Serializer serializer) {
        try {
            return read(frame, serializer);
        } finally {
            frame.release();
        }
    }

    /**
     * Reads {@code frame} (without releasing it) with {@code serializer}, the one its request was written in: the
     * answer, or {@code null} for a frame that answers no call (heartbeats, announcements).
     */
    static Answer read(ByteBuf frame, Serializer serializer) {
        int start = frame.readerIndex();
        byte sign = frame.getByte(start + ProtocolHeader.SIGN_OFFSET);
        if (ProtocolHeader.messageCode(sign) != ProtocolHeader.RESPONSE) {
            return null;
        }
        Status status = Status.fromByte(frame.getByte(start + ProtocolHeader.STATUS_OFFSET));
        long id = frame.getLong(start + ProtocolHeader.ID_OFFSET);
        ByteBuf body = frame.slice(start + ProtocolHeader.HEADER_SIZE,
                frame.readableBytes() - ProtocolHeader.HEADER_SIZE);
        if (!body.isReadable()) {
            return new Answer(id, status, null);
        }
        try {
            return new Answer(id, status, serializer.read(body, ResultWrapper.class).getResult());
        } catch (RuntimeException e) {
            return new Answer(id, StatusTable.SERVER_ERROR.status(),
                    new IllegalStateException("the result could not be read: "
                    + e.getMessage()));
        }
    }

    /** The text a foreign caller gets for a failed call. */
    String errorMessage() {
        if (result instanceof Throwable t) {
            String message = t.getMessage();
            String name = t.getClass().getName();
            boolean ours = name.startsWith("io.jupiter.") || name.startsWith("org.jupiter.");
            return ours ? String.valueOf(message) : t.getClass().getSimpleName() + (message == null ? ""
                    : ": " + message);
        }
        return status.name();
    }
}
