package io.jupiter.transport;

/**
 * The 16-byte frame header, identical to Jupiter 1.3.1's. All fields are big-endian.
 *
 * <pre>
 * offset  size  field
 *      0     2  magic      0xbabe
 *      2     1  sign       high nibble: serializer code, low nibble: message code
 *      3     1  status     response status ({@link Status}); 0 in requests
 *      4     8  id         invoke id, signed; a response echoes its request's id
 *     12     4  body size  signed; bytes of body after the header
 *     16     n  body
 * </pre>
 *
 * <p>There is no version field: a future incompatible change must use a new magic or a new message code.
 */
public final class ProtocolHeader {

    /** Header length in bytes. */
    public static final int HEADER_SIZE = 16;
    /** The magic number every frame starts with. */
    public static final short MAGIC = (short) 0xbabe;

    /** Consumer to provider: a call. */
    public static final byte REQUEST = 0x01;
    /** Provider to consumer: the answer to a call. */
    public static final byte RESPONSE = 0x02;
    // 0x03 to 0x07 are the embedded registry's messages; they are declared with it (jupiter-registry-default).
    /** Keep-alive: sign exactly 0x0f, id 0, empty body; never answered. */
    public static final byte HEARTBEAT = 0x0f;

    private ProtocolHeader() {
    }

    /** The sign byte for a serializer code and a message code. */
    public static byte toSign(int serializerCode, int messageCode) {
        return (byte) ((serializerCode << 4) | (messageCode & 0x0f));
    }

    /** The message code (low nibble) of a sign byte. */
    public static byte messageCode(byte sign) {
        return (byte) (sign & 0x0f);
    }

    /** The serializer code (high nibble) of a sign byte. */
    public static byte serializerCode(byte sign) {
        return (byte) ((sign & 0xff) >>> 4);
    }

    /** A bit set with the bit of each given message code, for {@link TransportConfig} and the frame decoder. */
    public static int messageCodeMask(byte... codes) {
        int mask = 0;
        for (byte code : codes) {
            mask |= 1 << (code & 0x0f);
        }
        return mask;
    }

    /** The codes an RPC connection may carry: request, response and heartbeat. */
    public static final int RPC_MESSAGE_CODES = messageCodeMask(REQUEST, RESPONSE, HEARTBEAT);

    /** The codes a provider accepts: requests and heartbeats; anything else (a response) closes the connection. */
    public static final int PROVIDER_MESSAGE_CODES = messageCodeMask(REQUEST, HEARTBEAT);
}
