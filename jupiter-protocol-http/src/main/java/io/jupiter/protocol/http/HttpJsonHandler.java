package io.jupiter.protocol.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.stream.StreamShape;
import io.jupiter.rpc.protocol.RefusalReason;
import io.jupiter.transport.Frame;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;

/**
 * HTTP/1.1 with JSON, one per connection, after Netty's codec and aggregator: each {@code POST /{service}/{method}}
 * becomes a request frame fired to the frame dispatcher (so the provider chain serves it as a 1.3.1 request of this
 * connection), and each response frame the connection writes back becomes the HTTP response, in request order
 * (HTTP/1.1 pipelining answers in order). A request refused here (bad path, unknown service, bad JSON) is answered
 * here, in its turn, with the status the provider would have sent.
 *
 * <p>A server-stream method ({@code Flow.Publisher<R> m(args)}) answers newline-delimited JSON: one chunked
 * {@code application/x-ndjson} response, a line per message, flow-controlled by what the socket takes; or, for a
 * request that accepts {@code text/event-stream}, the same as Server-Sent Events ({@link ServerSentEvents}).
 *
 * <p>Query parameters {@code group} and {@code version} choose among several registrations of one service name.
 * More than {@value #MAX_PIPELINED} requests waiting for their answers close the connection.
 */
final class HttpJsonHandler extends ChannelDuplexHandler {

    /** Requests of one connection sent before their answers, beyond which it is closed. */
    static final int MAX_PIPELINED = 64;

    private static final String JSON = "application/json";
    private static final String NDJSON = "application/x-ndjson";
    /** The credit a server stream has at the provider: lines on their way to the client at once. */
    static final int STREAM_WINDOW = 16;

    /** One request, in arrival order, and its response once known. */
    private static final class Pending {
        final long id;
        final boolean keepAlive;
        /** Whether a server stream is answered as Server-Sent Events (else newline-delimited JSON). */
        final boolean events;
        FullHttpResponse response;
        /** For a server stream: the class of its messages; {@code null} for a call. */
        Class<?> streamMessages;
        /** A stream's lines (or events) not written yet (at most its credit: {@link #STREAM_WINDOW}, and its end). */
        final ArrayDeque<byte[]> lines = new ArrayDeque<>();
        boolean headSent;
        boolean ended;
        int writtenSinceCredit;

        Pending(long id, boolean keepAlive, boolean events) {
            this.id = id;
            this.keepAlive = keepAlive;
            this.events = events;
        }
    }

    private final MethodLookup lookup;
    private final RequestFrames frames;
    private final JsonCalls json;
    private final CallerTokens tokens;
    private final ConnectionRefusals refusals;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private long nextId = 1;
    /** A stream whose message could not be written, to cancel at the provider once out of the write path; or 0. */
    private long cancelAtProvider;

    HttpJsonHandler(MethodLookup lookup, RequestFrames frames, JsonCalls json, CallerTokens tokens,
                    ConnectionRefusals refusals) {
        this.tokens = tokens;
        this.refusals = refusals;
        this.lookup = lookup;
        this.frames = frames;
        this.json = json;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        refusals.watch(ctx.channel());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest request)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        try {
            if (pending.size() >= MAX_PIPELINED) {
                ctx.close();
                return;
            }
            Pending call = new Pending(nextId++, HttpUtil.isKeepAlive(request) && request.decoderResult().isSuccess(),
                    ServerSentEvents.asked(request));
            pending.add(call);
            Frame frame;
            try {
                ForeignCallException refused = request.decoderResult().isSuccess()
                        ? tokens.beforeCall(ctx, request.headers().get(HttpHeaderNames.AUTHORIZATION)) : null;
                if (refused != null) {
                    throw refused;
                }
                frame = toFrame(ctx, call, request);
            } catch (ForeignCallException e) {
                call.response = error(e.status(), e.reason(), e.getMessage(), request.decoderResult().isFailure()
                        ? HttpResponseStatus.BAD_REQUEST : null);
                writeReady(ctx, null);
                return;
            } catch (RuntimeException e) { // the arguments cannot be written in the server's serializer
                call.response = error(StatusTable.SERVER_ERROR.status(), null, String.valueOf(e.getMessage()),
                        null);
                writeReady(ctx, null);
                return;
            }
            ctx.fireChannelRead(frame);
            if (call.streamMessages != null) {
                ctx.fireChannelRead(RequestFrames.credit(ctx.alloc(), call.id, STREAM_WINDOW));
            }
        } finally {
            request.release();
        }
    }

    private Frame toFrame(ChannelHandlerContext ctx, Pending call, FullHttpRequest request) {
        if (request.decoderResult().isFailure()) {
            throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), "malformed HTTP request: "
                    + request.decoderResult().cause());
        }
        if (!HttpMethod.POST.equals(request.method())) {
            throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), request.method() + " " + request.uri()
                    + " (expected: POST /{service}/{method} with a JSON array of the arguments)");
        }
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        String[] parts = uri.path().split("/", -1);
        if (parts.length != 3 || !parts[0].isEmpty() || parts[1].isEmpty() || parts[2].isEmpty()) {
            throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), "path " + uri.path()
                    + " (expected: /{service}/{method})");
        }
        ByteBuf content = request.content();
        JsonNode[] values = json.values(new ByteBufInputStream(content.duplicate()), !content.isReadable());
        CallTarget target = lookup.find(parts[1], parts[2], parameter(uri, "group"), parameter(uri, "version"),
                values.length);
        Object[] args = json.arguments(target.method(), values);
        if (StreamShape.of(target.method()) == StreamShape.SERVER) {
            call.streamMessages = StreamShape.messageType(target.method().getGenericReturnType());
            return frames.streamOpen(ctx.alloc(), call.id, target, args, null);
        }
        if (StreamShape.of(target.method()) != StreamShape.NONE) {
            throw new ForeignCallException(StatusTable.SERVICE_NOT_FOUND.status(), target.method().getName()
                    + " takes a stream: not callable over HTTP/JSON");
        }
        return frames.request(ctx.alloc(), call.id, target, args, null);
    }

    private static String parameter(QueryStringDecoder uri, String name) {
        List<String> values = uri.parameters().get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof ByteBuf frame)) {
            ctx.write(msg, promise);
            return;
        }
        byte code = ProtocolHeader.messageCode(frame.getByte(frame.readerIndex() + ProtocolHeader.SIGN_OFFSET));
        if (code == ProtocolHeader.STREAM_MESSAGE || code == ProtocolHeader.STREAM_END) {
            try {
                streamFrame(frame, code);
            } finally {
                frame.release();
            }
            writeReady(ctx, promise);
            return;
        }
        Answer answer = Answer.take(frame, frames.serializer());
        // Taken whether or not the call still waits, so that no reason outlives its answer.
        RefusalReason reason = answer == null || answer.status() == Status.OK ? null : refusals.take(answer.id());
        Pending call = answer == null ? null : find(answer.id());
        if (call == null) {
            promise.trySuccess(); // a heartbeat, or the answer to a call whose connection is gone
            return;
        }
        call.response = answer.status() == Status.OK ? ok(answer.result())
                : error(answer.status(), reason, answer.errorMessage(), null);
        writeReady(ctx, promise);
    }

    /**
     * A server stream's message (a JSON line) or end, from the provider; written in the stream's turn. An error
     * before the first line is the call's error response; after it, a last line {@code {"status", "message"}}.
     */
    private void streamFrame(ByteBuf frame, byte code) {
        int start = frame.readerIndex();
        long id = frame.getLong(start + ProtocolHeader.ID_OFFSET);
        Status status = Status.fromByte(frame.getByte(start + ProtocolHeader.STATUS_OFFSET));
        RefusalReason refused = code == ProtocolHeader.STREAM_END && status != Status.OK ? refusals.take(id) : null;
        Pending call = find(id);
        if (call == null || call.streamMessages == null || call.ended) {
            return;
        }
        ByteBuf body = frame.slice(start + ProtocolHeader.HEADER_SIZE, frame.readableBytes()
                - ProtocolHeader.HEADER_SIZE);
        String reason = null;
        if (code == ProtocolHeader.STREAM_MESSAGE) {
            try {
                byte[] value = json.result(frames.serializer().read(body, call.streamMessages));
                call.lines.add(call.events ? ServerSentEvents.message(value) : line(value));
                return;
            } catch (Exception e) {
                status = StatusTable.SERVER_ERROR.status();
                reason = "a stream message could not be written as JSON: " + e.getMessage();
                cancelAtProvider = call.id;
            }
        } else if (status != Status.OK) {
            reason = body.toString(StandardCharsets.UTF_8);
        }
        call.ended = true;
        if (reason != null) {
            String message = reason.isEmpty() ? status.name() : reason;
            if (call.headSent || !call.lines.isEmpty()) {
                byte[] error = json.error(status, message);
                call.lines.add(call.events ? ServerSentEvents.error(error) : line(error));
            } else {
                call.response = error(status, refused, message, null);
            }
        } else if (call.events) {
            call.lines.add(ServerSentEvents.end());
        }
    }

    private static byte[] line(byte[] json) {
        byte[] line = Arrays.copyOf(json, json.length + 1);
        line[json.length] = '\n';
        return line;
    }

    private Pending find(long id) {
        for (Pending call : pending) {
            if (call.id == id) {
                return call;
            }
        }
        return null;
    }

    /**
     * Writes the responses known at the head of the queue, in request order, then completes {@code promise}. A
     * server stream at the head writes its lines so far as chunks of one {@code application/x-ndjson} response,
     * each line written to the socket giving the provider credit back ({@link #STREAM_WINDOW}/2 at a time), and
     * ends it once the stream ended; the responses behind it wait for it.
     */
    private void writeReady(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (cancelAtProvider != 0) {
            ctx.fireChannelRead(RequestFrames.cancel(cancelAtProvider, false));
            cancelAtProvider = 0;
        }
        boolean wrote = false;
        while (!pending.isEmpty()) {
            Pending call = pending.peek();
            if (call.response == null) {
                if (call.streamMessages == null) {
                    break; // a call not answered yet
                }
                wrote |= writeStream(ctx, call);
                if (!call.ended) {
                    break;
                }
                pending.poll();
                continue;
            }
            pending.poll();
            HttpUtil.setKeepAlive(call.response, call.keepAlive);
            ChannelFuture written = ctx.write(call.response);
            if (!call.keepAlive) {
                written.addListener(ChannelFutureListener.CLOSE);
            }
            wrote = true;
        }
        if (promise != null) {
            promise.trySuccess();
        }
        if (wrote) {
            ctx.flush();
        }
    }

    /** Writes what {@code call}, a stream at the head of the queue, has so far; returns whether it wrote. */
    private boolean writeStream(ChannelHandlerContext ctx, Pending call) {
        boolean wrote = false;
        if (!call.headSent && (!call.lines.isEmpty() || call.ended)) {
            call.headSent = true;
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            head.headers().set(HttpHeaderNames.CONTENT_TYPE, call.events ? ServerSentEvents.CONTENT_TYPE : NDJSON)
                    .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED)
                    .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
            HttpUtil.setKeepAlive(head, call.keepAlive);
            ctx.write(head);
            wrote = true;
        }
        for (byte[] line; (line = call.lines.poll()) != null; ) {
            ctx.write(new DefaultHttpContent(Unpooled.wrappedBuffer(line))).addListener(written -> {
                if (written.isSuccess() && !call.ended && ++call.writtenSinceCredit >= STREAM_WINDOW / 2) {
                    ctx.fireChannelRead(RequestFrames.credit(ctx.alloc(), call.id, call.writtenSinceCredit));
                    call.writtenSinceCredit = 0;
                }
            });
            wrote = true;
        }
        if (call.ended && call.headSent) {
            ChannelFuture last = ctx.write(LastHttpContent.EMPTY_LAST_CONTENT);
            if (!call.keepAlive) {
                last.addListener(ChannelFutureListener.CLOSE);
            }
            wrote = true;
        }
        return wrote;
    }

    private FullHttpResponse ok(Object result) {
        byte[] body;
        try {
            body = json.result(result);
        } catch (Exception e) {
            return error(StatusTable.SERVER_ERROR.status(), null,
                    "the result cannot be written as JSON: " + e.getMessage(), null);
        }
        return response(HttpResponseStatus.OK, body);
    }

    /**
     * The error response for {@code status}; {@code reason}, the caller's refusal the provider noted (or
     * {@code null}), chooses {@code 401} or {@code 403}.
     */
    private FullHttpResponse error(Status status, RefusalReason reason, String message, HttpResponseStatus override) {
        HttpResponseStatus code = override != null ? override
                : HttpResponseStatus.valueOf(StatusCodes.http(status, reason));
        FullHttpResponse response = response(code, json.error(status, message));
        if (code.code() == StatusCodes.HTTP_UNAUTHORIZED) {
            response.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer");
        }
        return response;
    }

    private static FullHttpResponse response(HttpResponseStatus status, byte[] body) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, JSON)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
        return response;
    }

    /**
     * A peer that closes in the middle of a request (after a 413, say) ends its connection; that is the peer's
     * business, not an incident worth a stack trace.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof PrematureChannelClosureException) {
            ctx.close();
            return;
        }
        ctx.fireExceptionCaught(cause);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        for (Pending call : pending) {
            if (call.response != null) {
                call.response.release();
            }
        }
        pending.clear();
        refusals.forget();
    }
}
