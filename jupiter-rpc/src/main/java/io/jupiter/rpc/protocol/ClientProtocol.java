package io.jupiter.rpc.protocol;

import io.jupiter.transport.ConnectionGroup;
import java.net.SocketAddress;
import java.util.concurrent.CompletableFuture;

/**
 * A foreign wire protocol a consumer calls providers with instead of the 1.3.1 frame
 * ({@link io.jupiter.rpc.ProxyBuilder#protocol}): it owns the connections to each address, and makes one
 * <em>attempt</em> of a call on one of them. Everything above the attempt stays the consumer's own: the load balancer
 * chooses among the addresses whose {@link ConnectionGroup} is available, the cluster strategy retries, fails over or
 * hedges, outlier ejection and client throttling read each attempt's outcome, interceptors and metrics see every
 * call.
 *
 * <p>An attempt's future completes with the result, or with an {@link io.jupiter.rpc.exception.RpcException} whose
 * status says what happened, as the 1.3.1 path reports it: a
 * {@link io.jupiter.rpc.exception.TimeoutException} when its timeout passed, a
 * {@link io.jupiter.rpc.exception.ConnectionException} when its connection was lost (a
 * {@link io.jupiter.rpc.exception.RequestNotSentException} when nothing was sent), the status table's exception for
 * a provider's refusal. The protocol enforces the attempt's timeout itself: the future always completes, at the
 * latest shortly after {@link ForeignCall#timeoutMillis()}. Until it does, the attempt holds a slot of its client's
 * window of calls in flight ({@code JupiterClient.Builder.maxInFlight}), shared with the client's 1.3.1 calls; the
 * consumer takes the slot before {@link #call} and gives it back when the future completes (or is cancelled).
 */
public interface ClientProtocol extends AutoCloseable {

    /**
     * Checks, as a proxy is built, that every method of {@code serviceInterface} can be called with this protocol.
     *
     * @throws IllegalArgumentException naming a method that cannot, and why
     */
    void checkInterface(Class<?> serviceInterface);

    /**
     * Starts connecting to {@code address} in the background with {@code connections} connections, reconnecting
     * while the group is open; {@link ConnectionGroup#close()} closes them.
     */
    ConnectionGroup connect(SocketAddress address, int connections);

    /** One attempt of {@code call} on a connection of {@code group} (one this protocol made); never throws. */
    CompletableFuture<Object> call(ConnectionGroup group, ForeignCall call);

    /** Closes what the protocol holds beyond its groups (its threads); called when its client closes. */
    @Override
    void close();
}
