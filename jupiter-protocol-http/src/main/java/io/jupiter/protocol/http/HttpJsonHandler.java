package io.jupiter.protocol.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.transport.Frame;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.List;

/**
 * HTTP/1.1 with JSON, one per connection, after Netty's codec and aggregator: each {@code POST /{service}/{method}}
 * becomes a request frame fired to the frame dispatcher (so the provider chain serves it as a 1.3.1 request of this
 * connection), and each response frame the connection writes back becomes the HTTP response, in request order
 * (HTTP/1.1 pipelining answers in order). A request refused here (bad path, unknown service, bad JSON) is answered
 * here, in its turn, with the status the provider would have sent.
 *
 * <p>Query parameters {@code group} and {@code version} choose among several registrations of one service name.
 * More than {@value #MAX_PIPELINED} requests waiting for their answers close the connection.
 */
final class HttpJsonHandler extends ChannelDuplexHandler {

    /** Requests of one connection sent before their answers, beyond which it is closed. */
    static final int MAX_PIPELINED = 64;

    private static final String JSON = "application/json";

    /** One request, in arrival order, and its response once known. */
    private static final class Pending {
        final long id;
        final boolean keepAlive;
        FullHttpResponse response;

        Pending(long id, boolean keepAlive) {
            this.id = id;
            this.keepAlive = keepAlive;
        }
    }

    private final MethodLookup lookup;
    private final RequestFrames frames;
    private final JsonCalls json;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private long nextId = 1;

    HttpJsonHandler(MethodLookup lookup, RequestFrames frames, JsonCalls json) {
        this.lookup = lookup;
        this.frames = frames;
        this.json = json;
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
            Pending call = new Pending(nextId++, HttpUtil.isKeepAlive(request) && request.decoderResult().isSuccess());
            pending.add(call);
            Frame frame;
            try {
                frame = toFrame(ctx, call.id, request);
            } catch (ForeignCallException e) {
                call.response = error(e.status(), e.getMessage(), request.decoderResult().isFailure()
                        ? HttpResponseStatus.BAD_REQUEST : null);
                writeReady(ctx, null);
                return;
            } catch (RuntimeException e) { // the arguments cannot be written in the server's serializer
                call.response = error(StatusTable.SERVER_ERROR.status(), String.valueOf(e.getMessage()), null);
                writeReady(ctx, null);
                return;
            }
            ctx.fireChannelRead(frame);
        } finally {
            request.release();
        }
    }

    private Frame toFrame(ChannelHandlerContext ctx, long id, FullHttpRequest request) {
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
        return frames.request(ctx.alloc(), id, target, args, null);
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
        Answer answer = Answer.take(frame);
        Pending call = answer == null ? null : find(answer.id());
        if (call == null) {
            promise.trySuccess(); // a heartbeat, or the answer to a call whose connection is gone
            return;
        }
        call.response = answer.status() == Status.OK ? ok(answer.result())
                : error(answer.status(), answer.errorMessage(), null);
        writeReady(ctx, promise);
    }

    private Pending find(long id) {
        for (Pending call : pending) {
            if (call.id == id) {
                return call;
            }
        }
        return null;
    }

    /** Writes the responses known at the head of the queue; {@code promise} completes with the last of them. */
    private void writeReady(ChannelHandlerContext ctx, ChannelPromise promise) {
        boolean wrote = false;
        while (!pending.isEmpty() && pending.peek().response != null) {
            Pending call = pending.poll();
            FullHttpResponse response = call.response;
            HttpUtil.setKeepAlive(response, call.keepAlive);
            boolean last = pending.isEmpty() || pending.peek().response == null;
            ChannelPromise written = last && promise != null ? promise : ctx.newPromise();
            ctx.write(response, written);
            if (!call.keepAlive) {
                written.addListener(ChannelFutureListener.CLOSE);
            }
            wrote = true;
            if (last) {
                promise = null;
            }
        }
        if (promise != null) {
            promise.trySuccess();
        }
        if (wrote) {
            ctx.flush();
        }
    }

    private FullHttpResponse ok(Object result) {
        byte[] body;
        try {
            body = json.result(result);
        } catch (Exception e) {
            return error(StatusTable.SERVER_ERROR.status(),
                    "the result cannot be written as JSON: " + e.getMessage(), null);
        }
        return response(HttpResponseStatus.OK, body);
    }

    private FullHttpResponse error(Status status, String message, HttpResponseStatus override) {
        HttpResponseStatus code = override != null ? override : HttpResponseStatus.valueOf(StatusCodes.http(status));
        return response(code, json.error(status, message));
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
    }
}
