package io.jupiter.registry.embedded.internal;

import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/** Sends and reads registry frames: header id 0 and a protostuff body, or an ACK with the sequence as its id. */
public final class RegistryFrames {

    /** Registry bodies are always protostuff (1.3.1's {@code jupiter.registry.default.serializer_type}). */
    public static final byte PROTOSTUFF = 1;

    /** Provider to registry: publish a service (1.3.1's message code 0x03). */
    public static final byte PUBLISH_SERVICE = 0x03;
    /** Provider to registry: withdraw a service. */
    public static final byte PUBLISH_CANCEL_SERVICE = 0x04;
    /** Consumer to registry: subscribe to a service. */
    public static final byte SUBSCRIBE_SERVICE = 0x05;
    /** Registry to consumer: a provider went offline. */
    public static final byte OFFLINE_NOTICE = 0x06;
    /** Either way: acknowledgement; the header's id field carries the acknowledged sequence. */
    public static final byte ACK = 0x07;

    /**
     * Either way, only with a shared secret: the handshake of {@link RegistryAuth} (not in 1.3.1, which never sends
     * it; a registry or client without a secret never sends it either).
     */
    public static final byte AUTH_CODE = 0x08;
    // 0x09 is the RPC caller token (ProtocolHeader.CALLER_TOKEN); 0x01, 0x02 and 0x0f are RPC's too.

    /** The message codes a registry endpoint accepts: 3 to 8 and the heartbeat. */
    public static final int MESSAGE_CODES = ProtocolHeader.messageCodeMask(PUBLISH_SERVICE, PUBLISH_CANCEL_SERVICE,
            SUBSCRIBE_SERVICE, OFFLINE_NOTICE, ACK, AUTH_CODE, ProtocolHeader.HEARTBEAT);

    private RegistryFrames() {
    }

    /** Writes a message; a failed write is only logged by the caller's resend logic. */
    public static void send(Connection connection, RegistryMessage message) {
        connection.write(frame(connection.alloc(), message));
    }

    /** Acknowledges a message. */
    public static void ack(Connection connection, long sequence) {
        connection.write(ackFrame(connection.alloc(), sequence));
    }

    /** The whole frame of a message: header (id 0) and protostuff body. */
    public static ByteBuf frame(ByteBufAllocator alloc, RegistryMessage message) {
        ByteBuf frame = Frames.newFrame(alloc, 160);
        try {
            RegistryCodec.encode(frame, message);
        } catch (RuntimeException e) {
            frame.release();
            throw e;
        }
        return Frames.fillHeader(frame, ProtocolHeader.toSign(PROTOSTUFF, message.messageCode()), (byte) 0, 0L);
    }

    /** An ACK frame: {@code ba be 07 00 <sequence> 00 00 00 00}. */
    public static ByteBuf ackFrame(ByteBufAllocator alloc, long sequence) {
        return Frames.fillHeader(Frames.newFrame(alloc, 0), RegistryFrames.ACK, (byte) 0, sequence);
    }

    /**
     * Reads the body of a frame (not an ACK); releases the frame.
     *
     * @throws RegistryCodecException if it is malformed or not protostuff
     */
    public static RegistryMessage read(Frame frame) {
        try {
            if (frame.serializerCode() != PROTOSTUFF) {
                throw new RegistryCodecException("serializer code " + frame.serializerCode()
                        + " (expected: 1, protostuff)");
            }
            RegistryMessage body = RegistryCodec.decode(frame.body());
            // As in 1.3.1, the header's message code wins over the one in the body.
            return new RegistryMessage(body.sequence(), body.serializerCode(), frame.messageCode(), body.version(),
                    body.data());
        } finally {
            frame.release();
        }
    }
}
