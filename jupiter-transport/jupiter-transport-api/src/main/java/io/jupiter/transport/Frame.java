package io.jupiter.transport;

import io.netty.buffer.ByteBuf;

/**
 * One decoded frame: the header fields and the body bytes. The body is a retained slice of the receive buffer;
 * whoever takes the frame must {@link #release()} it exactly once, after reading the body.
 *
 * <p>Not final: a protocol that runs in the server's process may hand the provider a request it decoded already, as
 * a subclass that carries the decoded value (its body empty). Such frames never leave the process: the wire knows
 * only the header and body.
 */
public class Frame {

    private final byte messageCode;
    private final byte serializerCode;
    private final byte status;
    private final long id;
    private final ByteBuf body;
    private final long receivedNanos;

    public Frame(byte messageCode, byte serializerCode, byte status, long id, ByteBuf body, long receivedNanos) {
        this.messageCode = messageCode;
        this.serializerCode = serializerCode;
        this.status = status;
        this.id = id;
        this.body = body;
        this.receivedNanos = receivedNanos;
    }

    /** Low nibble of the sign byte, e.g. {@link ProtocolHeader#REQUEST}. */
    public byte messageCode() {
        return messageCode;
    }

    /** High nibble of the sign byte. */
    public byte serializerCode() {
        return serializerCode;
    }

    /** The raw status byte; see {@link Status#fromByte(byte)}. */
    public byte status() {
        return status;
    }

    /** The invoke id (or, for registry ACKs, the acknowledged sequence). */
    public long id() {
        return id;
    }

    /** The body bytes (possibly empty). */
    public ByteBuf body() {
        return body;
    }

    /** {@link System#nanoTime()} when the frame was decoded. */
    public long receivedNanos() {
        return receivedNanos;
    }

    /** Releases the body. */
    public void release() {
        body.release();
    }

    @Override
    public String toString() {
        return "Frame{code=0x" + Integer.toHexString(messageCode) + ", serializer=" + serializerCode
                + ", status=0x" + Integer.toHexString(status & 0xff) + ", id=" + id + ", body=" + body.readableBytes()
                + "B}";
    }
}
