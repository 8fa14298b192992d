package io.jupiter.junit5;

import io.jupiter.common.Requires;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ProxyBuilder;
import io.jupiter.testkit.LeakDetectionExtension;
import io.jupiter.transport.TransportAddresses;
import io.netty.util.ResourceLeakDetector;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts a {@link JupiterServer} with the given services for a test, and a {@link JupiterClient} to call it; stops
 * both afterwards and fails the test on what it left behind.
 *
 * <pre>{@code
 * class GreeterTest {
 *     @RegisterExtension
 *     static final JupiterServerExtension server = JupiterServerExtension.builder()
 *             .service(new GreeterImpl())
 *             .build();
 *
 *     @Test
 *     void greets() {
 *         Greeter greeter = server.proxy(Greeter.class).build();
 *         assertThat(greeter.greet("ada")).isEqualTo("hello, ada");
 *     }
 * }
 * }</pre>
 *
 * <p>In a {@code static} field the server serves the whole class; in an instance field, each test gets its own. By
 * default the server runs in process ({@code inprocess:junit-N}: no socket, the same protocol and pipeline as over
 * TCP); {@link Builder#tcp()} puts it on 127.0.0.1 and a free port instead.
 *
 * <p>When it stops, the extension closes the client, then fails the test (one {@link AssertionError} naming every
 * problem) if
 * <ul>
 *   <li>a connection to the server is still open: a client the test built and did not close;</li>
 *   <li>a thread named {@code jupiter-*} started since the server did is still alive after a few seconds;</li>
 *   <li>Netty reported a leaked buffer. The extension raises Netty's leak detection to {@code paranoid} for the JVM
 *       (every buffer tracked), so a leak is found wherever it happened.</li>
 * </ul>
 */
public final class JupiterServerExtension
        implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

    private static final AtomicInteger names = new AtomicInteger();
    /** How long threads may take to end once everything is closed. */
    private static final long THREAD_GRACE_MILLIS = 10_000;

    private final List<Object> services;
    private final boolean tcp;
    private final Consumer<JupiterServer.Builder> serverSettings;
    private final Consumer<JupiterClient.Builder> clientSettings;

    private JupiterServer server;
    private JupiterClient client;
    private String address;
    private Set<Thread> threadsBefore;
    private boolean perTest;

    private JupiterServerExtension(Builder builder) {
        this.services = List.copyOf(builder.services);
        this.tcp = builder.tcp;
        this.serverSettings = builder.serverSettings;
        this.clientSettings = builder.clientSettings;
    }

    /** A builder: in process, no services yet. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        start();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (server == null) {
            perTest = true; // an instance field: a server for each test
            start();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (perTest) {
            stop();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (!perTest) {
            stop();
        }
    }

    /** The running server. */
    public JupiterServer server() {
        return requireStarted(server);
    }

    /** A client of the running server (closed by the extension). */
    public JupiterClient client() {
        return requireStarted(client);
    }

    /**
     * The server's address as {@link ProxyBuilder#address(String)} takes it: {@code inprocess:NAME} or
     * {@code host:port}.
     */
    public String address() {
        return requireStarted(address);
    }

    /** A proxy builder of {@code serviceInterface} aimed at the server, from {@link #client()}. */
    public <T> ProxyBuilder<T> proxy(Class<T> serviceInterface) {
        return client().proxy(serviceInterface).address(address());
    }

    /** Starts the server and the client (the callbacks call it; tests of the extension too). */
    void start() {
        if (ResourceLeakDetector.getLevel().ordinal() < ResourceLeakDetector.Level.PARANOID.ordinal()) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        }
        LeakDetectionExtension.install();
        threadsBefore = new HashSet<>(Thread.getAllStackTraces().keySet());
        JupiterServer.Builder builder = JupiterServer.builder();
        if (tcp) {
            builder.host("127.0.0.1").port(0);
        } else {
            builder.inProcess("junit-" + names.incrementAndGet());
        }
        serverSettings.accept(builder);
        server = builder.build();
        try {
            for (Object service : services) {
                server.register(service);
            }
            server.start();
            address = TransportAddresses.format(server.boundAddress());
            JupiterClient.Builder clientBuilder = JupiterClient.builder().appName("junit");
            clientSettings.accept(clientBuilder);
            client = clientBuilder.build();
        } catch (RuntimeException | Error e) {
            server.close();
            server = null;
            throw e;
        }
    }

    /**
     * Closes the client and the server, then checks that nothing is left behind.
     *
     * @throws AssertionError naming every connection, thread or buffer left behind
     */
    void stop() {
        if (server == null) {
            return;
        }
        List<String> problems = new ArrayList<>();
        try {
            if (client != null) {
                client.close();
            }
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (server.connectionCount() > 0 && System.nanoTime() - deadline < 0) {
                pause();
            }
            int open = server.connectionCount();
            if (open > 0) {
                problems.add(open + " connection(s) to the server still open after its client closed: a client the "
                        + "test built was not closed");
            }
        } finally {
            server.close();
            server = null;
            client = null;
            address = null;
        }
        List<String> threads = threadsLeft();
        if (!threads.isEmpty()) {
            problems.add("threads still alive " + THREAD_GRACE_MILLIS + " ms after closing: " + threads);
        }
        List<String> leaks = LeakDetectionExtension.drainReports();
        if (!leaks.isEmpty()) {
            problems.add(leaks.size() + " leaked buffer(s):\n" + String.join("\n----\n", leaks));
        }
        if (!problems.isEmpty()) {
            throw new AssertionError("the test left behind: " + String.join("; ", problems));
        }
    }

    /** Threads named {@code jupiter-*} started since {@link #start()} and still alive, after waiting a while. */
    private List<String> threadsLeft() {
        long deadline = System.nanoTime() + THREAD_GRACE_MILLIS * 1_000_000L;
        while (true) {
            List<String> left = new ArrayList<>();
            for (Thread thread : Thread.getAllStackTraces().keySet()) {
                if (thread.isAlive() && thread.getName().startsWith("jupiter-") && !threadsBefore.contains(thread)) {
                    left.add(thread.getName());
                }
            }
            if (left.isEmpty() || System.nanoTime() - deadline > 0) {
                return left;
            }
            pause();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(10); // polling the server's or the JVM's state; bounded by the caller's deadline
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while stopping the Jupiter server", e);
        }
    }

    private static <T> T requireStarted(T value) {
        if (value == null) {
            throw new IllegalStateException("the Jupiter server is not running: use it from a test, or register the "
                    + "extension with @RegisterExtension");
        }
        return value;
    }

    /** Builds a {@link JupiterServerExtension}. */
    public static final class Builder {
        private final List<Object> services = new ArrayList<>();
        private boolean tcp;
        private Consumer<JupiterServer.Builder> serverSettings = b -> { };
        private Consumer<JupiterClient.Builder> clientSettings = b -> { };

        private Builder() {
        }

        /** Registers {@code implementation} (as {@link JupiterServer#register(Object)} does). */
        public Builder service(Object implementation) {
            services.add(Requires.notNull(implementation, "implementation"));
            return this;
        }

        /** Serves on 127.0.0.1 and a free port instead of in process. */
        public Builder tcp() {
            this.tcp = true;
            return this;
        }

        /** Further server settings (threads, interceptors, serializers, ...); the address is the extension's. */
        public Builder server(Consumer<JupiterServer.Builder> settings) {
            this.serverSettings = Requires.notNull(settings, "settings");
            return this;
        }

        /** Further client settings (interceptors, consumer threads, ...). */
        public Builder client(Consumer<JupiterClient.Builder> settings) {
            this.clientSettings = Requires.notNull(settings, "settings");
            return this;
        }

        /** The extension; register it with {@code @RegisterExtension}. */
        public JupiterServerExtension build() {
            return new JupiterServerExtension(this);
        }
    }
}
