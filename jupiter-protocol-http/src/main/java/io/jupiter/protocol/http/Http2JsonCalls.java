package io.jupiter.protocol.http;

import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.transport.ProtocolHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.util.AsciiString;
import java.util.HashMap;
import java.util.Map;

/**
 * HTTP/JSON over HTTP/2, beside gRPC on one connection ({@link GrpcHandler} hands it the streams whose
 * {@code content-type} is {@code application/json}): each stream is one call, served as over HTTP/1.1
 * ({@link JsonExchange}: the same JSON rules, limits, errors and statuses, caller tokens and provider chain); its
 * answer is the stream's response, a server stream's lines its DATA frames.
 *
 * <p>A request body is held until the stream ends, within the body cap ({@code TransportConfig.maxBodySize}), counted
 * over all the connection's calls (gRPC's included): a {@code content-length} above it is answered {@code 413} before
 * any byte of the body is read, and a body that grows past it is answered {@code 413} as soon as it does, its bytes
 * freed; the rest is dropped as it comes, within another cap's worth, past which the stream is reset
 * ({@code NO_ERROR}, RFC 9113 8.1). The connection serves on. The window of a stream is given back as its bytes are
 * held or dropped, so a client cannot send more than that.
 *
 * <p>A server stream's lines are written against the client's HTTP/2 window: the provider's credit
 * ({@link JsonCall#STREAM_WINDOW}) comes back only as lines reach the socket, so a client whose window stays closed
 * holds the producer back rather than lines piling up here. Used on the connection's IO thread.
 */
final class Http2JsonCalls {

    private static final AsciiString JSON = AsciiString.cached(JsonExchange.JSON);

    /** One call: its stream, its request headers, the body so far. */
    private static final class Call extends JsonCall {
        final Http2FrameStream stream;
        final Http2Headers headers;
        CompositeByteBuf body;
        /** Whether its request frame went to the provider (so a reset cancels it there). */
        boolean forwarded;
        /** For a body refused {@code 413}: the bytes of it read and dropped since; else -1. */
        long dropped = -1;

        Call(Http2FrameStream stream, Http2Headers headers) {
            super(stream.id(), ServerSentEvents.asked(headers.get(HttpHeaderNames.ACCEPT)));
            this.stream = stream;
            this.headers = headers;
        }

        /** Frees the body; returns how many bytes it held. */
        int release() {
            if (body == null) {
                return 0;
            }
            int held = body.readableBytes();
            body.release();
            body = null;
            return held;
        }
    }

    private final JsonExchange exchange;
    private final CallerTokens tokens;
    private final ConnectionRefusals refusals;
    private final int maxBodySize;
    private final Map<Integer, Call> calls = new HashMap<>();
    /** Request bytes the JSON calls hold. */
    private long buffered;

    /**
     * @param tokens the connection's caller tokens, shared with its gRPC calls (one token per connection)
     * @param refusals why the provider refused the connection's calls, shared with its gRPC calls
     */
    Http2JsonCalls(JsonExchange exchange, CallerTokens tokens, ConnectionRefusals refusals, int maxBodySize) {
        this.exchange = exchange;
        this.tokens = tokens;
        this.refusals = refusals;
        this.maxBodySize = maxBodySize;
    }

    /** Whether {@code contentType} is JSON's ({@code application/json}, with or without parameters). */
    static boolean isJson(CharSequence contentType) {
        if (contentType == null) {
            return false;
        }
        AsciiString type = AsciiString.of(contentType).trim();
        return type.regionMatches(true, 0, JSON, 0, JSON.length())
                && (type.length() == JSON.length() || type.charAt(JSON.length()) == ';');
    }

    /** Request bytes the JSON calls of the connection hold. */
    long buffered() {
        return buffered;
    }

    /**
     * A HEADERS frame: a new stream with a JSON content type becomes a call; a call's trailers may end it. Returns
     * whether the frame was a JSON call's.
     *
     * @param othersBuffered request bytes the connection's other calls hold
     */
    boolean onHeaders(ChannelHandlerContext ctx, Http2HeadersFrame frame, long othersBuffered) {
        Call call = calls.get(frame.stream().id());
        if (call == null) {
            if (!isJson(frame.headers().get(HttpHeaderNames.CONTENT_TYPE))) {
                return false;
            }
            call = new Call(frame.stream(), frame.headers());
            calls.put(call.stream.id(), call);
            long declared = frame.headers().getLong(HttpHeaderNames.CONTENT_LENGTH, -1L);
            if (declared > maxBodySize - othersBuffered - buffered) {
                tooLarge(ctx, call, "content-length " + declared, declared);
            }
        }
        if (call.dropped >= 0) {
            if (frame.isEndStream()) {
                calls.remove(call.stream.id());
            }
        } else if (frame.isEndStream()) {
            call(ctx, call);
        }
        return true;
    }

    /**
     * A DATA frame: a JSON call's body bytes, held within the cap; returns whether the frame was a JSON call's.
     *
     * @param othersBuffered request bytes the connection's other calls hold
     */
    boolean onData(ChannelHandlerContext ctx, Http2DataFrame frame, long othersBuffered) {
        Call call = calls.get(frame.stream().id());
        if (call == null) {
            return false;
        }
        ByteBuf content = frame.content();
        if (call.dropped >= 0) {
            drop(ctx, call, frame);
            return true;
        }
        if (call.forwarded || call.response != null) {
            return true; // after the request ended: the codec refuses such frames; nothing to hold
        }
        if (othersBuffered + buffered + content.readableBytes() > maxBodySize) {
            tooLarge(ctx, call, "refused after " + (call.body == null ? 0 : call.body.readableBytes()) + " bytes",
                    -1);
            return true;
        }
        if (content.isReadable()) {
            if (call.body == null) {
                call.body = ctx.alloc().compositeBuffer();
            }
            call.body.addComponent(true, content.retain());
            buffered += content.readableBytes();
        }
        giveWindow(ctx, frame);
        if (frame.isEndStream()) {
            call(ctx, call);
        } else {
            ctx.flush();
        }
        return true;
    }

    /**
     * The body of {@code call} passed the cap: it is answered {@code 413} at once, and what it held is freed. The
     * rest of its body is then read and dropped as it comes (a client such as curl 7.88 shows no answer to a
     * request whose stream is reset while it uploads), until it ends or passes another cap's worth, when its stream
     * is reset ({@code NO_ERROR}: stop sending, the answer is complete) and the client gets no more window for it.
     */
    private void tooLarge(ChannelHandlerContext ctx, Call call, String detail, long declared) {
        call.response = exchange.error(StatusTable.BAD_REQUEST.status(), "request body over the " + maxBodySize
                + "-byte cap of the connection's request bodies (" + detail + ")",
                HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE.code());
        respond(ctx, call);
        ctx.flush(); // the answer's DATA leaves the flow controller before a reset could close the stream
        if (declared > 2L * maxBodySize) {
            reset(ctx, call);
            return;
        }
        call.dropped = 0;
        calls.put(call.stream.id(), call);
    }

    /** A DATA frame of a body refused {@code 413}: dropped, its window given back, up to another cap's worth. */
    private void drop(ChannelHandlerContext ctx, Call call, Http2DataFrame frame) {
        call.dropped += frame.content().readableBytes();
        if (call.dropped > maxBodySize) {
            calls.remove(call.stream.id());
            reset(ctx, call);
            return;
        }
        if (frame.isEndStream()) {
            calls.remove(call.stream.id());
        }
        giveWindow(ctx, frame);
        ctx.flush();
    }

    private static void reset(ChannelHandlerContext ctx, Call call) {
        ctx.write(new DefaultHttp2ResetFrame(Http2Error.NO_ERROR).stream(call.stream));
        ctx.flush();
    }

    private static void giveWindow(ChannelHandlerContext ctx, Http2DataFrame frame) {
        int bytes = frame.initialFlowControlledBytes();
        if (bytes > 0) {
            ctx.write(new DefaultHttp2WindowUpdateFrame(bytes).stream(frame.stream()));
        }
    }

    /** The request of {@code call} is complete: it goes to the provider, or is answered here. */
    private void call(ChannelHandlerContext ctx, Call call) {
        ByteBuf body = call.body == null ? Unpooled.EMPTY_BUFFER : call.body;
        boolean forwarded;
        try {
            forwarded = exchange.forward(ctx, tokens, call.headers.get(HttpHeaderNames.AUTHORIZATION),
                    call.headers.iterator(), call, String.valueOf(call.headers.method()),
                    String.valueOf(call.headers.path()), body, () -> {
                        if (calls.get(call.stream.id()) == call) {
                            respond(ctx, call);
                            ctx.flush();
                        }
                    });
        } finally {
            buffered -= call.release(); // the request is read (or refused): its bytes are free
        }
        call.forwarded = forwarded;
        if (!forwarded) {
            respond(ctx, call);
        }
        ctx.flush();
    }

    /**
     * A client's {@code RST_STREAM} (or a stream error): the call ends here, and at the provider. Returns whether
     * the stream was a JSON call's.
     */
    boolean onReset(ChannelHandlerContext ctx, int streamId) {
        Call call = calls.remove(streamId);
        if (call == null) {
            return false;
        }
        call.cancelDeadline();
        buffered -= call.release();
        if (call.forwarded) {
            call.forwarded = false;
            ctx.fireChannelRead(RequestFrames.cancel(call.id, call.streamMessages == null));
        }
        return true;
    }

    /**
     * A frame the provider writes to the connection: a JSON call's answer, or its stream's message or end, is
     * written as HTTP/2 frames; returns whether the frame was a JSON call's (it is then released, {@code promise}
     * completed).
     */
    boolean write(ChannelHandlerContext ctx, ByteBuf frame, ChannelPromise promise) {
        if (calls.isEmpty() || frame.readableBytes() < ProtocolHeader.HEADER_SIZE) {
            return false;
        }
        long id = frame.getLong(frame.readerIndex() + ProtocolHeader.ID_OFFSET);
        if (id <= 0 || id > Integer.MAX_VALUE || !calls.containsKey((int) id)) {
            return false;
        }
        Call call = (Call) exchange.answered(ctx, frame, refusals, i -> calls.get((int) i));
        promise.trySuccess();
        if (call != null && calls.get(call.stream.id()) == call) {
            if (call.response != null) {
                respond(ctx, call);
            } else {
                writeStream(ctx, call);
            }
            ctx.flush();
        }
        return true;
    }

    /** Writes {@code call}'s whole answer and ends its stream. */
    private void respond(ChannelHandlerContext ctx, Call call) {
        calls.remove(call.stream.id());
        buffered -= call.release();
        JsonResponse answer = call.response;
        Http2Headers headers = new DefaultHttp2Headers().status(String.valueOf(answer.status()))
                .set(HttpHeaderNames.CONTENT_TYPE, JSON)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, answer.body().length)
                .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
        if (answer.unauthorized()) {
            headers.set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer");
        }
        ctx.write(new DefaultHttp2HeadersFrame(headers).stream(call.stream));
        ctx.write(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(answer.body()), true).stream(call.stream));
    }

    /**
     * Writes the lines {@code call}'s server stream has so far, each a DATA frame that gives the provider credit back
     * once written to the socket (after the client's window let it through), and ends the stream once it ended.
     */
    private void writeStream(ChannelHandlerContext ctx, Call call) {
        if (!call.headSent) {
            call.headSent = true;
            ctx.write(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status(HttpResponseStatus.OK.codeAsText())
                    .set(HttpHeaderNames.CONTENT_TYPE, call.streamContentType())
                    .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE)).stream(call.stream));
        }
        for (byte[] line; (line = call.lines.poll()) != null; ) {
            ctx.write(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(line)).stream(call.stream))
                    .addListener(written -> call.lineWritten(ctx, written));
        }
        if (call.ended) {
            calls.remove(call.stream.id());
            ctx.write(new DefaultHttp2DataFrame(Unpooled.EMPTY_BUFFER, true).stream(call.stream));
        }
    }

    /**
     * A request this module serves neither as gRPC nor as JSON: {@code 415}, with a JSON body saying what is
     * accepted.
     */
    void unsupported(ChannelHandlerContext ctx, Http2FrameStream stream, Http2Headers request) {
        Call call = new Call(stream, request);
        CharSequence type = request.get(HttpHeaderNames.CONTENT_TYPE);
        call.response = exchange.error(StatusTable.BAD_REQUEST.status(), (type == null ? "no content-type"
                : "content-type " + type) + " (expected: POST with application/json for HTTP/JSON, or"
                + " application/grpc for gRPC)", HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE.code());
        respond(ctx, call);
        ctx.flush();
    }

    /** Frees what the calls hold (the connection is gone). */
    void release() {
        calls.values().forEach(call -> {
            call.cancelDeadline();
            call.release();
        });
        calls.clear();
        buffered = 0;
    }
}
