package io.jupiter.monitor.internal;

import io.jupiter.common.ThrottledWarning;
import io.jupiter.monitor.JsonReport;
import io.jupiter.monitor.PrometheusText;
import io.jupiter.transport.netty.ReloadingSslContext;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP metrics endpoint, on the monitor's event loop: {@code GET /metrics} in Prometheus text format and
 * {@code GET /metrics.json}. Every request needs HTTP basic authentication with the monitor password (any user
 * name); anything else is 400, 401, 404, 405 or 413. Failed passwords count in the same {@link AuthThrottle} as the
 * console's: an address past its free failures gets 429 with {@code Retry-After} until its delay has passed.
 *
 * <p>Bounded: at most {@code maxConnections} open at once (more are closed on accept); a request must arrive whole
 * within {@code requestTimeoutMillis} of the connection opening or of the previous response (this is both the read
 * timeout and the keep-alive idle timeout), else the connection is closed; request lines, headers and bodies are
 * capped in size.
 *
 * <p>With a TLS context it serves HTTPS only: a plaintext request is closed at once with one WARN line (at most
 * once a second per address), and the connection counts as open for the request deadline once the handshake is
 * done (the handshake has its own 10 s timeout).
 */
public final class MetricsHttpServer implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(MetricsHttpServer.class);
    private static final int MAX_INITIAL_LINE = 4096;
    private static final int MAX_HEADERS = 8192;
    private static final int MAX_BODY = 4096;
    private static final String TEXT = "text/plain; charset=utf-8";

    private final Attached attached;
    private final PasswordHash password;
    private final AuthThrottle throttle;
    private final EventLoopGroup group;
    private final InetSocketAddress bindAddress;
    private final int maxConnections;
    private final long requestTimeoutMillis;
    private final ChannelGroup connections =
            new DefaultChannelGroup("jupiter-monitor-http", GlobalEventExecutor.INSTANCE);
    private final ReloadingSslContext tls;
    private final ThrottledWarning handshakeFailures = new ThrottledWarning(logger, 1, TimeUnit.SECONDS);
    private volatile Channel serverChannel;

    /**
     * @param tls the TLS context (HTTPS), or {@code null} for plain HTTP; the caller keeps and releases it
     */
    public MetricsHttpServer(EventLoopGroup group, InetSocketAddress bindAddress, Attached attached,
                             PasswordHash password, AuthThrottle throttle, int maxConnections,
                             long requestTimeoutMillis, ReloadingSslContext tls) {
        this.tls = tls;
        this.group = group;
        this.bindAddress = bindAddress;
        this.attached = attached;
        this.password = password;
        this.throttle = throttle;
        this.maxConnections = maxConnections;
        this.requestTimeoutMillis = requestTimeoutMillis;
    }

    /** Binds; returns the bound address. */
    public InetSocketAddress start() {
        ServerBootstrap bootstrap = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (connections.size() >= maxConnections) {
                            ch.close();
                            return;
                        }
                        connections.add(ch);
                        if (tls != null) {
                            tls.addTo(ch.pipeline(), ch.remoteAddress(), handshakeFailures);
                        }
                        ch.pipeline()
                                .addLast(new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADERS, MAX_BODY))
                                .addLast(new HttpObjectAggregator(MAX_BODY))
                                .addLast(new RequestHandler());
                    }
                });
        serverChannel = bootstrap.bind(bindAddress).syncUninterruptibly().channel();
        return address();
    }

    public InetSocketAddress address() {
        Channel channel = serverChannel;
        return channel == null ? null : (InetSocketAddress) channel.localAddress();
    }

    @Override
    public void close() {
        Channel channel = serverChannel;
        if (channel != null) {
            channel.close().syncUninterruptibly();
        }
        connections.close().syncUninterruptibly();
    }

    /** One connection's requests, one at a time, with the deadline for the next. */
    private final class RequestHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

        private ScheduledFuture<?> deadline;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            awaitRequest(ctx);
            ctx.fireChannelActive();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            cancelDeadline();
            ctx.fireChannelInactive();
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            cancelDeadline();
            FullHttpResponse response = respond(ctx, request);
            boolean keepAlive = HttpUtil.isKeepAlive(request) && request.decoderResult().isSuccess();
            HttpUtil.setKeepAlive(response, keepAlive);
            if (keepAlive) {
                ctx.writeAndFlush(response);
                awaitRequest(ctx);
            } else {
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }

        private void awaitRequest(ChannelHandlerContext ctx) {
            deadline = ctx.executor().schedule(() -> {
                ctx.close();
            }, requestTimeoutMillis, TimeUnit.MILLISECONDS);
        }

        private void cancelDeadline() {
            if (deadline != null) {
                deadline.cancel(false);
                deadline = null;
            }
        }
    }

    private FullHttpResponse respond(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (!request.decoderResult().isSuccess()) {
            return response(HttpResponseStatus.BAD_REQUEST, TEXT, "bad request\n");
        }
        String path = new QueryStringDecoder(request.uri()).path();
        if (!path.equals("/metrics") && !path.equals("/metrics.json")) {
            return response(HttpResponseStatus.NOT_FOUND, TEXT, "not found: try /metrics or /metrics.json\n");
        }
        if (!request.method().equals(HttpMethod.GET)) {
            FullHttpResponse refused = response(HttpResponseStatus.METHOD_NOT_ALLOWED, TEXT,
                    "method not allowed: use GET\n");
            refused.headers().set(HttpHeaderNames.ALLOW, "GET");
            return refused;
        }
        InetAddress peer = ((InetSocketAddress) ctx.channel().remoteAddress()).getAddress();
        if (!throttle.tryBegin(peer)) {
            FullHttpResponse busy = response(HttpResponseStatus.TOO_MANY_REQUESTS, TEXT,
                    "another password from this address is being checked, retry later\n");
            busy.headers().set(HttpHeaderNames.RETRY_AFTER, "1");
            return busy;
        }
        Boolean ok = null;
        try {
            long refusedFor = throttle.refusedForMillis(peer);
            if (refusedFor > 0) {
                FullHttpResponse slowDown = response(HttpResponseStatus.TOO_MANY_REQUESTS, TEXT,
                        "too many failed passwords from this address, retry later\n");
                slowDown.headers().set(HttpHeaderNames.RETRY_AFTER, Long.toString((refusedFor + 999) / 1000));
                return slowDown;
            }
            String authorization = request.headers().get(HttpHeaderNames.AUTHORIZATION);
            if (authorization == null) {
                return unauthorized();
            }
            ok = authorized(authorization);
            if (!ok) {
                return unauthorized();
            }
        } finally {
            throttle.end(peer, ok);
        }
        return path.equals("/metrics")
                ? response(HttpResponseStatus.OK, PrometheusText.CONTENT_TYPE,
                        PrometheusText.render(attached.metrics()))
                : response(HttpResponseStatus.OK, "application/json", JsonReport.render(attached.metrics()));
    }

    private static FullHttpResponse unauthorized() {
        FullHttpResponse response = response(HttpResponseStatus.UNAUTHORIZED, TEXT,
                "authentication required (basic, the monitor password)\n");
        response.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Basic realm=\"jupiter-monitor\"");
        return response;
    }

    private static FullHttpResponse response(HttpResponseStatus status, String contentType, String body) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(body.getBytes(StandardCharsets.UTF_8)));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        HttpUtil.setContentLength(response, response.content().readableBytes());
        return response;
    }

    private boolean authorized(String header) {
        if (!header.regionMatches(true, 0, "Basic ", 0, 6) || header.length() > 1024) {
            return false;
        }
        byte[] decoded;
        try {
            decoded = Base64.getDecoder().decode(header.substring(6).trim());
        } catch (IllegalArgumentException e) {
            return false;
        }
        CharBuffer chars = StandardCharsets.UTF_8.decode(ByteBuffer.wrap(decoded));
        Arrays.fill(decoded, (byte) 0);
        int colon = -1;
        for (int i = 0; i < chars.limit(); i++) {
            if (chars.get(i) == ':') {
                colon = i;
                break;
            }
        }
        if (colon < 0) {
            return false;
        }
        char[] candidate = new char[chars.limit() - colon - 1];
        chars.position(colon + 1);
        chars.get(candidate);
        try {
            return password.matches(candidate);
        } finally {
            Arrays.fill(candidate, '\0');
            Arrays.fill(chars.array(), '\0');
        }
    }
}
