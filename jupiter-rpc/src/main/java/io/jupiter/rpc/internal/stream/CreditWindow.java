package io.jupiter.rpc.internal.stream;

import io.jupiter.transport.ProtocolHeader;

/**
 * The bytes one receiving stream lets in, while its credit on the wire stays counted in messages (so a peer of ours
 * from before byte counting, which knows only message credit, reads the same frames): how many messages may be on
 * their way or queued is the room left under its limit (the {@link StreamWindows#streamBytes}
 * of its server or client), and under its connection's
 * {@link ConnectionCreditWindow}, divided by the size its messages have had. Small messages get a whole message window
 * at a time; large ones only as many as fit.
 *
 * <p>The size a message is counted at rises at once to a larger message and falls slowly (an eighth of the gap a
 * message) towards smaller ones, so a stream whose sizes vary is held to its larger ones. Before its first message a
 * stream counts at the size of its connection's latest message, and before any at its limit /
 * {@link #FIRST_MESSAGES}; either way it lets in at most {@link #FIRST_MESSAGES} messages until its own first arrives
 * (the message window of the releases before byte counting), so a connection whose latest messages were small does
 * not give a new stream of large ones a whole message window. Credit granted
 * is reserved on the connection at that size, and again at the new size each time a message arrives, until its
 * message arrives or the stream ends. A sender that changes sizes
 * on purpose can still put its credit times the body cap on the way, once: credit granted is not taken back. Not
 * thread-safe: its stream's lock guards it.
 */
final class CreditWindow {

    /**
     * Messages a stream lets in before its own first message tells their size: the message window of the releases
     * before byte counting.
     */
    static final int FIRST_MESSAGES = 32;

    /**
     * Windows of bytes a stream may hold arrived and unread before its sender is taken to abuse credit granted at
     * smaller sizes (credit on the wire counts messages, so a sender could otherwise put credit times the body cap on
     * the way): 64 MiB at the default 1 MiB window, above what an honest sender whose messages grow to 64 KiB puts
     * on the way to a reader that stopped with 1,024 messages of credit out.
     */
    static final int CEILING_WINDOWS = 64;

    private final long limit;
    private final ConnectionCreditWindow connection;
    /** Bytes of frames arrived and not yet delivered. */
    private long queuedBytes;
    /** Bytes of messages delivered to a reader that holds them (the blocking iterator) and not yet taken from it. */
    private long heldBytes;
    /** Bytes reserved on the connection for the credit on the wire. */
    private long reservedBytes;
    /** The frame size a message on its way is counted at; 0 until the first arrives. */
    private long messageBytes;
    /** Whether this stream counts in its connection's fair share: from its first grant until it is closed. */
    private boolean joined;
    private boolean closed;
    /** Whether the latest {@link #messages} was held by the stream's share of its connection. */
    private boolean shareBound;

    CreditWindow(long limit, ConnectionCreditWindow connection) {
        this.limit = limit;
        this.connection = connection;
    }

    /** The bytes a frame with a body of {@code bodyBytes} is counted at. */
    static long frameBytes(int bodyBytes) {
        return (long) bodyBytes + ProtocolHeader.HEADER_SIZE;
    }

    private long estimate() {
        if (messageBytes > 0) {
            return messageBytes;
        }
        long latest = connection.latestMessageBytes();
        return latest > 0 ? latest : Math.max(1, limit / FIRST_MESSAGES);
    }

    /**
     * The messages that may be on their way or queued now, {@code queued} arrived and {@code granted} on the wire:
     * as many as fit in the room left here and on the connection, and within the stream's fair share of the
     * connection unless the connection has spare room ({@link ConnectionCreditWindow}); at least 1 when nothing is,
     * so a message larger than the window still comes, alone, and a stream whose connection's room other streams'
     * first grants took still opens and moves, one message at a time (a stream never waits for room with nothing on
     * its way).
     */
    long messages(long queued, long granted) {
        long size = estimate();
        long own = queued + Math.max(0, limit - queuedBytes) / size;
        long shared = queued + granted + connection.room() / size;
        // What this stream holds counts at the size of its messages; the fair share is in bytes held.
        long fair = Math.max(connection.fairShare(joined ? 0 : 1) / size, queued + granted + connection.spare() / size);
        long most = Math.min(Math.min(own, shared), fair);
        shareBound = fair < Math.min(own, shared);
        if (messageBytes == 0) {
            most = Math.min(most, FIRST_MESSAGES);
        }
        return most == 0 && queued + granted == 0 ? 1 : most;
    }

    /** Whether the latest {@link #messages} was held by the stream's share of its connection's window. */
    boolean shareBound() {
        return shareBound;
    }

    /** {@code messages} more were granted: they are reserved on the connection at the size messages have had. */
    void granted(long messages) {
        if (!joined && !closed) {
            joined = true;
            connection.joined();
        }
        long bytes = messages * estimate();
        reservedBytes += bytes;
        connection.reserve(bytes);
    }

    /**
     * A message of {@code bodyBytes} arrived within the credit, {@code grantedBefore} (at least 1) on the wire before
     * it: it is queued at its real size, and the credit still on the wire is reserved at the new size estimate.
     */
    void arrived(int bodyBytes, long grantedBefore) {
        long frame = frameBytes(bodyBytes);
        long before = reservedBytes;
        queuedBytes += frame;
        messageBytes = frame >= messageBytes ? frame : messageBytes - ((messageBytes - frame) >> 3);
        // The credit still on the wire is reserved again at the size messages have now had: credit granted on a
        // guess (a fresh connection's 32 KiB) would otherwise hold its guess until each of its messages arrived.
        reservedBytes = (grantedBefore - 1) * messageBytes;
        connection.arrived(frame, before - reservedBytes);
    }

    /**
     * Whether a message of {@code bodyBytes} would take the bytes arrived and unread past {@link #CEILING_WINDOWS}
     * windows: those queued here and those a holding reader was given and has not yet handed out.
     */
    boolean beyondCeiling(int bodyBytes) {
        return queuedBytes + heldBytes + frameBytes(bodyBytes) > limit * CEILING_WINDOWS;
    }

    /**
     * A message of {@code bodyBytes} queued before was delivered (the connection's count is given back apart); to a
     * reader that holds it until it is taken ({@link #taken}) if {@code held}.
     */
    void delivered(int bodyBytes, boolean held) {
        long frame = frameBytes(bodyBytes);
        queuedBytes -= frame;
        if (held) {
            heldBytes += frame;
        }
    }

    /**
     * A holding reader handed out messages of {@code frames} bytes of frames in all (it may report one before
     * {@link #delivered} ran for it).
     */
    void taken(long frames) {
        heldBytes -= frames;
    }

    /** The stream takes nothing more: the credit still on the wire is no longer reserved. */
    void closed() {
        connection.reserve(-reservedBytes);
        reservedBytes = 0;
        closed = true;
        if (joined) {
            joined = false;
            connection.left();
        }
    }
}
