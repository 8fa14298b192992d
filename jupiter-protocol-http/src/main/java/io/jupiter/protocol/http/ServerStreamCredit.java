package io.jupiter.protocol.http;

/**
 * The credit one gRPC server stream gives the provider, bounded in bytes: as many messages may be on their way from
 * the provider as fit, at the size its messages have had, in the room its limit leaves beside the bytes written to
 * the HTTP/2 stream and not yet on the socket (those a client that does not read leaves there). Small messages get up
 * to {@link #MAX_MESSAGES} on their way (credit out and written, not on the socket); large ones only as many as fit,
 * and one at a time when none does, so a message larger than the limit still goes, alone.
 *
 * <p>The first credit, before any size is known, is {@link #FIRST_MESSAGES} messages: few, so that a stream of
 * messages near the body cap puts little on its way blind, but more than one, so that a short stream's first messages
 * go out before its method's error (which ends the stream at the provider, dropping what it buffered beyond credit).
 * The size a message is counted at rises at once to a larger message and falls slowly (an eighth of the gap a
 * message) towards smaller ones. Credit is given back
 * once half of what fits is missing, so credit frames stay few. A producer whose messages suddenly grow can still put
 * its credit outstanding times the larger size on the way, once: credit granted is not taken back. Not
 * thread-safe: the connection's IO thread uses it.
 */
final class ServerStreamCredit {

    /** Messages of credit a stream opens with, before any of its sizes is known. */
    static final int FIRST_MESSAGES = 4;

    /**
     * Most messages on their way at once, credit out and written but not on the socket together, whatever their
     * size: small messages would otherwise queue by the ten thousand within the byte window, each waiting longer.
     */
    static final int MAX_MESSAGES = 1024;

    private final long limit;
    /** Messages of credit the provider has not used yet. */
    private long granted;
    /** Bytes written to the HTTP/2 stream and not yet on the socket, and how many messages they are. */
    private long queuedBytes;
    private long queuedMessages;
    /** The size a message is counted at; 0 until the first arrives. */
    private long messageBytes;

    /** @param limit bytes of the stream's messages held on the server, written and not yet on the socket */
    ServerStreamCredit(long limit) {
        this.limit = limit;
    }

    /** The credit to open the stream with ({@link #FIRST_MESSAGES}); the first message's size sizes the next. */
    int first() {
        granted = FIRST_MESSAGES;
        return FIRST_MESSAGES;
    }

    /**
     * A message of {@code bytes} (its gRPC frame) arrived against the credit and was written to the HTTP/2 stream;
     * returns the credit to give now (0: none).
     */
    int written(int bytes) {
        granted = Math.max(0, granted - 1);
        queuedBytes += bytes;
        queuedMessages++;
        messageBytes = bytes >= messageBytes ? bytes : messageBytes - ((messageBytes - bytes) >> 3);
        return more();
    }

    /** A message of {@code bytes} written before left the HTTP/2 stream; returns the credit to give now (0: none). */
    int sent(int bytes) {
        queuedBytes -= bytes;
        queuedMessages--;
        return more();
    }

    /** Bytes written to the HTTP/2 stream and not yet on the socket (for tests). */
    long queuedBytes() {
        return queuedBytes;
    }

    private int more() {
        long size = Math.max(1, messageBytes);
        long fit = Math.min(Math.max(0, MAX_MESSAGES - queuedMessages), Math.max(0, limit - queuedBytes) / size);
        if (fit == 0 && granted == 0 && queuedBytes == 0) {
            fit = 1; // nothing on its way: a message larger than the limit comes, alone
        }
        long more = fit - granted;
        if (more <= 0 || more < (fit + 1) / 2) {
            return 0;
        }
        granted += more;
        return (int) more;
    }
}
