package io.jupiter.benchmark.driver;

/**
 * How a target's client connects and what it calls.
 *
 * @param host        the server's host
 * @param port        the server's port
 * @param scenario    what each call is: {@code hello} (every target) or a call of the rpc-benchmark's user service
 *                    ({@code existUser}, {@code createUser}, {@code getUser}, {@code listUser}), where the target
 *                    has it
 * @param payload     the argument of {@code hello}, one of {@link Payloads}
 * @param serializer  {@code protostuff}, {@code hessian}, {@code kryo} or {@code java}
 * @param connections connections to the server
 * @param ioThreads   IO (event loop) threads
 * @param direct      complete responses on the IO thread instead of a consumer pool, where the target can
 */
public record ClientSettings(String host, int port, String scenario, String payload, String serializer,
                             int connections, int ioThreads, boolean direct) {
}
