package io.jupiter.transport.netty.internal;

import io.jupiter.common.Requires;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.WriteBatching;
import io.jupiter.transport.netty.ReloadingSslContext;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.local.LocalChannel;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Builds the pipeline of each outbound connection:
 *
 * <pre>
 *  socket
 *    │  SslHandler (per channel)               only with TLS: checks the server's certificate and host name
 *    │  TlsGate (per channel)                  only with TLS: channelActive after the handshake
 *    │  FrameCoalescer (per channel)           outbound: the frames between two flushes share one buffer
 *    │                                         (not on in-process channels, nor without write batching)
 *    │  FlushConsolidation(256)                outbound: the flushes of one read batch become one syscall
 *    │  WriterIdleHeartbeat                    writes a heartbeat when nothing was written for writerIdle
 *    │                                         (left out when writerIdleMillis is 0); pings count as writes
 *    │  ConnectionKeepalive (per channel)      one probe ping on activation; pings a peer that answers them,
 *    │                                         closes the connection when it stays silent for keepaliveTimeout
 *    │                                         (left out when keepaliveTimeoutMillis is 0)
 *    │  FrameDecoder (per channel)             16-byte header checks, heartbeats dropped, pongs reported
 *    │  FrameDispatcher (shared)               FrameHandler callbacks, back-pressure
 *    ▼  group slot (one per slot)              group membership, reconnect when the channel closes
 * </pre>
 */
@Sharable
public final class ClientChannelInitializer extends ChannelInitializer<Channel> {

    private final TransportConfig config;
    private final FrameDispatcher dispatcher;
    private final ChannelHandler watchdog;
    private final ReloadingSslContext tls;
    private final SocketAddress address;
    private final PeerPings peer;

    /**
     * @param watchdog the last handler, told when the channel becomes active (with TLS: once the handshake has
     *                 succeeded) and inactive, and passed the {@code SslHandshakeCompletionEvent}
     * @param tls the TLS context, or {@code null} for plaintext
     * @param address the address connected to: with TLS (TCP only), the server's certificate must name its host
     */
    public ClientChannelInitializer(TransportConfig config, FrameDispatcher dispatcher, ChannelHandler watchdog,
                                    ReloadingSslContext tls, SocketAddress address) {
        this(config, dispatcher, watchdog, tls, address, new PeerPings());
    }

    /**
     * @param peer what is known of the peer at {@code address}, shared by the connections to it
     * @see #ClientChannelInitializer(TransportConfig, FrameDispatcher, ChannelHandler, ReloadingSslContext,
     *      SocketAddress)
     */
    public ClientChannelInitializer(TransportConfig config, FrameDispatcher dispatcher, ChannelHandler watchdog,
                                    ReloadingSslContext tls, SocketAddress address, PeerPings peer) {
        this.peer = Requires.notNull(peer, "peer");
        this.config = Requires.notNull(config, "config");
        this.dispatcher = Requires.notNull(dispatcher, "dispatcher");
        this.watchdog = Requires.notNull(watchdog, "watchdog");
        this.tls = tls;
        this.address = Requires.notNull(address, "address");
        Requires.argument(tls == null || address instanceof InetSocketAddress,
                "TLS is for TCP addresses only: " + address);
    }

    @Override
    protected void initChannel(Channel channel) {
        NettyConnection.configure(channel, config, false);
        ConnectionIncidents.attach(channel, dispatcher.incidents());
        ChannelPipeline pipeline = channel.pipeline();
        if (tls != null) {
            tls.addTo(pipeline, (InetSocketAddress) address, null);
        }
        if (config.writeBatching() != WriteBatching.DISABLE) {
            if (!(channel instanceof LocalChannel)) {
                pipeline.addLast("coalesce", new FrameCoalescer());
            }
            pipeline.addLast("flush", new FlushConsolidation(ServerChannelInitializer.EXPLICIT_FLUSH_AFTER_FLUSHES));
        }
        if (config.writerIdleMillis() > 0) {
            pipeline.addLast("heartbeat", new WriterIdleHeartbeat(config.writerIdleMillis()));
        }
        if (config.keepaliveTimeoutMillis() > 0) {
            pipeline.addLast("keepalive", new ConnectionKeepalive(config, peer));
        }
        pipeline.addLast("decoder", new FrameDecoder(config));
        pipeline.addLast("dispatcher", dispatcher);
        pipeline.addLast("watchdog", watchdog);
    }
}
