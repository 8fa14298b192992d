package io.jupiter.registry.kubernetes;

import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import io.jupiter.registry.ServiceMeta;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.LoggerFactory;

/**
 * fabric8's mock API server in CRUD mode on 127.0.0.1, with a {@link TcpProxy} in front of it for the registry under
 * test (the test itself writes EndpointSlices straight to the server), and a switch that answers the next watches
 * with 410 Gone, as a real API server does when a watch asks for a resource version it no longer has.
 */
final class MockApiServer implements AutoCloseable {

    static final String NAMESPACE = "shop";

    private final AtomicInteger goneToServe = new AtomicInteger();
    private final AtomicInteger goneServed = new AtomicInteger();
    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final TcpProxy proxy;

    MockApiServer() throws IOException {
        KubernetesCrudDispatcher dispatcher = new KubernetesCrudDispatcher() {
            @Override
            public MockResponse handleWatch(String path) {
                if (goneToServe.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    goneServed.incrementAndGet();
                    return new MockResponse().setResponseCode(410).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                            + "\"status\":\"Failure\",\"reason\":\"Expired\",\"code\":410,"
                            + "\"message\":\"too old resource version\"}");
                }
                MockResponse response = super.handleWatch(path);
                WebSocketListener listener = response.getWebSocketListener();
                return listener == null ? response : response.withWebSocketUpgrade(new OffLoopClose(listener));
            }
        };
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        client = server.createClient();
        proxy = new TcpProxy(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getPort())).start();
    }

    /** The registry URL of the namespace, through the proxy. */
    String registryUrl() {
        return "kubernetes://" + NAMESPACE + "?apiServer=" + proxy.url();
    }

    TcpProxy proxy() {
        return proxy;
    }

    /** Answers the next {@code count} watch requests with 410 Gone. */
    void goneOnNextWatches(int count) {
        goneToServe.set(count);
    }

    int goneServed() {
        return goneServed.get();
    }

    /** Creates or replaces a slice. */
    void apply(EndpointSlice slice) {
        client.discovery().v1().endpointSlices().inNamespace(NAMESPACE).resource(slice).createOr(op -> op.update());
    }

    void delete(String sliceName) {
        client.discovery().v1().endpointSlices().inNamespace(NAMESPACE).withName(sliceName).delete();
    }

    @Override
    public void close() {
        proxy.close();
        client.close();
        try {
            server.destroy();
        } catch (IllegalStateException e) {
            // The mock server's event loop can still be stalled by a connection the proxy broke while it had watch
            // events to send (its watch listener then waits for its own executor); it is not what the tests test.
            LoggerFactory.getLogger(MockApiServer.class).warn("mock API server did not stop in time: {}",
                    e.toString());
        }
    }

    /**
     * The mock server's watch listener, with its close callbacks run off the server's event loop. When a client closes
     * a watch while the mock still has events to send on it, the mock's listener waits (up to a minute) for its
     * sender, which waits for the event loop the listener blocks: every connection of that event loop stalls, lists
     * and watches alike. A real API server has no such stall, so the tests take it away rather than measure it.
     */
    private static final class OffLoopClose extends WebSocketListener {

        private static final ExecutorService CLOSER = Executors.newCachedThreadPool(r -> {
            Thread thread = new Thread(r, "test-mock-watch-close");
            thread.setDaemon(true);
            return thread;
        });

        private final WebSocketListener delegate;

        OffLoopClose(WebSocketListener delegate) {
            this.delegate = delegate;
        }

        @Override
        public void onBeforeAccept(WebSocket webSocket, Response response) {
            delegate.onBeforeAccept(webSocket, response);
        }

        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            delegate.onOpen(webSocket, response);
        }

        @Override
        public void onMessage(WebSocket webSocket, String text) {
            delegate.onMessage(webSocket, text);
        }

        @Override
        public void onMessage(WebSocket webSocket, byte[] bytes) {
            delegate.onMessage(webSocket, bytes);
        }

        @Override
        public void onPing(WebSocket webSocket, byte[] bytes) {
            delegate.onPing(webSocket, bytes);
        }

        @Override
        public void onClosing(WebSocket webSocket, int code, String reason) {
            CLOSER.execute(() -> delegate.onClosing(webSocket, code, reason));
        }

        @Override
        public void onClosed(WebSocket webSocket, int code, String reason) {
            CLOSER.execute(() -> delegate.onClosed(webSocket, code, reason));
        }

        @Override
        public void onFailure(WebSocket webSocket, Throwable cause, Response response) {
            CLOSER.execute(() -> delegate.onFailure(webSocket, cause, response));
        }
    }

    /** The state of one endpoint, as the EndpointSlice controller writes it. */
    enum State {
        READY(true, true, false),
        /** The readiness probe fails (still running). */
        UNREADY(false, false, false),
        /** Deleted, still serving what it has (the drain). */
        TERMINATING_SERVING(false, true, true),
        /** Deleted and no longer serving. */
        TERMINATING(false, false, true);

        final boolean ready;
        final boolean serving;
        final boolean terminating;

        State(boolean ready, boolean serving, boolean terminating) {
            this.ready = ready;
            this.serving = serving;
            this.terminating = terminating;
        }
    }

    /** An endpoint at {@code ip} in {@code state}. */
    static Endpoint endpoint(String ip, State state) {
        return new EndpointBuilder().withAddresses(ip).withNewConditions().withReady(state.ready)
                .withServing(state.serving).withTerminating(state.terminating).endConditions().build();
    }

    /**
     * A slice of the Service of {@code service} with the given endpoints on port {@code port} named
     * {@value ServiceLabels#DEFAULT_PORT_NAME}, labelled as the controller copies the Service's labels.
     */
    static EndpointSlice slice(String name, ServiceMeta service, int port, List<Endpoint> endpoints) {
        return slice(name, service, port, endpoints, Map.of());
    }

    static EndpointSlice slice(String name, ServiceMeta service, int port, List<Endpoint> endpoints,
            Map<String, String> extraLabels) {
        Map<String, String> labels = new HashMap<>(extraLabels);
        labels.put("kubernetes.io/service-name", service.name().toLowerCase().replace('.', '-'));
        labels.put(ServiceLabels.GROUP, service.group());
        labels.put(ServiceLabels.SERVICE, service.name());
        labels.put(ServiceLabels.VERSION, service.version());
        return new EndpointSliceBuilder().withNewMetadata().withName(name).withNamespace(NAMESPACE)
                .withLabels(labels).endMetadata().withAddressType("IPv4")
                .addNewPort().withName(ServiceLabels.DEFAULT_PORT_NAME).withPort(port).withProtocol("TCP").endPort()
                .withEndpoints(new ArrayList<>(endpoints)).build();
    }
}
