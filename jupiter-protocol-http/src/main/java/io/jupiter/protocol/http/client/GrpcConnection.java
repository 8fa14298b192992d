package io.jupiter.protocol.http.client;

import io.jupiter.rpc.exception.RequestNotSentException;
import io.jupiter.transport.Connection;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.util.AttributeKey;
import java.net.SocketAddress;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One HTTP/2 connection to a gRPC server: each call is a stream of its own ({@link UnaryCall},
 * {@link StreamingCall}), at most {@code maxStreams} at once; a call beyond that is refused here, not sent. A
 * {@link Connection} for the consumer's accounting (its address, whether it is open); it carries gRPC calls, not 1.3.1
 * frames, so it writes no frame.
 */
final class GrpcConnection implements Connection {

    /** Why a connection closed on an error (a TLS alert, a protocol error), for the calls it ends. */
    static final AttributeKey<String> CLOSE_REASON = AttributeKey.valueOf("jupiter.grpc.close.reason");

    private final Channel channel;
    private final int maxStreams;
    private final int maxMessageBytes;
    private final AtomicInteger open = new AtomicInteger();
    /** Set when the server sent GOAWAY: no new call goes here, and the connection closes once its calls end. */
    private volatile boolean goingAway;

    GrpcConnection(Channel channel, int maxStreams, int maxMessageBytes) {
        this.channel = channel;
        this.maxStreams = maxStreams;
        this.maxMessageBytes = maxMessageBytes;
    }

    Channel channel() {
        return channel;
    }

    /** Streams open now. */
    int openStreams() {
        return open.get();
    }

    /** Starts {@code call} on a new stream; a call that cannot have one fails with a not-sent error. */
    void start(GrpcCall call, String where) {
        if (open.incrementAndGet() > maxStreams) {
            open.decrementAndGet();
            call.fail(new RequestNotSentException(where + ": " + maxStreams
                    + " calls already in flight on the connection to " + remoteAddress() + " (the stream cap)", null));
            return;
        }
        // The slot is free once the call ended (its stream is then reset or closed), before its caller hears of it.
        call.onEnd(this::streamEnded);
        new Http2StreamChannelBootstrap(channel).option(ChannelOption.AUTO_READ, !call.readsOnDemand())
                .handler(call).open().addListener(opened -> {
            if (!opened.isSuccess()) {
                call.fail(new RequestNotSentException(where + ": no stream on the connection to " + remoteAddress()
                        + ": " + opened.cause() + closeReason(channel), opened.cause()));
            }
        });
    }

    /** {@code " (why)"} when {@code connection} closed on an error, else empty. */
    static String closeReason(Channel connection) {
        String reason = connection == null ? null : connection.attr(CLOSE_REASON).get();
        return reason == null ? "" : " (" + reason + ")";
    }

    private void streamEnded() {
        if (open.decrementAndGet() == 0 && goingAway) {
            channel.close();
        }
    }

    /** The server sent GOAWAY: takes no more calls, closes once those in flight ended. */
    void goingAway() {
        goingAway = true;
        if (open.get() == 0) {
            channel.close();
        }
    }

    @Override
    public SocketAddress remoteAddress() {
        return channel.remoteAddress();
    }

    @Override
    public SocketAddress localAddress() {
        return channel.localAddress();
    }

    @Override
    public boolean isActive() {
        return channel.isActive() && !goingAway;
    }

    @Override
    public boolean isWritable() {
        return channel.isWritable();
    }

    @Override
    public int maxBodySize() {
        return maxMessageBytes;
    }

    @Override
    public ByteBufAllocator alloc() {
        return channel.alloc();
    }

    @Override
    public void write(ByteBuf frame) {
        frame.release();
        throw new UnsupportedOperationException("a gRPC connection carries gRPC calls, not 1.3.1 frames");
    }

    @Override
    public void writeAndClose(ByteBuf frame) {
        write(frame);
    }

    @Override
    public void close() {
        channel.close();
    }

    @Override
    public Executor ioExecutor() {
        return channel.eventLoop();
    }
}
