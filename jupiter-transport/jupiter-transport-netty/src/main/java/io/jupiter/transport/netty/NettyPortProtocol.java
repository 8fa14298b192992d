package io.jupiter.transport.netty;

import io.jupiter.transport.Connection;
import io.jupiter.transport.PortProtocol;
import io.jupiter.transport.TransportConfig;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelPipeline;
import java.util.List;

/**
 * A {@link PortProtocol} the Netty transport can serve: once a connection's first bytes matched it, it installs its
 * own handlers in place of the 1.3.1 frame decoder.
 *
 * <p>The handlers it installs sit between the connection's TLS, idle and flush handlers and the transport's frame
 * dispatcher, and must keep the transport's contract with the dispatcher: inbound, they fire
 * {@link io.jupiter.transport.Frame}s (requests, as a 1.3.1 consumer would send them), which the dispatcher hands to
 * the {@link io.jupiter.transport.FrameHandler} with the connection's own {@link io.jupiter.transport.Connection};
 * outbound, they receive the complete frames that connection writes ({@code ByteBuf}s built with
 * {@link io.jupiter.transport.Frames}: responses, and heartbeats they may drop) and turn them into their protocol's
 * answers. Caller identity, limits, drain and close thus apply to these connections as to any other.
 */
public interface NettyPortProtocol extends PortProtocol {

    /**
     * Adds this protocol's handlers to {@code pipeline}, each before the handler named {@code beforeName}, for a
     * connection configured by {@code config} (its body cap applies to this protocol's messages too). Runs on the
     * connection's IO thread, before {@code firstBytes} (those {@link #detect} matched; not to be consumed or
     * released here) are handed on to the first handler installed.
     *
     * @param connection the connection of {@code pipeline}'s channel as the dispatcher hands it to the
     *                   {@link io.jupiter.transport.FrameHandler} with each frame (the one the server's stages see)
     */
    void install(ChannelPipeline pipeline, String beforeName, TransportConfig config, ByteBuf firstBytes,
                 Connection connection);

    /**
     * The TLS application protocols (ALPN names, such as {@code "h2"}) a TLS port serving this protocol offers, in
     * the server's order of preference; none by default. ALPN only tells a client which protocol it may speak (an
     * HTTP/2 client over TLS requires {@code "h2"}): the connection's first bytes still choose the handlers, and a
     * client that offers no ALPN (a 1.3.1 consumer) is served as before.
     */
    default List<String> applicationProtocols() {
        return List.of();
    }
}
