package io.jupiter.benchmark.driver;

/**
 * How a target's server runs.
 *
 * @param host      the address to bind
 * @param port      the port to bind
 * @param ioThreads IO (event loop) threads
 * @param direct    run the service method on the IO thread instead of a provider pool, where the target can
 */
public record ServerSettings(String host, int port, int ioThreads, boolean direct) {
}
