package io.jupiter.monitor.internal;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.jupiter.common.NamedThreadFactory;
import io.jupiter.monitor.JsonReport;
import io.jupiter.monitor.PrometheusText;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The HTTP metrics endpoint (JDK {@link HttpServer}): {@code GET /metrics} in Prometheus text format and
 * {@code GET /metrics.json}. Every request needs HTTP basic authentication with the monitor password (any user
 * name); anything else is 401, 404 or 405.
 */
public final class MetricsHttpServer implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService executor;
    private final Attached attached;
    private final PasswordHash password;

    public MetricsHttpServer(InetSocketAddress bindAddress, Attached attached, PasswordHash password)
            throws IOException {
        this.attached = attached;
        this.password = password;
        this.server = HttpServer.create(bindAddress, 16);
        this.executor = Executors.newSingleThreadExecutor(new NamedThreadFactory("jupiter-monitor-http", true));
        server.setExecutor(executor);
        server.createContext("/", this::handle);
    }

    public InetSocketAddress start() {
        server.start();
        return server.getAddress();
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (!path.equals("/metrics") && !path.equals("/metrics.json")) {
                send(exchange, 404, "text/plain; charset=utf-8", "not found: try /metrics or /metrics.json\n");
                return;
            }
            if (!exchange.getRequestMethod().equals("GET")) {
                exchange.getResponseHeaders().set("Allow", "GET");
                send(exchange, 405, "text/plain; charset=utf-8", "method not allowed: use GET\n");
                return;
            }
            if (!authorized(exchange.getRequestHeaders().getFirst("Authorization"))) {
                exchange.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"jupiter-monitor\"");
                send(exchange, 401, "text/plain; charset=utf-8", "authentication required (basic, the monitor "
                        + "password)\n");
                return;
            }
            if (path.equals("/metrics")) {
                send(exchange, 200, PrometheusText.CONTENT_TYPE, PrometheusText.render(attached.metrics()));
            } else {
                send(exchange, 200, "application/json", JsonReport.render(attached.metrics()));
            }
        }
    }

    private boolean authorized(String header) {
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6) || header.length() > 1024) {
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

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
