package io.jupiter.protocol.http.client;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Parser;
import io.jupiter.rpc.exception.ConnectionException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.internal.StatusTable;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One unary gRPC call on its own HTTP/2 stream: sends the request headers and the one length-prefixed message,
 * reads the response headers, at most {@code maxMessageBytes} of message and the trailers, and completes its future
 * with the message or the failure in Jupiter's error model ({@link GrpcStatuses}). Its deadline is a timer on the
 * stream's event loop: when it fires the stream is reset ({@code RST_STREAM CANCEL}) and the call fails with a
 * timeout. Whatever ends the call closes the stream, which frees its slot on the connection.
 */
final class UnaryCall extends GrpcCall {

    private final Http2Headers requestHeaders;
    private final byte[] requestMessage;
    private final Parser<?> responseParser;
    private final int maxMessageBytes;
    private final long timeoutMillis;
    private final String where;
    final CompletableFuture<Object> result;
    private Http2Headers responseHeaders;
    private CompositeByteBuf body;
    private ScheduledFuture<?> deadline;
    /**
     * When the call was made, just after its {@code grpc-timeout} was written: the server's deadline is no earlier than
     * this plus the timeout, in this JVM's time.
     */
    private final long madeNanos = System.nanoTime();
    /** Frees the call's slot on its connection, once, before the caller hears the outcome. */
    private Runnable freeSlot = () -> { };
    private final AtomicBoolean slotFreed = new AtomicBoolean();

    UnaryCall(Http2Headers requestHeaders, byte[] requestMessage, Parser<?> responseParser, int maxMessageBytes,
              long timeoutMillis, String where, CompletableFuture<Object> result) {
        this.requestHeaders = requestHeaders;
        this.requestMessage = requestMessage;
        this.responseParser = responseParser;
        this.maxMessageBytes = maxMessageBytes;
        this.timeoutMillis = timeoutMillis;
        this.where = where;
        this.result = result;
    }

    /** Runs {@code free} once when the call ends, before its future completes (or when the future is cancelled). */
    @Override
    void onEnd(Runnable free) {
        this.freeSlot = free;
        result.whenComplete((value, error) -> freeSlot());
    }

    private void freeSlot() {
        if (slotFreed.compareAndSet(false, true)) {
            freeSlot.run();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        // A cancel by the caller, or any end, closes the stream (a reset if it is still open).
        result.whenComplete((value, error) -> ctx.channel().close());
        deadline = ctx.executor().schedule(() -> fail(timedOut()), timeoutMillis, TimeUnit.MILLISECONDS);
        writeRequest(ctx, requestHeaders, requestMessage, where);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (result.isDone()) {
                return;
            }
            if (msg instanceof Http2HeadersFrame headers) {
                onHeaders(ctx, headers);
            } else if (msg instanceof Http2DataFrame data) {
                onData(ctx, data);
            }
        } catch (RpcException e) {
            fail(e);
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void onHeaders(ChannelHandlerContext ctx, Http2HeadersFrame frame) {
        Http2Headers headers = frame.headers();
        if (responseHeaders == null) {
            responseHeaders = headers;
            RpcException notGrpc = notGrpc(headers, where);
            if (notGrpc != null) {
                fail(notGrpc);
                return;
            }
            if (!frame.isEndStream()) {
                return;
            }
            // Trailers-only: the status is in these headers.
        }
        end(headers);
    }

    private void onData(ChannelHandlerContext ctx, Http2DataFrame frame) {
        if (responseHeaders == null) {
            fail(new RpcException(StatusTable.UNKNOWN.status(), where + ": a message before the response headers"));
            return;
        }
        ByteBuf content = frame.content();
        if (content.isReadable()) {
            int held = body == null ? 0 : body.readableBytes();
            if ((long) held + content.readableBytes() > (long) maxMessageBytes + PREFIX) {
                fail(new RpcException(StatusTable.CLIENT_ERROR.status(), where + ": the response is above the "
                        + maxMessageBytes + "-byte message cap (RESOURCE_EXHAUSTED): stream reset"));
                return;
            }
            if (body == null) {
                body = ctx.alloc().compositeBuffer();
            }
            body.addComponent(true, content.retain());
        }
        if (frame.isEndStream()) {
            fail(new RpcException(StatusTable.SERVER_ERROR.status(), where + ": the stream ended with no trailers"
                    + " (no grpc-status)"));
        }
    }

    /** The trailers (or trailers-only headers) came: the call's outcome. */
    private void end(Http2Headers trailers) {
        RpcException failure = GrpcStatuses.outcome(trailers, where);
        if (failure != null) {
            fail(failure);
            return;
        }
        Object value;
        try {
            value = parse();
        } catch (RpcException e) {
            fail(e);
            return;
        }
        succeed(value);
    }

    private Object parse() {
        ByteBuf data = body;
        if (data == null || data.readableBytes() < PREFIX) {
            throw new RpcException(StatusTable.SERVER_ERROR.status(), where + ": OK with no response message");
        }
        if (data.getByte(data.readerIndex()) != 0) {
            throw new RpcException(StatusTable.SERVER_ERROR.status(), where
                    + ": a compressed response (none was asked for)");
        }
        long length = data.getUnsignedInt(data.readerIndex() + 1);
        if (length != data.readableBytes() - PREFIX) {
            throw new RpcException(StatusTable.SERVER_ERROR.status(), where + ": one response message expected"
                    + " (declared " + length + " bytes, " + (data.readableBytes() - PREFIX) + " came)");
        }
        try {
            return responseParser.parseFrom(new ByteBufInputStream(data.skipBytes(PREFIX)));
        } catch (InvalidProtocolBufferException e) {
            throw new RpcException(StatusTable.DESERIALIZATION_FAIL.status(), where + ": unreadable response"
                    + " message: " + e.getMessage());
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(new ConnectionException(StatusTable.CLIENT_ERROR.status(), where + ": " + cause.getMessage(), cause));
        ctx.close();
    }

    private RpcException timedOut() {
        return StatusTable.exception(StatusTable.SERVER_TIMEOUT.status(),
                where + ": no answer within " + timeoutMillis + " ms (DEADLINE_EXCEEDED)", null);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (System.nanoTime() - madeNanos >= TimeUnit.MILLISECONDS.toNanos(timeoutMillis)) {
            // The deadline passed: the server's reset (grpc-java resets a call past its deadline) may come before
            // this side's timer, which started once the stream opened.
            fail(timedOut());
            ctx.fireChannelInactive();
            return;
        }
        fail(closedBefore(ctx, where, "answer"));
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseBody();
    }

    private void succeed(Object value) {
        stopTimer();
        releaseBody();
        freeSlot();
        result.complete(value);
    }

    /** Ends the call with {@code error}, if it has not ended; the stream is closed by the future's listener. */
    @Override
    void fail(Throwable error) {
        stopTimer();
        releaseBody();
        if (!result.isDone()) {
            freeSlot();
        }
        result.completeExceptionally(error);
    }

    private void stopTimer() {
        if (deadline != null) {
            deadline.cancel(false);
        }
    }

    private void releaseBody() {
        if (body != null) {
            body.release();
            body = null;
        }
    }
}
