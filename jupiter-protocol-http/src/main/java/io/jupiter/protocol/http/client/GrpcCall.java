package io.jupiter.protocol.http.client;

import io.netty.channel.ChannelInboundHandlerAdapter;

/** A gRPC call on its own HTTP/2 stream, as its connection starts it: the stream channel's handler. */
abstract class GrpcCall extends ChannelInboundHandlerAdapter {

    /** Runs {@code free} once when the call ends, however it ends (frees its stream slot on the connection). */
    abstract void onEnd(Runnable free);

    /** Ends the call with {@code error}, if it has not ended. */
    abstract void fail(Throwable error);

    /** Whether the stream reads only when asked ({@code AUTO_READ} off): a stream that reads as its caller asks. */
    boolean readsOnDemand() {
        return false;
    }
}
