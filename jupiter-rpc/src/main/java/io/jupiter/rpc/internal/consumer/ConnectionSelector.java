package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.exception.ConnectionException;
import io.jupiter.rpc.exception.RequestNotSentException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.balance.Endpoint;
import io.jupiter.rpc.internal.balance.LoadBalancer;
import io.jupiter.rpc.internal.balance.OutlierDetector;
import io.jupiter.transport.Connection;
import io.jupiter.transport.TransportAddresses;
import io.jupiter.transport.TransportException;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;

/**
 * Picks the connection of a call: the load balancer chooses a provider among those with an open connection and not
 * ejected by the {@link OutlierDetector} (all of them, should every one in rotation be disconnected), the provider's
 * group its next connection. When nothing is connected (yet), waits within the call's timeout, unless every
 * provider's connections fail their TLS handshake: that is a configuration mismatch, reported at once. Learns from
 * the end of each attempt ({@link #attemptEnded}) what the detector and a latency-aware balancer need.
 */
final class ConnectionSelector {

    /** How long one wait on a single provider's group lasts before the balancer looks at all of them again. */
    private static final long WAIT_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long PROBE_MARGIN_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Directory directory;
    private final LoadBalancer balancer;
    private final OutlierDetector detector;
    private final boolean tracksAttempts;

    ConnectionSelector(Directory directory, LoadBalancer balancer, OutlierDetector detector, boolean ejects) {
        this.directory = directory;
        this.balancer = balancer;
        this.detector = detector;
        this.tracksAttempts = ejects || balancer.needsLatencies();
    }

    /**
     * Whether the end of an attempt on {@code endpoint} must be reported to {@link #attemptEnded}: not while it is the
     * proxy's only provider, in rotation. Then the balancer has no choice to make and the detector never ejects it
     * (one provider is never ejected), so the accounting would only make every call contend on one provider's
     * counters. It restarts with the next attempt once a second provider comes.
     */
    boolean tracksAttempts(Endpoint endpoint) {
        return tracksAttempts && !aloneInRotation(endpoint);
    }

    /** Whether calls to {@code endpoint} must count its calls in flight (see {@link #tracksAttempts}). */
    boolean countsActive(Endpoint endpoint) {
        return balancer.needsActiveCounts() && !aloneInRotation(endpoint);
    }

    private boolean aloneInRotation(Endpoint endpoint) {
        return directory.endpoints().length == 1 && !endpoint.ejectedOrOnProbation();
    }

    /**
     * An attempt on {@code endpoint} begun at {@code startNanos} ended: answered ({@code error} null, or an error the
     * provider sent: a server error counts as a failure, see {@link OutlierDetector#isServerError}), timed out, lost
     * its connection, or failed here before anything was sent (not the provider's doing: ignored).
     */
    void attemptEnded(Endpoint endpoint, long startNanos, Throwable error) {
        long now = System.nanoTime();
        if (error instanceof AttemptCancelled) {
            // Given up on while still waiting: it took at least this long.
            endpoint.observeLatency(now - startNanos, now);
            detector.abandoned(endpoint);
            return;
        }
        if (error instanceof ConnectionException) {
            detector.failed(endpoint, directory.endpoints(), error, now);
            return;
        }
        if (error instanceof RpcException e && StatusTable.isConsumerSide(e.status())) {
            detector.abandoned(endpoint);
            return;
        }
        endpoint.observeLatency(now - startNanos, now);
        if (error instanceof TimeoutException || detector.isServerError(error)) {
            detector.failed(endpoint, directory.endpoints(), error, now);
        } else {
            detector.answered(endpoint, now);
        }
    }

    /**
     * Whether a provider other than {@code endpoint} is in rotation and connected now, so that a retry would not go
     * back to it (a provider that refused a call as busy is not asked again at once). Never claims a probe.
     */
    boolean hasAnotherThan(Endpoint endpoint) {
        Endpoint[] all = directory.endpoints();
        for (Endpoint e : detector.inRotation(all)) {
            if (e != endpoint && e.isAvailable()) {
                return true;
            }
        }
        return false;
    }

    /** {@code endpoint}, chosen by {@link #selectNow}, will not be sent this call: a probe it claimed is free. */
    void notUsed(Endpoint endpoint) {
        detector.abandoned(endpoint);
    }

    Directory directory() {
        return directory;
    }

    /**
     * The endpoint for a call, avoiding {@code excluded} when another is available.
     *
     * @throws ConnectionException if no provider is connected within the call's timeout
     */
    Endpoint select(MethodInfo info, Endpoint excluded) {
        Endpoint chosen = selectNow(info, excluded);
        if (chosen == null && excluded != null) {
            chosen = selectNow(info, null);
        }
        return chosen != null ? chosen : await(info);
    }

    /**
     * A connected provider other than {@code excluded}, in rotation if one is; {@code null} if there is none now.
     * Never waits.
     */
    Endpoint selectNow(MethodInfo info, Endpoint excluded) {
        Endpoint[] all = directory.endpoints();
        Endpoint[] inRotation = detector.inRotation(all);
        if (inRotation != all) {
            // A probe's end is reported within its timeout; the margin covers the timer's tick and the report.
            Endpoint probe = detector.probe(all, excluded,
                    TimeUnit.MILLISECONDS.toNanos(info.timeoutMillis) + PROBE_MARGIN_NANOS);
            if (probe != null) {
                return probe;
            }
        }
        Endpoint chosen = balancer.select(inRotation, excluded);
        if (chosen == null && inRotation != all && noneAvailable(inRotation)) {
            // Out-of-rotation providers only when every provider in rotation is disconnected: a provider in rotation
            // that is merely excluded (the one a fail-over attempt leaves) is tried again by select, rather than
            // sending the attempt to a provider ejected for failing.
            chosen = balancer.select(all, excluded);
        }
        return chosen;
    }

    private static boolean noneAvailable(Endpoint[] endpoints) {
        for (Endpoint e : endpoints) {
            if (e.isAvailable()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Broadcast's provider order: by host (a socket path or in-process name for the others), then port, so that
     * results come in an order the caller can know.
     */
    private static final Comparator<Endpoint> PROVIDER_ORDER = Comparator
            .comparing((Endpoint e) -> e.address() instanceof InetSocketAddress tcp ? tcp.getHostString()
                    : TransportAddresses.format(e.address()))
            .thenComparingInt(e -> e.address() instanceof InetSocketAddress tcp ? tcp.getPort() : 0);

    /**
     * Every provider of the directory, each with an open connection, in provider order: the targets of a broadcast.
     * Waits within the call's timeout for the first providers and for connections still opening.
     *
     * @throws ConnectionException if there is no provider, or one is still not connected at the deadline (then
     *         nothing may be sent: a {@link RequestNotSentException})
     */
    Endpoint[] allConnected(MethodInfo info) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(info.timeoutMillis);
        try {
            Endpoint[] endpoints = directory.endpoints();
            if (endpoints.length == 0) {
                directory.awaitEndpoints(deadline);
                endpoints = directory.endpoints();
                if (endpoints.length == 0) {
                    throw new ConnectionException(StatusTable.CLIENT_ERROR.status(),
                            "no provider of " + directory + " for "
                            + info + " within " + info.timeoutMillis + " ms");
                }
            }
            for (Endpoint endpoint : endpoints) {
                long left = deadline - System.nanoTime();
                if (!endpoint.isAvailable()
                        && (left <= 0 || !endpoint.group().awaitAvailable(left, TimeUnit.NANOSECONDS))) {
                    throw new RequestNotSentException("broadcast of " + info + ": no connection to provider "
                            + endpoint.address() + " within " + info.timeoutMillis + " ms; sent to none of "
                            + endpoints.length + " providers", null);
                }
            }
            Endpoint[] sorted = Arrays.copyOf(endpoints, endpoints.length);
            Arrays.sort(sorted, PROVIDER_ORDER);
            return sorted;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RequestNotSentException("broadcast of " + info + " interrupted while waiting for connections",
                    e);
        }
    }

    /** The next connection of an endpoint, or {@code null} if it just lost them all. */
    static Connection connectionOf(Endpoint endpoint) {
        return endpoint.group().next();
    }

    /** Throws when there are providers and the connections to each fail their TLS handshake. */
    private static void failIfEveryHandshakeFails(Endpoint[] endpoints, MethodInfo info) {
        TransportException failure = null;
        for (Endpoint endpoint : endpoints) {
            failure = endpoint.group().handshakeFailure();
            if (failure == null) {
                return;
            }
        }
        if (failure != null) {
            throw new ConnectionException(StatusTable.CLIENT_ERROR.status(),
                    failure.getMessage() + " (" + info + ")", failure);
        }
    }

    private Endpoint await(MethodInfo info) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(info.timeoutMillis);
        try {
            while (System.nanoTime() - deadline < 0) {
                directory.awaitEndpoints(deadline);
                Endpoint[] endpoints = directory.endpoints();
                Endpoint chosen = balancer.select(endpoints, null);
                if (chosen != null) {
                    return chosen;
                }
                failIfEveryHandshakeFails(endpoints, info);
                for (Endpoint endpoint : endpoints) {
                    long left = Math.min(deadline - System.nanoTime(), WAIT_SLICE_NANOS);
                    if (left > 0 && endpoint.group().awaitAvailable(left, TimeUnit.NANOSECONDS)) {
                        break;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new ConnectionException(StatusTable.CLIENT_ERROR.status(),
                "no connection to " + directory + " for " + info
                + " within " + info.timeoutMillis + " ms");
    }
}
