package io.jupiter.benchmark.driver;

/**
 * What the load driver needs of a target: start its server, connect its client. An implementation has a public
 * no-argument constructor; {@link DriverMain} creates it by class name, in a JVM whose class path holds the target.
 * Both sides serve and call the original benchmark's {@code hello(String)} of {@code test/service/1.0.0}, which
 * echoes its argument.
 */
public interface BenchmarkTarget {

    /** Starts serving; returns once the server accepts connections. Closing the result stops it. */
    AutoCloseable startServer(ServerSettings settings) throws Exception;

    /**
     * Connects a client with {@link ClientSettings#connections()} connections; returns once calls can be made.
     *
     * @throws UnsupportedOperationException if this target has no such scenario or serializer (the message says so)
     */
    TargetClient connect(ClientSettings settings) throws Exception;
}
