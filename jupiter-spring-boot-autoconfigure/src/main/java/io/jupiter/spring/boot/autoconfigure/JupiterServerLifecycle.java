package io.jupiter.spring.boot.autoconfigure;

import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceKey;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the server and publishes its services once the rest of the application has started, and on shutdown
 * unpublishes them and lets the calls in flight finish before anything else stops.
 *
 * <p>Its phase ({@link #PHASE}) is just above that of Spring Boot's web server graceful shutdown: it starts after
 * the web server and stops before it, so that while the RPC server drains, HTTP still answers (the health check shows
 * {@code OUT_OF_SERVICE}) and the beans the services use are all still there. The drain
 * ({@link JupiterServer#shutdownGracefully}) runs on its own thread, bounded by
 * {@code jupiter.server.shutdown-timeout},
 * within Spring's {@code spring.lifecycle.timeout-per-shutdown-phase}. Without {@code @ServiceProviderImpl} beans no
 * port is bound.
 */
public final class JupiterServerLifecycle implements SmartLifecycle {

    /** One above Spring Boot's {@code WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE}. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1024 + 1;

    private static final Logger log = LoggerFactory.getLogger(JupiterServerLifecycle.class);

    /** Where the server is: its health follows. */
    public enum State { NEW, SERVING, DRAINING, STOPPED }

    private final JupiterServer server;
    private final ListableBeanFactory beans;
    private final Duration shutdownTimeout;
    private volatile State state = State.NEW;
    private volatile List<ServiceKey> services = List.of();

    /**
     * @param server          the server to run
     * @param beans           where the {@code @ServiceProviderImpl} beans are found
     * @param shutdownTimeout the longest drain
     */
    public JupiterServerLifecycle(JupiterServer server, ListableBeanFactory beans, Duration shutdownTimeout) {
        this.server = server;
        this.beans = beans;
        this.shutdownTimeout = shutdownTimeout;
    }

    @Override
    public void start() {
        if (state != State.NEW) {
            return;
        }
        Map<String, Object> found = ProvidedServices.find(beans);
        if (found.isEmpty()) {
            state = State.SERVING;
            return;
        }
        services = ProvidedServices.register(server, found);
        InetSocketAddress bound = server.start();
        state = State.SERVING;
        log.info("Jupiter serves {} on {}", services, bound);
    }

    @Override
    public void stop(Runnable callback) {
        if (state != State.SERVING || services.isEmpty()) {
            state = State.STOPPED;
            callback.run();
            return;
        }
        state = State.DRAINING;
        Thread drain = new Thread(() -> {
            try {
                server.shutdownGracefully(Math.max(1, shutdownTimeout.toMillis()));
            } finally {
                state = State.STOPPED;
                callback.run();
            }
        }, "jupiter-drain");
        drain.start();
    }

    @Override
    public void stop() {
        if (state == State.SERVING && !services.isEmpty()) {
            state = State.DRAINING;
            try {
                server.shutdownGracefully(Math.max(1, shutdownTimeout.toMillis()));
            } finally {
                state = State.STOPPED;
            }
        }
        state = State.STOPPED;
    }

    @Override
    public boolean isRunning() {
        return state == State.SERVING || state == State.DRAINING;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /** Where the server is now. */
    public State state() {
        return state;
    }

    /** The keys of the services served (empty before start or without {@code @ServiceProviderImpl} beans). */
    public List<ServiceKey> services() {
        return services;
    }

    /** Whether the server listens (it has services and is serving or draining). */
    public boolean listening() {
        return !services.isEmpty() && isRunning();
    }
}
