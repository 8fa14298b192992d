package io.jupiter.protocol.http;

import io.jupiter.rpc.internal.StatusTable;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.Unpooled;
import io.netty.util.AsciiString;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * How a gRPC call's request messages may be compressed, from its {@code grpc-encoding} header: not at all
 * ({@code identity}, or no header), or {@code gzip}. A compressed message is inflated only up to the server's
 * message cap, so a small message that would inflate past it (a "zip bomb") costs at most the cap in bytes and the
 * time to inflate them, and is refused {@code RESOURCE_EXHAUSTED}. Answers are never compressed.
 */
enum MessageEncoding {

    IDENTITY,
    GZIP;

    /** The encodings the server takes, for its {@code grpc-accept-encoding} header. */
    static final AsciiString ACCEPTED = AsciiString.cached("gzip");
    /** gRPC's status code for an encoding the server does not take. */
    private static final int UNIMPLEMENTED = 12;
    private static final int INTERNAL = 13;
    private static final int RESOURCE_EXHAUSTED = 8;

    /**
     * The encoding a {@code grpc-encoding} header names ({@code null}: none).
     *
     * @throws ForeignCallException {@code UNIMPLEMENTED} for an encoding other than gzip or identity
     */
    static MessageEncoding of(CharSequence header) {
        if (header == null || AsciiString.contentEqualsIgnoreCase(header, "identity")) {
            return IDENTITY;
        }
        if (AsciiString.contentEqualsIgnoreCase(header, "gzip")) {
            return GZIP;
        }
        throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), UNIMPLEMENTED, "grpc-encoding "
                + clip(header) + " is not supported (grpc-accept-encoding: " + ACCEPTED + ")");
    }

    /**
     * The protobuf bytes of the message whose 5-byte prefix starts at {@code at} in {@code data} and whose
     * {@code length} bytes follow it: a slice of {@code data} for an uncompressed one, a buffer of its own for one
     * inflated here.
     *
     * @param cap the most bytes a message may have, inflated
     * @throws ForeignCallException {@code INTERNAL} for a compressed message without {@code grpc-encoding: gzip},
     *                              an unknown flag or bytes that do not inflate; {@code RESOURCE_EXHAUSTED} for one
     *                              that inflates past {@code cap}
     */
    ByteBuf payload(ByteBuf data, int at, int length, int cap) {
        byte flag = data.getByte(at);
        ByteBuf bytes = data.slice(at + GrpcMessages.PREFIX, length);
        if (flag == 0) {
            return bytes;
        }
        if (flag != 1) {
            throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), INTERNAL,
                    "a message with the unknown flag " + flag);
        }
        if (this != GZIP) {
            throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), INTERNAL,
                    "a compressed message in a call without grpc-encoding: gzip");
        }
        return Unpooled.wrappedBuffer(inflate(bytes, cap));
    }

    private static byte[] inflate(ByteBuf compressed, int cap) {
        try (InputStream in = new GZIPInputStream(new ByteBufInputStream(compressed), 512)) {
            byte[] out = new byte[Math.min(cap + 1, Math.max(64, compressed.readableBytes() * 4))];
            int size = 0;
            while (true) {
                if (size == out.length) {
                    if (size > cap) {
                        throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), RESOURCE_EXHAUSTED,
                                "a compressed request message inflates past the " + cap + "-byte cap");
                    }
                    out = Arrays.copyOf(out, (int) Math.min((long) cap + 1, (long) size * 2));
                }
                int read = in.read(out, size, out.length - size);
                if (read < 0) {
                    break;
                }
                size += read;
            }
            if (size > cap) {
                throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), RESOURCE_EXHAUSTED,
                        "a compressed request message inflates past the " + cap + "-byte cap");
            }
            return size == out.length ? out : Arrays.copyOf(out, size);
        } catch (IOException e) {
            throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), INTERNAL,
                    "a compressed request message does not inflate: " + e.getMessage());
        }
    }

    /** A header value a peer chose, cut short for a message. */
    private static String clip(CharSequence value) {
        return value.length() <= 32 ? value.toString() : value.subSequence(0, 32) + "...";
    }
}
