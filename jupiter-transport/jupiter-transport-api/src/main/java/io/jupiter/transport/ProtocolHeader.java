package io.jupiter.transport;

import io.netty.buffer.ByteBuf;

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
 *
 * <p>This class is the header's one definition: its layout, the sign's two nibbles, and the checks every reader
 * applies before it buffers a body ({@link #checkPrefix}, {@link #checkHeader}). {@link Frames} writes headers with
 * these offsets; the transport's frame decoder reads them with these checks.
 */
public final class ProtocolHeader {

    /** Header length in bytes. */
    public static final int HEADER_SIZE = 16;
    /** The magic number every frame starts with. */
    public static final short MAGIC = (short) 0xbabe;
    /** Offset of the sign byte. */
    public static final int SIGN_OFFSET = 2;
    /** Offset of the status byte. */
    public static final int STATUS_OFFSET = 3;
    /** Offset of the 8-byte invoke id. */
    public static final int ID_OFFSET = 4;
    /** Offset of the 4-byte body size. */
    public static final int BODY_SIZE_OFFSET = 12;

    /** Consumer to provider: a call. */
    public static final byte REQUEST = 0x01;
    /** Provider to consumer: the answer to a call. */
    public static final byte RESPONSE = 0x02;
    // 0x03 to 0x08 are the embedded registry's messages; they are declared with it (jupiter-registry-default).
    /**
     * Consumer to provider, only as the first frame of a connection and only from a client configured with a caller
     * token: sign {@code 0x09} (serializer nibble 0), status 0, id 0, body the token in UTF-8, at most
     * {@link #MAX_CALLER_TOKEN_SIZE} bytes. Never answered: a provider that refuses the token answers the
     * connection's first request {@code BAD_REQUEST} and closes it. Accepted only by a provider that asks for tokens
     * ({@link TransportConfig.Builder#firstFrameOnly}); any other, as a 1.3.1 one, closes a connection that sends one.
     */
    public static final byte CALLER_TOKEN = 0x09;
    /** The largest body of a {@link #CALLER_TOKEN} frame, in bytes; a header declaring more closes the connection. */
    public static final int MAX_CALLER_TOKEN_SIZE = 4096;
    /**
     * Consumer to provider: opens a stream. Body: a request body (service, method, arguments, attachments) in the
     * serializer of the sign's high nibble; id: the stream id, a fresh invoke id. Sent only to a provider that
     * announced streams ({@link #STREAMS_ANNOUNCED}); never to a 1.3.1 peer, which would close the connection.
     */
    public static final byte STREAM_OPEN = 0x0a;
    /** Either way: one message of a stream; body: the value, in the stream's serializer; status 0x20. */
    public static final byte STREAM_MESSAGE = 0x0b;
    /**
     * Receiver to sender: the receiving application asks for more messages; body: a 4-byte signed int from 1,
     * the messages added to what the sender may send; serializer nibble 0, status 0.
     */
    public static final byte STREAM_CREDIT = 0x0c;
    /**
     * Sender to receiver: the stream ended; status {@code OK} or why not ({@link Status}); body: empty, or the reason
     * in UTF-8; serializer nibble 0. Nothing of the stream follows.
     */
    public static final byte STREAM_END = 0x0d;
    /** Receiver to sender: the receiver gave up on the stream; body: empty, or the reason in UTF-8. */
    public static final byte STREAM_CANCEL = 0x0e;
    /**
     * Keep-alive: sign exactly 0x0f, status 0, empty body. With id 0 (1.3.1's heartbeat, all a 1.3.1 peer sends) it
     * is never answered. With any other id it is a <em>ping</em>, which only our clients send: a provider answers it
     * with the same frame, id included (the <em>pong</em>), at most once per connection per
     * {@link TransportConfig#pingMinIntervalMillis()}. A 1.3.1 provider reads the same header and drops it as it
     * drops every heartbeat (its decoder never looks at a heartbeat's id), and never sends a frame back; a client
     * learns that a provider answers pings when the first pong arrives. A heartbeat whose status is not 0 is neither
     * a heartbeat to drop nor a ping: it is an announcement ({@link #STREAMS_ANNOUNCED}), sent with id 0.
     */
    public static final byte HEARTBEAT = 0x0f;
    /**
     * The status byte of a heartbeat a provider sends first on each connection when it serves streams: bit 0 set
     * means "streams, version 1". A heartbeat's status is ignored by 1.3.1 peers (their decoder reads no body and
     * emits nothing), so the announcement is safe to send to anyone; the frame decoder hands a heartbeat with a
     * non-zero status on to the frame handler, with an empty body.
     */
    public static final byte STREAMS_ANNOUNCED = 0x01;
    /**
     * The status bit of a heartbeat (id 0, empty body) about cancelling calls, "call cancels, version 1": sent by a
     * consumer of ours first on each connection, it asks whether the provider drops a call its caller cancelled; a
     * provider of ours answers once per connection with a heartbeat of the same status. A 1.3.1 provider drops the
     * question as it drops every heartbeat and never answers, so a consumer sends {@link #CALL_CANCEL} frames only on
     * a connection that brought the answer. A provider never sends it unasked, so a 1.3.1 consumer never sees one.
     */
    public static final byte CALL_CANCELS_ANNOUNCED = 0x02;
    /**
     * The status of a {@link #STREAM_CANCEL} frame that cancels a call rather than a stream: id the request's invoke
     * id, serializer nibble 0, empty body; consumer to provider, never answered. A provider of ours drops the call if
     * it has not started.
     */
    public static final byte CALL_CANCEL = 0x01;

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

    /**
     * The codes a provider accepts: requests, heartbeats and the stream frames a consumer sends; anything else (a
     * response) closes the connection.
     */
    public static final int PROVIDER_MESSAGE_CODES = messageCodeMask(REQUEST, HEARTBEAT, STREAM_OPEN, STREAM_MESSAGE,
            STREAM_CREDIT, STREAM_END, STREAM_CANCEL);

    /**
     * The codes a consumer accepts: responses, heartbeats and the stream frames a provider sends (credit and cancel
     * for the consumer's own messages of a client or bidirectional stream).
     */
    public static final int CONSUMER_MESSAGE_CODES = messageCodeMask(REQUEST, RESPONSE, HEARTBEAT, STREAM_MESSAGE,
            STREAM_CREDIT, STREAM_END, STREAM_CANCEL);

    /** Whether {@code code} is one of the stream frames' ({@link #STREAM_OPEN} to {@link #STREAM_CANCEL}). */
    public static boolean isStreamFrame(byte code) {
        return code >= STREAM_OPEN && code <= STREAM_CANCEL;
    }

    /**
     * Checks the first bytes of a header that is not complete yet (magic on the first byte, sign on the third), so
     * that a peer sending a few bad bytes is refused at once. Returns the violation, or {@code null} if the bytes at
     * {@code start} are fine so far.
     */
    public static String checkPrefix(ByteBuf in, int start, int readable, int acceptedMessageCodes) {
        if (readable >= 1 && in.getByte(start) != (byte) (MAGIC >> 8)) {
            return "bad magic 0x" + Integer.toHexString(in.getByte(start) & 0xff) + ".. (expected: 0xbabe)";
        }
        if (readable >= 2 && in.getShort(start) != MAGIC) {
            return "bad magic 0x" + Integer.toHexString(in.getShort(start) & 0xffff) + " (expected: 0xbabe)";
        }
        return readable > SIGN_OFFSET ? checkSign(in.getByte(start + SIGN_OFFSET), acceptedMessageCodes) : null;
    }

    /**
     * Checks a whole header at {@code start}: magic, message code among {@code acceptedMessageCodes} (a
     * {@link #messageCodeMask}), and a body size from 0 to {@code maxBodySize}. Returns the violation, or
     * {@code null} if the header is valid.
     */
    public static String checkHeader(ByteBuf in, int start, int acceptedMessageCodes, int maxBodySize) {
        short magic = in.getShort(start);
        if (magic != MAGIC) {
            return "bad magic 0x" + Integer.toHexString(magic & 0xffff) + " (expected: 0xbabe)";
        }
        String badSign = checkSign(in.getByte(start + SIGN_OFFSET), acceptedMessageCodes);
        if (badSign != null) {
            return badSign;
        }
        int bodySize = in.getInt(start + BODY_SIZE_OFFSET);
        if (bodySize < 0) {
            return "negative body size " + bodySize;
        }
        if (bodySize > maxBodySize) {
            return "body size " + bodySize + " exceeds the " + maxBodySize + "-byte cap";
        }
        return null;
    }

    private static String checkSign(byte sign, int acceptedMessageCodes) {
        int messageCode = messageCode(sign);
        if ((acceptedMessageCodes & (1 << messageCode)) == 0) {
            return "message code 0x" + Integer.toHexString(messageCode) + " is not accepted here (sign 0x"
                    + Integer.toHexString(sign & 0xff) + ")";
        }
        return null;
    }
}
