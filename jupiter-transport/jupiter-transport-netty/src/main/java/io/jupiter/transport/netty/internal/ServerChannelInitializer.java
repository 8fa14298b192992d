package io.jupiter.transport.netty.internal;

import io.jupiter.common.Requires;
import io.jupiter.common.ThrottledWarning;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.WriteBatching;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the pipeline of each accepted connection:
 *
 * <pre>
 *  socket
 *    │  FlushConsolidationHandler(256, true)   outbound: the flushes of one read batch become one syscall
 *    │  IdleStateHandler(readerIdle, 0, 0)     (left out when readerIdleMillis is 0)
 *    │  ReaderIdleCloser (shared)              closes a connection that sent nothing for readerIdle
 *    │  FrameDecoder (per channel)             16-byte header checks, heartbeats dropped
 *    ▼  FrameDispatcher (shared)               FrameHandler callbacks, back-pressure
 * </pre>
 *
 * <p>A connection beyond {@link TransportConfig#maxConnections()} or {@link TransportConfig#maxConnectionsPerAddress()}
 * is closed as soon as it is accepted, with a WARN line at most once a second per remote address.
 *
 * <p>There is no encoder: a {@link io.jupiter.transport.Connection} writes complete frames built with
 * {@link io.jupiter.transport.Frames}. Accepted channels are added to {@code children} so the acceptor can close
 * them all.
 */
@Sharable
public final class ServerChannelInitializer extends ChannelInitializer<Channel> {

    /** Flushes after which {@link FlushConsolidationHandler} flushes even in the middle of a read batch. */
    static final int EXPLICIT_FLUSH_AFTER_FLUSHES = 256;

    private static final Logger logger = LoggerFactory.getLogger(ServerChannelInitializer.class);

    private final TransportConfig config;
    private final FrameDispatcher dispatcher;
    private final ChannelGroup children;
    private final ConnectionLimits limits;
    private final ThrottledWarning refusals = new ThrottledWarning(logger, 1, TimeUnit.SECONDS);

    /** An initializer for the acceptor configured by {@code config}. */
    public ServerChannelInitializer(TransportConfig config, FrameDispatcher dispatcher, ChannelGroup children) {
        this.config = Requires.notNull(config, "config");
        this.dispatcher = Requires.notNull(dispatcher, "dispatcher");
        this.children = Requires.notNull(children, "children");
        this.limits = new ConnectionLimits(config);
    }

    @Override
    protected void initChannel(Channel channel) {
        String refused = limits.admit(channel);
        if (refused != null) {
            refusals.warnFor(peer(channel), "refusing the connection from {}: {}", channel.remoteAddress(), refused);
            channel.close();
            return;
        }
        children.add(channel);
        NettyConnection.configure(channel, config, true);
        ChannelPipeline pipeline = channel.pipeline();
        if (config.writeBatching() != WriteBatching.DISABLE) {
            pipeline.addLast("flush", new FlushConsolidationHandler(EXPLICIT_FLUSH_AFTER_FLUSHES, true));
        }
        if (config.readerIdleMillis() > 0) {
            pipeline.addLast("idle", new IdleStateHandler(config.readerIdleMillis(), 0, 0, TimeUnit.MILLISECONDS));
            pipeline.addLast("idle-close", IdleHandlers.READER_IDLE_CLOSER);
        }
        pipeline.addLast("decoder", new FrameDecoder(config));
        pipeline.addLast("dispatcher", dispatcher);
    }

    private static Object peer(Channel channel) {
        return channel.remoteAddress() instanceof java.net.InetSocketAddress remote ? remote.getAddress() : null;
    }
}
