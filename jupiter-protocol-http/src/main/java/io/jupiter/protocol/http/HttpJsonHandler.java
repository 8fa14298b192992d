package io.jupiter.protocol.http;

import io.jupiter.rpc.internal.StatusTable;
import io.netty.buffer.ByteBuf;
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
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;

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

    /** One request, in arrival order, and its answer once known. */
    private static final class Pending extends JsonCall {
        final boolean keepAlive;

        Pending(long id, boolean keepAlive, boolean events) {
            super(id, events);
            this.keepAlive = keepAlive;
        }
    }

    private final JsonExchange exchange;
    private final CallerTokens tokens;
    private final ConnectionRefusals refusals;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private long nextId = 1;

    HttpJsonHandler(JsonExchange exchange, CallerTokens tokens, ConnectionRefusals refusals) {
        this.exchange = exchange;
        this.tokens = tokens;
        this.refusals = refusals;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        refusals.watch();
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
                    ServerSentEvents.asked(request.headers().get(HttpHeaderNames.ACCEPT)));
            pending.add(call);
            if (request.decoderResult().isFailure()) {
                call.response = exchange.error(StatusTable.BAD_REQUEST.status(), null, "malformed HTTP request: "
                        + request.decoderResult().cause());
                writeReady(ctx, null);
            } else if (!exchange.forward(ctx, tokens, request.headers().get(HttpHeaderNames.AUTHORIZATION),
                    request.headers().iteratorCharSequence(), call, request.method().name(), request.uri(),
                    request.content(), () -> writeReady(ctx, null))) {
                writeReady(ctx, null);
            }
        } finally {
            request.release();
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof ByteBuf frame)) {
            ctx.write(msg, promise);
            return;
        }
        exchange.answered(ctx, frame, refusals, this::find);
        writeReady(ctx, promise); // a heartbeat, or the answer to a call whose connection is gone: nothing new
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
     * each line written to the socket giving the provider credit back ({@link JsonCall#STREAM_WINDOW}/2 at a time),
     * and ends it once the stream ended; the responses behind it wait for it.
     */
    private void writeReady(ChannelHandlerContext ctx, ChannelPromise promise) {
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
            FullHttpResponse response = response(call.response);
            HttpUtil.setKeepAlive(response, call.keepAlive);
            ChannelFuture written = ctx.write(response);
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
            head.headers().set(HttpHeaderNames.CONTENT_TYPE, call.streamContentType())
                    .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED)
                    .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
            HttpUtil.setKeepAlive(head, call.keepAlive);
            ctx.write(head);
            wrote = true;
        }
        for (byte[] line; (line = call.lines.poll()) != null; ) {
            ctx.write(new DefaultHttpContent(Unpooled.wrappedBuffer(line)))
                    .addListener(written -> call.lineWritten(ctx, written));
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

    private static FullHttpResponse response(JsonResponse answer) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(answer.status()), Unpooled.wrappedBuffer(answer.body()));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, JsonExchange.JSON)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, answer.body().length)
                .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
        if (answer.unauthorized()) {
            response.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer");
        }
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
        pending.forEach(JsonCall::cancelDeadline);
        pending.clear();
        refusals.forget();
    }
}
