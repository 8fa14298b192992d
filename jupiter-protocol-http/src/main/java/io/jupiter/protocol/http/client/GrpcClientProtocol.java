package io.jupiter.protocol.http.client;

import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.jupiter.common.LogText;
import io.jupiter.common.NamedThreadFactory;
import io.jupiter.common.Requires;
import io.jupiter.rpc.exception.PayloadTooLargeException;
import io.jupiter.rpc.exception.RequestNotSentException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.protocol.ClientProtocol;
import io.jupiter.rpc.protocol.ForeignCall;
import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.TlsConfig;
import io.jupiter.transport.TransportException;
import io.jupiter.transport.netty.ReloadingSslContext;
import io.jupiter.transport.netty.internal.TlsGate;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.ReferenceCountUtil;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls gRPC servers (grpc-java's, or any language's) from a Jupiter proxy: give it to
 * {@code ProxyBuilder.protocol(...)} with the servers' addresses, and every call of the proxy is a gRPC call (unary,
 * or a server, client or bidirectional stream) under the proxy's own load balancing, cluster strategy (fail-over,
 * hedging), outlier ejection, client throttling, interceptors and metrics.
 *
 * <pre>{@code
 * GrpcClientProtocol grpc = GrpcClientProtocol.builder().methodNames(GrpcClientProtocol.UPPER_CAMEL).build();
 * Greeter greeter = client.proxy(Greeter.class).name("helloworld.Greeter").protocol(grpc)
 *         .address("10.0.0.1:50051,10.0.0.2:50051").build();
 * HelloReply reply = greeter.sayHello(HelloRequest.newBuilder().setName("Ada").build());
 * }</pre>
 *
 * <p>A method is {@code R m(Q)} or {@code CompletableFuture<R> m(Q)} with protobuf messages {@code Q} and {@code R};
 * {@code Flow.Publisher<R> m(Q)}: a server stream, opened when subscribed and read as its subscriber asks;
 * {@code R m(Flow.Publisher<Q>)} or {@code CompletableFuture<R> m(Flow.Publisher<Q>)}: a client stream, whose
 * publisher is asked only for what the HTTP/2 stream's window can take;
 * {@code Flow.Publisher<R> m(Flow.Publisher<Q>)}: a bidirectional stream, both. Other shapes are refused when the
 * proxy is built. A call goes to {@code /{service}/{method}}, the service being the proxy's service name
 * ({@code ProxyBuilder.name}, the interface's name by default) and the method named by {@link Builder#methodNames}
 * (the Java name by default).
 * The attempt's timeout goes out as {@code grpc-timeout} and is enforced here too (the stream is reset when it
 * passes); attachments go out as ASCII metadata; a gRPC status comes back in Jupiter's error model
 * ({@link GrpcStatuses}), with the server's {@code grpc-message}. Cleartext HTTP/2 with prior knowledge, or TLS
 * ({@link Builder#tls}) with {@code h2} chosen by ALPN; one event loop of its own, closed with the client.
 */
public final class GrpcClientProtocol implements ClientProtocol {

    /** Default cap of one response message: 4 MiB, grpc-java's. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
    /** Default cap of a response's header list (HTTP/2 setting): 8 KiB, grpc-java's. */
    public static final int DEFAULT_MAX_HEADER_LIST_BYTES = 8192;
    /** Default cap of calls in flight on one connection: 100, the common server setting. */
    public static final int DEFAULT_MAX_STREAMS = 100;
    /** The shortest keep-alive time and timeout {@link Builder#keepAlive} takes, in milliseconds. */
    public static final long MIN_KEEP_ALIVE_MILLIS = 100;

    /** gRPC's usual method names: the Java name with its first letter upper-cased ({@code sayHello -> SayHello}). */
    public static final Function<Method, String> UPPER_CAMEL = m -> Character.toUpperCase(m.getName().charAt(0))
            + m.getName().substring(1);

    private static final Logger logger = LoggerFactory.getLogger(GrpcClientProtocol.class);

    private final int maxMessageBytes;
    private final int maxStreams;
    private final Function<Method, String> methodNames;
    private final EventLoopGroup loop;
    private final Bootstrap bootstrap;
    private final Http2Settings settings;
    /** {@code null}: cleartext. */
    private final ReloadingSslContext tls;
    private final Map<Method, Parser<?>> responseParsers = new ConcurrentHashMap<>();
    private final Map<Method, Shape> shapes = new ConcurrentHashMap<>();
    private final StreamsRead streamsRead = new StreamsRead();
    /** {@code null}: no keep-alive pings (the default). */
    private final KeepAlivePings.KeepAlive keepAlive;

    private GrpcClientProtocol(Builder builder) {
        this.maxMessageBytes = builder.maxMessageBytes;
        this.maxStreams = builder.maxStreams;
        this.methodNames = builder.methodNames;
        this.keepAlive = builder.keepAliveMillis == 0 ? null : new KeepAlivePings.KeepAlive(builder.keepAliveMillis,
                builder.keepAliveTimeoutMillis, builder.keepAliveWithoutCalls);
        this.loop = new MultiThreadIoEventLoopGroup(builder.ioThreads,
                new NamedThreadFactory("jupiter-grpc-client", true),
                NioIoHandler.newFactory());
        this.settings = Http2Settings.defaultSettings().pushEnabled(false)
                .maxHeaderListSize(builder.maxHeaderListBytes);
        this.bootstrap = new Bootstrap().group(loop).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, builder.connectTimeoutMillis);
        try {
            this.tls = builder.tls == null ? null : ReloadingSslContext.forClient(builder.tls,
                    List.of(GrpcTlsCheck.H2));
        } catch (RuntimeException e) {
            loop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** The keep-alive time now (doubled by each {@code too_many_pings}); 0: no keep-alive pings. */
    long keepAliveMillis() {
        return keepAlive == null ? 0 : TimeUnit.NANOSECONDS.toMillis(keepAlive.timeNanos());
    }

    /** The handlers of a connection to {@code server}: TLS (when configured), then HTTP/2 and the events. */
    private void addHandlers(Channel channel, GrpcConnectionGroup group, InetSocketAddress server) {
        if (tls != null) {
            tls.addTo(channel.pipeline(), server, null);
            channel.pipeline().addLast(new GrpcTlsCheck(group));
        }
        if (keepAlive != null) {
            channel.pipeline().addLast(new KeepAlivePings(keepAlive));
        }
        channel.pipeline().addLast(
                Http2FrameCodecBuilder.forClient().initialSettings(settings).build(),
                new Http2MultiplexHandler(new ChannelInboundHandlerAdapter()),
                new ConnectionEvents(group, connectionWindowIncrement(), keepAlive));
    }

    /**
     * What the connection's flow-control window grows by at its start: to every stream's window at once
     * ({@code maxStreams} x the stream window), so that streams whose subscribers stopped asking (each holding at
     * most its own window) never stall the connection's other calls.
     */
    private int connectionWindowIncrement() {
        long window = (long) maxStreams * Http2CodecUtil.DEFAULT_WINDOW_SIZE;
        return (int) Math.min(Http2CodecUtil.MAX_INITIAL_WINDOW_SIZE, window) - Http2CodecUtil.DEFAULT_WINDOW_SIZE;
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void checkInterface(Class<?> serviceInterface) {
        for (Method method : serviceInterface.getMethods()) {
            if (!Modifier.isAbstract(method.getModifiers())) {
                continue;
            }
            Shape shape = shape(method);
            Class<?> response = responseType(method);
            if (shape == null || response == null) {
                throw new IllegalArgumentException(serviceInterface.getSimpleName() + "." + method.getName()
                        + " cannot be called over gRPC: expected R m(Q) or CompletableFuture<R> m(Q) (unary),"
                        + " Flow.Publisher<R> m(Q) (a server stream), R m(Flow.Publisher<Q>) or CompletableFuture<R>"
                        + " m(Flow.Publisher<Q>) (a client stream), Flow.Publisher<R> m(Flow.Publisher<Q>)"
                        + " (a bidirectional stream), with protobuf messages Q and R");
            }
            responseParsers.computeIfAbsent(method, m -> prototype(response).getParserForType());
            shapes.put(method, shape);
        }
    }

    /** Whether the caller sends a stream ({@code Flow.Publisher<Q>}) and reads one; {@code null}: neither shape. */
    private static Shape shape(Method method) {
        if (method.getParameterCount() != 1) {
            return null;
        }
        boolean streamOut = method.getReturnType() == Flow.Publisher.class;
        Class<?> parameter = method.getParameterTypes()[0];
        if (parameter == Flow.Publisher.class) {
            return isMessage(typeArgument(method.getGenericParameterTypes()[0]))
                    ? (streamOut ? Shape.BIDI : Shape.CLIENT) : null;
        }
        if (!Message.class.isAssignableFrom(parameter)) {
            return null;
        }
        return streamOut ? Shape.SERVER : Shape.UNARY;
    }

    /**
     * {@code R} of {@code R m(..)}, {@code CompletableFuture<R> m(..)} or {@code Flow.Publisher<R> m(..)} when a
     * protobuf message; else {@code null}.
     */
    private static Class<?> responseType(Method method) {
        Class<?> returned = method.getReturnType();
        if (Message.class.isAssignableFrom(returned)) {
            return returned;
        }
        if (returned == CompletableFuture.class || returned == CompletionStage.class
                || returned == Flow.Publisher.class) {
            Class<?> r = typeArgument(method.getGenericReturnType());
            return isMessage(r) ? r : null;
        }
        return null;
    }

    /** {@code T} of {@code X<T>} when a class; else {@code null}. */
    private static Class<?> typeArgument(Type type) {
        return type instanceof ParameterizedType p && p.getActualTypeArguments()[0] instanceof Class<?> c ? c : null;
    }

    private static boolean isMessage(Class<?> type) {
        return type != null && Message.class.isAssignableFrom(type);
    }

    /** What a method of the proxy is on the wire. */
    private enum Shape {
        UNARY, SERVER, CLIENT, BIDI
    }

    private static Message prototype(Class<?> type) {
        try {
            return (Message) type.getMethod("getDefaultInstance").invoke(null);
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalArgumentException("no default instance of " + type.getName() + ": " + e, e);
        }
    }

    @Override
    public ConnectionGroup connect(SocketAddress address, int connections) {
        Requires.argument(address instanceof InetSocketAddress, "gRPC servers are called over TCP: " + address);
        InetSocketAddress server = (InetSocketAddress) address;
        return new GrpcConnectionGroup(address, bootstrap, (channel, group) -> addHandlers(channel, group, server),
                Math.max(1, connections), maxStreams, maxMessageBytes);
    }

    @Override
    public CompletableFuture<Object> call(ConnectionGroup group, ForeignCall call) {
        CompletableFuture<Object> result = new CompletableFuture<>();
        String path = "/" + call.service().name() + "/" + methodNames.apply(call.method());
        String where = "gRPC " + path + " on " + group.address();
        try {
            Parser<?> parser = responseParsers.get(call.method());
            Shape shape = shapes.get(call.method());
            if (parser == null || shape == null) {
                throw new RpcException(StatusTable.CLIENT_ERROR.status(), where + ": not a gRPC method of the proxy");
            }
            Object argument = call.arguments().length == 1 ? call.arguments()[0] : null;
            byte[] request = null;
            Flow.Publisher<?> requests = null;
            if (shape == Shape.CLIENT || shape == Shape.BIDI) {
                if (!(argument instanceof Flow.Publisher<?> publisher)) {
                    throw new RpcException(StatusTable.CLIENT_ERROR.status(), where + ": the stream to send is "
                            + argument + " (expected: a Flow.Publisher of protobuf messages)");
                }
                requests = publisher;
            } else {
                request = requestBytes(argument, where);
            }
            GrpcConnection connection = ((GrpcConnectionGroup) group).next();
            if (connection == null) {
                TransportException failure = group.handshakeFailure();
                throw new RequestNotSentException(where + ": no open connection"
                        + (failure == null ? "" : " (" + failure.getMessage() + ")"), failure);
            }
            Http2Headers headers = headers(tls == null ? "http" : "https", path, (InetSocketAddress) group.address(),
                    call);
            switch (shape) {
                case UNARY -> connection.start(new UnaryCall(headers, request, parser, maxMessageBytes,
                        call.timeoutMillis(), where, result), where);
                case CLIENT -> {
                    // The answer is read on the IO thread: the consumer hands the outcome to the caller's executor.
                    OneAnswer answer = new OneAnswer(result, where);
                    AtomicBoolean read = streamsRead.claim(call.arguments(), result, where);
                    StreamingCall streaming = new StreamingCall(headers, new RequestStream(requests, maxMessageBytes,
                            where, () -> read.set(true)), parser, maxMessageBytes, call.timeoutMillis(), where,
                            answer, null);
                    answer.onSubscribe(streaming);
                    connection.start(streaming, where);
                }
                default -> {
                    // The attempt's answer is the stream, not started: it opens when subscribed.
                    byte[] one = request;
                    Flow.Publisher<?> sent = requests;
                    result.complete(new ResponseStream(connection, headers, sent == null ? () -> Requests.one(one)
                            : () -> new RequestStream(sent, maxMessageBytes, where, () -> { }), parser,
                            maxMessageBytes, call.timeoutMillis(), where, call.callbackExecutor()));
                }
            }
        } catch (RpcException e) {
            result.completeExceptionally(e);
        }
        return result;
    }

    /** The one request message of a unary call or a server stream, serialized, within the message cap. */
    private byte[] requestBytes(Object argument, String where) {
        if (!(argument instanceof Message message)) {
            throw new RpcException(StatusTable.CLIENT_ERROR.status(), where + ": the request is " + argument
                    + " (expected: a protobuf message)");
        }
        int size = message.getSerializedSize();
        if (size > maxMessageBytes) {
            throw new PayloadTooLargeException(StatusTable.CLIENT_ERROR.status(), where + ": the request is "
                    + size + " bytes, above the " + maxMessageBytes + "-byte message cap: not sent");
        }
        return message.toByteArray();
    }

    private static Http2Headers headers(String scheme, String path, InetSocketAddress server, ForeignCall call) {
        Http2Headers headers = new DefaultHttp2Headers()
                .method("POST").scheme(scheme).path(path)
                .authority(server.getHostString() + ":" + server.getPort())
                .set("content-type", "application/grpc")
                .set("te", "trailers")
                .set("user-agent", "jupiter-grpc-client")
                .set("grpc-timeout", GrpcCallTimeout.encode(call.timeoutMillis()));
        if (call.attachments() != null) {
            for (Map.Entry<String, String> attachment : call.attachments().entrySet()) {
                String name = attachment.getKey().toLowerCase(Locale.ROOT);
                if (name.startsWith("jupiter.")) {
                    continue; // the consumer's own bookkeeping, not the application's metadata
                }
                if (!validName(name) || !(name.endsWith("-bin") ? base64(attachment.getValue())
                        : validValue(attachment.getValue()))) {
                    throw new RpcException(StatusTable.CLIENT_ERROR.status(), "attachment " + attachment.getKey()
                            + " cannot be gRPC metadata (names: a-z 0-9 - _ . and not grpc-*; values: printable"
                            + " ASCII, or for a name ending in -bin the base64 of the bytes): not sent");
                }
                headers.set(name, attachment.getValue());
            }
        }
        return headers;
    }

    private static boolean validName(String name) {
        if (name.isEmpty() || name.equals("-bin") || name.startsWith("grpc-") || name.equals("te")
                || name.equals("content-type") || name.equals("user-agent")) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.')) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code value} is base64 (padded or not), as the value of binary ({@code -bin}) metadata travels. */
    private static boolean base64(String value) {
        if (value == null) {
            return false;
        }
        try {
            Base64.getDecoder().decode(value);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean validValue(String value) {
        if (value == null) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        if (tls != null) {
            tls.close();
        }
    }

    /**
     * What the connection hears beside its streams: it is ready for calls once active (with TLS: once the handshake
     * succeeded and h2 was chosen); a GOAWAY replaces it (one saying {@code too_many_pings} also makes the keep-alive
     * pings half as frequent); the rest is dropped.
     */
    private static final class ConnectionEvents extends ChannelInboundHandlerAdapter {

        private static final String TOO_MANY_PINGS = "too_many_pings";

        private final GrpcConnectionGroup group;

        private final int windowIncrement;
        /** {@code null}: no keep-alive pings. */
        private final KeepAlivePings.KeepAlive keepAlive;

        ConnectionEvents(GrpcConnectionGroup group, int windowIncrement, KeepAlivePings.KeepAlive keepAlive) {
            this.group = group;
            this.windowIncrement = windowIncrement;
            this.keepAlive = keepAlive;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            if (windowIncrement > 0) {
                ctx.writeAndFlush(new DefaultHttp2WindowUpdateFrame(windowIncrement)); // the connection's window
            }
            group.ready(ctx.channel());
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof Http2GoAwayFrame goAway) {
                    String debug = goAway.content().toString(StandardCharsets.US_ASCII);
                    if (goAway.errorCode() != Http2Error.NO_ERROR.code()) { // the calls it ends say why
                        Http2Error error = Http2Error.valueOf(goAway.errorCode());
                        ctx.channel().attr(GrpcConnection.CLOSE_REASON).setIfAbsent("GOAWAY "
                                + (error == null ? "0x" + Long.toHexString(goAway.errorCode()) : error.name())
                                + (debug.isEmpty() ? "" : " " + LogText.of(debug)));
                    }
                    if (keepAlive != null && goAway.errorCode() == Http2Error.ENHANCE_YOUR_CALM.code()
                            && TOO_MANY_PINGS.equals(debug)) {
                        long millis = keepAlive.tooManyPings();
                        logger.warn("{} said too_many_pings: keep-alive pings now after {} ms without a read",
                                group.address(), millis);
                    }
                    group.goingAway(ctx.channel());
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A connection error: its calls fail as their streams close (saying why), and the group reconnects.
            String reason;
            if (isTls(cause)) {
                // With TLS 1.3 a server refuses a client certificate after the client's handshake ended.
                reason = TlsGate.describe(cause);
                group.handshakeFailed(reason, cause);
            } else {
                reason = "connection error: " + cause.getClass().getSimpleName();
            }
            ctx.channel().attr(GrpcConnection.CLOSE_REASON).setIfAbsent(reason);
            ctx.close();
        }

        private static boolean isTls(Throwable cause) {
            for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
                if (t instanceof SSLException) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The settings of a {@link GrpcClientProtocol}. */
    public static final class Builder {

        private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
        private int maxHeaderListBytes = DEFAULT_MAX_HEADER_LIST_BYTES;
        private int maxStreams = DEFAULT_MAX_STREAMS;
        private int ioThreads = 1;
        private int connectTimeoutMillis = 3000;
        private Function<Method, String> methodNames = Method::getName;
        private TlsConfig tls;
        private long keepAliveMillis;
        private long keepAliveTimeoutMillis;
        private boolean keepAliveWithoutCalls;

        private Builder() {
        }

        /**
         * Calls the servers over TLS ({@code https}), offering {@code h2} by ALPN and refusing a server that does not
         * select it; default none (cleartext HTTP/2 with prior knowledge). The configuration is the transport's own:
         * {@link TlsConfig.Builder#trust} the CAs the servers' certificates must chain to (the JDK's by default),
         * {@link TlsConfig.Builder#keyPair} a client certificate for servers that require one (mutual TLS), and
         * {@link TlsConfig#verifyHostname} (on by default) that the certificate names the host of the address called.
         * Its files are read when the protocol is built, and again for new connections when they change.
         */
        public Builder tls(TlsConfig config) {
            this.tls = Requires.notNull(config, "tls");
            return this;
        }

        /** The largest request or response message, in bytes; default {@value #DEFAULT_MAX_MESSAGE_BYTES}. */
        public Builder maxMessageBytes(int bytes) {
            this.maxMessageBytes = Requires.inRange(bytes, 1, Integer.MAX_VALUE - 16, "maxMessageBytes");
            return this;
        }

        /** The largest response header list, in bytes; default {@value #DEFAULT_MAX_HEADER_LIST_BYTES}. */
        public Builder maxHeaderListBytes(int bytes) {
            this.maxHeaderListBytes = Requires.inRange(bytes, 256, 1 << 20, "maxHeaderListBytes");
            return this;
        }

        /** Calls in flight on one connection; more are refused, not sent; default {@value #DEFAULT_MAX_STREAMS}. */
        public Builder maxStreams(int streams) {
            this.maxStreams = Requires.inRange(streams, 1, 10_000, "maxStreams");
            return this;
        }

        /** The IO threads of this protocol's connections; default 1. */
        public Builder ioThreads(int threads) {
            this.ioThreads = Requires.inRange(threads, 1, 64, "ioThreads");
            return this;
        }

        /** How long opening a connection may take; default 3000 ms. */
        public Builder connectTimeoutMillis(int millis) {
            this.connectTimeoutMillis = Requires.inRange(millis, 1, 600_000, "connectTimeoutMillis");
            return this;
        }

        /**
         * The gRPC method name of a Java method; default its Java name. {@link #UPPER_CAMEL} gives the names
         * {@code protoc} gives to methods declared in the usual style ({@code rpc SayHello}).
         */
        public Builder methodNames(Function<Method, String> names) {
            this.methodNames = Requires.notNull(names, "methodNames");
            return this;
        }

        /**
         * Keep-alive pings, as gRPC's clients send them ({@code keepAliveTime}, {@code keepAliveTimeout}): once
         * nothing was read from a server for {@code time}, the connection sends a {@code PING}; if nothing is read
         * within {@code timeout} after it, the connection is closed, its calls fail at once saying why (rather than at
         * their deadlines: a server that died or a link that drops packets) and a new connection is opened. Default
         * off. Each at least {@value #MIN_KEEP_ALIVE_MILLIS} ms. A connection with no call open is pinged only with
         * {@link #keepAliveWithoutCalls}.
         *
         * <p>Servers limit pings: by gRPC's rule (grpc-java's server and Jupiter's own port), a ping less than 5
         * minutes after the previous one, with no headers or data sent by the server between, is a strike, and the
         * third strike closes the connection with {@code GOAWAY ENHANCE_YOUR_CALM "too_many_pings"}, failing the calls
         * open on it. Below 5 minutes, use it only against servers configured to permit it (grpc-java:
         * {@code permitKeepAliveTime}). On {@code too_many_pings} this client doubles the time for its later
         * connections, as gRPC's clients do.
         */
        public Builder keepAlive(Duration time, Duration timeout) {
            this.keepAliveMillis = keepAliveMillis(time, "time");
            this.keepAliveTimeoutMillis = keepAliveMillis(timeout, "timeout");
            return this;
        }

        /**
         * Whether {@link #keepAlive} pings a connection with no call open too (finding a dead connection before a
         * call is sent on it); default {@code false}. Servers allow such pings at most every 2 hours by gRPC's rule.
         */
        public Builder keepAliveWithoutCalls(boolean withoutCalls) {
            this.keepAliveWithoutCalls = withoutCalls;
            return this;
        }

        private static long keepAliveMillis(Duration value, String name) {
            Requires.notNull(value, name);
            Requires.argument(value.compareTo(Duration.ofMillis(MIN_KEEP_ALIVE_MILLIS)) >= 0
                    && value.compareTo(Duration.ofDays(365)) <= 0, "keepAlive " + name + ": " + value
                    + " (expected: " + MIN_KEEP_ALIVE_MILLIS + " ms to 365 days)");
            return value.toMillis();
        }

        public GrpcClientProtocol build() {
            return new GrpcClientProtocol(this);
        }
    }
}
