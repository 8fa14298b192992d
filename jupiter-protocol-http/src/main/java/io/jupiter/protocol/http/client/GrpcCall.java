package io.jupiter.protocol.http.client;

import io.jupiter.rpc.exception.ConnectionException;
import io.jupiter.rpc.exception.RequestNotSentException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.internal.StatusTable;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2Headers;

/** A gRPC call on its own HTTP/2 stream, as its connection starts it: the stream channel's handler. */
abstract class GrpcCall extends ChannelInboundHandlerAdapter {

    /** The flag byte (0: not compressed, the only kind sent or read) and the 4-byte length before a message. */
    static final int PREFIX = 5;

    /** Runs {@code free} once when the call ends, however it ends (frees its stream slot on the connection). */
    abstract void onEnd(Runnable free);

    /** Ends the call with {@code error}, if it has not ended. */
    abstract void fail(Throwable error);

    /** Whether the stream reads only when asked ({@code AUTO_READ} off): a stream that reads as its caller asks. */
    boolean readsOnDemand() {
        return false;
    }

    /** Sends the request: its headers, then its one length-prefixed message, which ends the client's side. */
    final void writeRequest(ChannelHandlerContext ctx, Http2Headers headers, byte[] request, String where) {
        writeHeaders(ctx, headers, where);
        ctx.writeAndFlush(message(ctx.alloc(), request, true));
    }

    /** Writes (does not flush) the request headers, which open the stream; a stream that cannot open fails. */
    final void writeHeaders(ChannelHandlerContext ctx, Http2Headers headers, String where) {
        ctx.write(new DefaultHttp2HeadersFrame(headers, false)).addListener(sent -> {
            if (!sent.isSuccess()) {
                fail(new RequestNotSentException(where + ": the stream could not be opened: " + sent.cause(),
                        sent.cause()));
            }
        });
    }

    /** One length-prefixed message, not compressed, as a DATA frame ({@code end}: the last of the client's). */
    static DefaultHttp2DataFrame message(ByteBufAllocator alloc, byte[] bytes, boolean end) {
        ByteBuf message = alloc.buffer(PREFIX + bytes.length);
        message.writeByte(0).writeInt(bytes.length).writeBytes(bytes);
        return new DefaultHttp2DataFrame(message, end);
    }

    /** The failure of a call whose stream closed before its {@code what} (its answer, its end). */
    static ConnectionException closedBefore(ChannelHandlerContext ctx, String where, String what) {
        return new ConnectionException(StatusTable.CLIENT_ERROR.status(), where + ": the stream closed before its "
                + what + " (the connection closed or the server reset it)"
                + GrpcConnection.closeReason(ctx.channel().parent()));
    }

    /** Why {@code headers}, the first of a response, are not a gRPC answer's; {@code null} if they are. */
    static RpcException notGrpc(Http2Headers headers, String where) {
        CharSequence status = headers.status();
        if (status == null || !"200".contentEquals(status)) {
            return new RpcException(StatusTable.UNKNOWN.status(), where + ": HTTP status " + status
                    + " (not a gRPC answer)");
        }
        CharSequence type = headers.get("content-type");
        if (type == null || !type.toString().startsWith("application/grpc")) {
            return new RpcException(StatusTable.UNKNOWN.status(), where + ": content-type " + type
                    + " (not a gRPC answer)");
        }
        return null;
    }
}
