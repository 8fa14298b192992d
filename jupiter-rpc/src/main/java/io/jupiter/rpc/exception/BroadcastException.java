package io.jupiter.rpc.exception;

import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.transport.TransportAddresses;
import java.net.SocketAddress;

/**
 * A {@linkplain io.jupiter.rpc.cluster.ClusterStrategy#broadcast() broadcast} call failed on one provider: the first
 * failure seen. {@link #provider()} says which one, the cause is that provider's failure as a unicast call would have
 * thrown it, and the status is the cause's (a declared exception of the method counts as
 * {@code SERVICE_EXPECTED_ERROR}). Never safe to retry as a whole: other providers may have run the call.
 */
public class BroadcastException extends RpcException {

    private static final long serialVersionUID = 1L;

    private final SocketAddress provider;

    public BroadcastException(String call, SocketAddress provider, Throwable cause) {
        super(StatusTable.ofOutcome(cause),
                call + " failed on provider " + TransportAddresses.format(provider) + ": " + cause, cause);
        this.provider = provider;
    }

    /** The provider whose failure this is. */
    public SocketAddress provider() {
        return provider;
    }

    @Override
    public boolean isSafeToRetry() {
        return false;
    }
}
