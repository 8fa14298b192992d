package io.jupiter.protocol.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.Future;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledFuture;

/**
 * One HTTP/JSON call of a connection, over HTTP/1.1 or HTTP/2, from its request to its answer: a whole response once
 * known, or for a server stream its lines (or events) not written yet, at most its credit at the provider
 * ({@link #STREAM_WINDOW}) and its end. Used on the connection's IO thread.
 */
class JsonCall {

    /** The credit a server stream has at the provider: lines on their way to the client at once. */
    static final int STREAM_WINDOW = 16;

    /** The invoke id of its request frame. */
    final long id;
    /** Whether a server stream is answered as Server-Sent Events (else newline-delimited JSON). */
    final boolean events;
    /** The whole answer, once known; {@code null} before, and for a stream that wrote its first line. */
    JsonResponse response;
    /** For a server stream: the class of its messages; {@code null} for a call. */
    Class<?> streamMessages;
    final ArrayDeque<byte[]> lines = new ArrayDeque<>();
    boolean headSent;
    boolean ended;
    /** Whether the stream is to be cancelled at the provider (a message of it could not be written as JSON). */
    boolean cancelAtProvider;
    /** The timer that answers the call at its deadline; {@code null} for none, or once it ran or was cancelled. */
    ScheduledFuture<?> deadline;
    private int writtenSinceCredit;

    JsonCall(long id, boolean events) {
        this.id = id;
        this.events = events;
    }

    /** Stops its deadline's timer (the call was answered, or is gone). */
    void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }

    /** The content type of its stream's answer. */
    String streamContentType() {
        return events ? ServerSentEvents.CONTENT_TYPE : JsonExchange.NDJSON;
    }

    /**
     * After one of its lines was {@code written} to the socket: gives the provider credit back,
     * {@link #STREAM_WINDOW}/2 at a time, so that a client that stops reading holds the producer back.
     */
    void lineWritten(ChannelHandlerContext ctx, Future<?> written) {
        if (written.isSuccess() && !ended && ++writtenSinceCredit >= STREAM_WINDOW / 2) {
            ctx.fireChannelRead(RequestFrames.credit(ctx.alloc(), id, writtenSinceCredit));
            writtenSinceCredit = 0;
        }
    }
}
