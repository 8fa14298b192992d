package io.jupiter.rpc.internal.provider;

import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The calls one connection's consumer cancelled (it timed out, or gave up) and that may still wait here for a
 * thread: a request found here when it is about to run is dropped unanswered (issue #35). The consumer asks first
 * whether cancels are understood (a heartbeat with status {@link ProtocolHeader#CALL_CANCELS_ANNOUNCED}), answered
 * once per connection; it then sends a {@link ProtocolHeader#STREAM_CANCEL} with status
 * {@link ProtocolHeader#CALL_CANCEL} and the request's invoke id for each call it stops waiting for.
 *
 * <p>At most {@value #CAPACITY} cancels are remembered per connection, the oldest forgotten first, and each is
 * forgotten once its request is dropped: a peer sending cancels for ids it never sent costs this bounded memory,
 * and only its own connection's later cancels. A cancel that arrives after its request started changes nothing.
 */
final class CancelledCalls {

    /** Cancels remembered per connection; older ones are forgotten (their calls then run if they still wait). */
    static final int CAPACITY = 256;

    /** Invoke ids cancelled, oldest first; guarded by itself (added on the IO thread, taken on provider threads). */
    private final Map<Long, Boolean> ids = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
            return size() > CAPACITY;
        }
    };
    /** How many ids are remembered, readable without the lock: 0 spares every request the look-up. */
    private volatile int remembered;
    /** Whether the consumer's question was answered (IO thread only). */
    private boolean answered;

    /**
     * A frame about cancels, on the connection's IO thread: the consumer's question, or a call's cancel. Returns
     * whether it was one (then it is released here); any other frame is left to the caller.
     *
     * @param cancels the connection's; {@code null} if it is not (or no longer) open
     */
    static boolean received(Connection connection, CancelledCalls cancels, Frame frame) {
        byte code = frame.messageCode();
        boolean question = code == ProtocolHeader.HEARTBEAT
                && (frame.status() & ProtocolHeader.CALL_CANCELS_ANNOUNCED) != 0;
        boolean cancel = code == ProtocolHeader.STREAM_CANCEL && frame.status() == ProtocolHeader.CALL_CANCEL;
        if (!question && !cancel) {
            return false;
        }
        long id = frame.id();
        frame.release();
        if (cancels != null) {
            if (question) {
                cancels.asked(connection);
            } else {
                cancels.cancelled(id);
            }
        }
        return true;
    }

    private void asked(Connection connection) {
        if (!answered) {
            answered = true;
            connection.write(Frames.announcement(connection.alloc(), ProtocolHeader.CALL_CANCELS_ANNOUNCED));
        }
    }

    private void cancelled(long id) {
        synchronized (ids) {
            ids.put(id, Boolean.TRUE);
            remembered = ids.size();
        }
    }

    /** Whether the call {@code id} was cancelled; forgets the cancel if so. From any thread. */
    boolean take(long id) {
        if (remembered == 0) {
            return false;
        }
        synchronized (ids) {
            boolean cancelled = ids.remove(id) != null;
            remembered = ids.size();
            return cancelled;
        }
    }

    /** Cancels remembered now (at most {@link #CAPACITY}). */
    int remembered() {
        return remembered;
    }
}
