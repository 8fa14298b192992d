package io.jupiter.protocol.http;

import io.jupiter.rpc.protocol.ServiceCatalog;
import io.jupiter.transport.Connection;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.netty.NettyPortProtocol;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.ApplicationProtocolNames;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Tells HTTP/1.1 and HTTP/2 (prior knowledge, as gRPC clients speak cleartext; over TLS, after ALPN chose
 * {@code h2}) from a connection's first bytes, and installs the handlers of the one it is.
 *
 * <pre>
 *  HTTP/1.1:  HttpServerCodec → HttpObjectAggregator(body cap) → HttpJsonHandler → frame dispatcher
 *  HTTP/2:    Http2FrameCodec → GrpcHandler → frame dispatcher (health and reflection: answered by GrpcHandler;
 *             streams whose content type is application/json: Http2JsonCalls, as HTTP/1.1's JSON)
 * </pre>
 */
final class InteropProtocol implements NettyPortProtocol {

    /** The HTTP/2 client connection preface (RFC 9113, 3.4). */
    static final byte[] HTTP2_PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** The request methods an HTTP/1.1 connection may start with, each followed by a space. */
    private static final byte[][] HTTP1_METHODS = {bytes("POST "), bytes("GET "), bytes("PUT "), bytes("HEAD "),
            bytes("DELETE "), bytes("OPTIONS "), bytes("PATCH ")};

    private final ServiceCatalog catalog;
    private final MethodLookup lookup;
    private final ProtobufMethods protobuf = new ProtobufMethods();
    private final Map<String, BuiltInService> builtIns;

    InteropProtocol(ServiceCatalog catalog) {
        this.catalog = catalog;
        this.lookup = new MethodLookup(catalog);
        ServiceDescriptors descriptors = new ServiceDescriptors(catalog);
        this.builtIns = Stream.of(new HealthService(catalog), new ReflectionService(ReflectionService.V1ALPHA,
                descriptors), new ReflectionService(ReflectionService.V1, descriptors))
                .collect(Collectors.toUnmodifiableMap(BuiltInService::name, s -> s));
    }

    @Override
    public String name() {
        return "http/1.1+json, h2+grpc";
    }

    /**
     * Over TLS: {@code h2} first, so that a client offering both (curl, the JDK's {@code HttpClient}, browsers)
     * speaks HTTP/2, whose JSON ({@link Http2JsonCalls}) and gRPC this module serve; a client offering only
     * {@code http/1.1} gets it.
     */
    @Override
    public List<String> applicationProtocols() {
        return List.of(ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1);
    }

    @Override
    public Detection detect(ByteBuf firstBytes) {
        Detection h2 = prefix(firstBytes, HTTP2_PREFACE);
        if (h2 != Detection.NO_MATCH) {
            return h2;
        }
        boolean more = false;
        for (byte[] method : HTTP1_METHODS) {
            Detection d = prefix(firstBytes, method);
            if (d == Detection.MATCH) {
                return d;
            }
            more |= d == Detection.NEED_MORE;
        }
        return more ? Detection.NEED_MORE : Detection.NO_MATCH;
    }

    @Override
    public void install(ChannelPipeline pipeline, String beforeName, TransportConfig config, ByteBuf firstBytes,
                        Connection connection) {
        if (prefix(firstBytes, HTTP2_PREFACE) == Detection.MATCH) {
            GrpcHandler.install(pipeline, beforeName, config, lookup,
                    new RequestFrames(catalog, "grpc"), protobuf, builtIns,
                    new ConnectionRefusals(catalog.refusalReasons(), connection), jsonExchange(config),
                    catalog.streamWindowBytes());
            return;
        }
        pipeline.addBefore(beforeName, "http-codec", new HttpServerCodec());
        pipeline.addBefore(beforeName, "http-aggregator", new HttpObjectAggregator(config.maxBodySize()));
        pipeline.addBefore(beforeName, "http-json", new HttpJsonHandler(jsonExchange(config), new CallerTokens(config),
                new ConnectionRefusals(catalog.refusalReasons(), connection)));
    }

    /** HTTP/JSON calls of one connection, over HTTP/1.1 or HTTP/2 (the same app name, limits and JSON rules). */
    private JsonExchange jsonExchange(TransportConfig config) {
        return new JsonExchange(lookup, new RequestFrames(catalog, "http"),
                new JsonCalls(config.maxBodySize(), catalog.readLimits()));
    }

    private static Detection prefix(ByteBuf in, byte[] expected) {
        int n = Math.min(in.readableBytes(), expected.length);
        for (int i = 0; i < n; i++) {
            if (in.getByte(in.readerIndex() + i) != expected[i]) {
                return Detection.NO_MATCH;
            }
        }
        if (n == expected.length) {
            return Detection.MATCH;
        }
        return Detection.NEED_MORE;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
