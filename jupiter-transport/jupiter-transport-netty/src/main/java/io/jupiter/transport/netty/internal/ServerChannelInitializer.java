package io.jupiter.transport.netty.internal;

import io.jupiter.common.Requires;
import io.jupiter.common.ThrottledWarning;
import io.jupiter.transport.PeerIncident;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.WriteBatching;
import io.jupiter.transport.netty.ReloadingSslContext;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.local.LocalChannel;
import io.netty.handler.timeout.IdleStateHandler;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the pipeline of each accepted connection:
 *
 * <pre>
 *  socket
 *    │  SslHandler (per channel)               only with TLS: TLS 1.3/1.2, from the files as they are now
 *    │  TlsGate (per channel)                  only with TLS: channelActive after the handshake; failures closed
 *    │  FrameCoalescer (per channel)           outbound: the frames between two flushes share one buffer
 *    │                                         (not on in-process channels, nor without write batching)
 *    │  FlushConsolidation(256)                outbound: the flushes of one read batch become one syscall
 *    │  IdleStateHandler(readerIdle, 0, 0)     (left out when readerIdleMillis is 0)
 *    │  ReaderIdleCloser (shared)              closes a connection that sent nothing for readerIdle
 *    │  ProtocolSniffer (per channel)          only with other protocols (TransportConfig#protocols): the
 *    │                                         first bytes choose the FrameDecoder or that protocol's handlers
 *    │  FrameDecoder (per channel)             16-byte header checks, heartbeats dropped, pings answered, a
 *    │                                         heartbeat flood closed
 *    ▼  FrameDispatcher (shared)               FrameHandler callbacks, back-pressure
 * </pre>
 *
 * <p>A connection beyond {@link TransportConfig#maxConnections()} or {@link TransportConfig#maxConnectionsPerAddress()}
 * is closed as soon as it is accepted, with a WARN line at most once a second per remote address. With TLS, a peer
 * whose handshake fails (a plaintext client sends no TLS record: it fails on its first bytes) is closed with one
 * such line too.
 *
 * <p>There is no encoder: a {@link io.jupiter.transport.Connection} writes complete frames built with
 * {@link io.jupiter.transport.Frames}. Accepted channels are added to {@code children} so the acceptor can close
 * them all.
 */
@Sharable
public final class ServerChannelInitializer extends ChannelInitializer<Channel> {

    /** Flushes after which {@link FlushConsolidation} flushes even in the middle of a read batch. */
    static final int EXPLICIT_FLUSH_AFTER_FLUSHES = 256;

    private static final Logger logger = LoggerFactory.getLogger(ServerChannelInitializer.class);

    private final TransportConfig config;
    private final FrameDispatcher dispatcher;
    private final ChannelGroup children;
    private final ConnectionLimits limits;
    private final ThrottledWarning handshakeFailures = new ThrottledWarning(logger, 1, TimeUnit.SECONDS);
    private final ReloadingSslContext tls;

    /**
     * An initializer for the acceptor configured by {@code config}.
     *
     * @param tls the TLS context, or {@code null} for plaintext
     */
    public ServerChannelInitializer(TransportConfig config, FrameDispatcher dispatcher, ChannelGroup children,
                                    ReloadingSslContext tls) {
        this.config = Requires.notNull(config, "config");
        this.dispatcher = Requires.notNull(dispatcher, "dispatcher");
        this.children = Requires.notNull(children, "children");
        this.limits = new ConnectionLimits(config);
        this.tls = tls;
    }

    @Override
    protected void initChannel(Channel channel) {
        String refused = limits.admit(channel);
        if (refused != null) {
            dispatcher.incidents().log(channel, PeerIncident.REFUSED, "refusing the connection from {}: {}",
                    Transports.peer(channel), refused);
            channel.close();
            return;
        }
        children.add(channel);
        NettyConnection.configure(channel, config, true);
        ConnectionIncidents.attach(channel, dispatcher.incidents());
        ChannelPipeline pipeline = channel.pipeline();
        if (tls != null) {
            tls.addTo(pipeline, (InetSocketAddress) channel.remoteAddress(), handshakeFailures);
        }
        if (config.writeBatching() != WriteBatching.DISABLE) {
            if (!(channel instanceof LocalChannel)) {
                pipeline.addLast("coalesce", new FrameCoalescer());
            }
            pipeline.addLast("flush", new FlushConsolidation(EXPLICIT_FLUSH_AFTER_FLUSHES));
        }
        if (config.readerIdleMillis() > 0) {
            pipeline.addLast("idle", new IdleStateHandler(config.readerIdleMillis(), 0, 0, TimeUnit.MILLISECONDS));
            pipeline.addLast("idle-close", IdleHandlers.READER_IDLE_CLOSER);
        }
        if (config.protocols().isEmpty()) {
            pipeline.addLast("decoder", new FrameDecoder(config, true));
        } else {
            FirstWritesHold hold = new FirstWritesHold();
            pipeline.addLast("sniffer", new ProtocolSniffer(config, "decoder", hold));
            pipeline.addLast("sniffer-hold", hold);
        }
        pipeline.addLast(ProtocolSniffer.DISPATCHER, dispatcher);
    }
}
