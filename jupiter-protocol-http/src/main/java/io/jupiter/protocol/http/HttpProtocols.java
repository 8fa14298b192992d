package io.jupiter.protocol.http;

import io.jupiter.rpc.protocol.ServerProtocol;

/**
 * HTTP/JSON and gRPC beside the 1.3.1 protocol on a provider's port:
 *
 * <pre>{@code
 * JupiterServer server = JupiterServer.builder().port(18090)
 *         .protocols(HttpProtocols.httpAndGrpc())
 *         .build();
 * }</pre>
 *
 * <p>A connection starting with an HTTP/1.1 request line speaks HTTP/JSON ({@code POST /{service}/{method}}, the
 * body a JSON array of the arguments; server streams as newline-delimited JSON or Server-Sent Events); one starting
 * with the HTTP/2 client preface speaks gRPC (unary calls and the three stream shapes of methods whose messages are
 * protobuf messages, plus the health and reflection services) and, on streams whose content type is
 * {@code application/json}, the same HTTP/JSON; one starting with the 1.3.1 magic is served as without this
 * module. On a server with TLS, all three are served over TLS. Every request goes through the server's
 * provider chain. See docs/protocols.md.
 */
public final class HttpProtocols {

    private HttpProtocols() {
    }

    /**
     * HTTP/JSON (over HTTP/1.1 and HTTP/2) and gRPC over HTTP/2: cleartext with prior knowledge, or over the server's
     * TLS (ALPN {@code h2}, preferred, or {@code http/1.1}), where client certificates name the callers as they do
     * for Jupiter consumers.
     */
    public static ServerProtocol httpAndGrpc() {
        return InteropProtocol::new;
    }
}
