package io.jupiter.transport.netty.internal;

import io.jupiter.transport.TransportConfig;
import io.netty.channel.Channel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts an acceptor's open connections, in total and per remote IP address, and refuses a connection beyond
 * {@link TransportConfig#maxConnections()} or {@link TransportConfig#maxConnectionsPerAddress()}. A connection
 * admitted is counted until its channel closes.
 */
final class ConnectionLimits {

    private final int max;
    private final int maxPerAddress;
    private final AtomicInteger open = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, Integer> perAddress = new ConcurrentHashMap<>();

    ConnectionLimits(TransportConfig config) {
        this.max = config.maxConnections();
        this.maxPerAddress = config.maxConnectionsPerAddress();
    }

    /** Counts {@code channel} in and returns {@code null}, or returns why it is refused (then nothing is counted). */
    String admit(Channel channel) {
        if (open.incrementAndGet() > max) {
            open.decrementAndGet();
            return "already " + max + " connections open (maxConnections)";
        }
        InetAddress address = channel.remoteAddress() instanceof InetSocketAddress remote ? remote.getAddress() : null;
        if (address != null && perAddress.merge(address, 1, Integer::sum) > maxPerAddress) {
            release(address);
            return "already " + maxPerAddress + " connections open from " + address.getHostAddress()
                    + " (maxConnectionsPerAddress)";
        }
        channel.closeFuture().addListener(closed -> release(address));
        return null;
    }

    private void release(InetAddress address) {
        open.decrementAndGet();
        if (address != null) {
            perAddress.computeIfPresent(address, (key, count) -> count == 1 ? null : count - 1);
        }
    }
}
