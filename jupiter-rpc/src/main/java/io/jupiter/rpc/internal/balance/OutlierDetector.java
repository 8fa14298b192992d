package io.jupiter.rpc.internal.balance;

import io.jupiter.common.LogText;
import io.jupiter.rpc.balance.OutlierEjection;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.transport.TransportAddresses;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Outlier ejection of one proxy ({@link OutlierEjection}): counts each provider's timeouts, connection errors and
 * server errors in a row and, with the failure-rate rule, its attempts and failures over a sliding window ({@link
 * FailureWindow}), takes a provider that reaches either limit out of load balancing for a time that doubles while it
 * keeps failing, and gives the balancer the providers still in rotation. A provider whose time is over comes back on
 * probation (Finagle's probe-open state): it gets one call at a time ({@link #probe}), the others stay on the
 * providers in rotation, so a provider still dead costs one call per return, not every call the balancer would have
 * sent it until the first failure came back; the probe's answer brings it back into rotation, its failure ejects it
 * again. Nothing is locked or allocated on a call's path while no provider is out; while one is, the snapshot without
 * it is reused until the directory changes, an ejection ends or a probation ends.
 */
public final class OutlierDetector {

    private static final Logger log = LoggerFactory.getLogger(OutlierDetector.class);

    private final OutlierEjection settings;
    private final String owner;
    private final RpcMetrics metrics;
    /** A tenth of the failure-rate window; 0: the failure-rate rule is off. */
    private final long sliceNanos;
    /** Providers of the last snapshot out of rotation (some of them may be due back); 0 keeps the fast path. */
    private volatile int ejected;
    private volatile View view = EMPTY;

    private static final Endpoint[] NONE = new Endpoint[0];
    private static final View EMPTY = new View(null, null, NONE, 0);

    /**
     * The providers in rotation for one directory snapshot and those on probation, valid until
     * {@code nextReturnNanos}.
     */
    private record View(Endpoint[] source, Endpoint[] inRotation, Endpoint[] onProbation, long nextReturnNanos) {
    }

    /**
     * @param owner   what the log lines name (the proxy's service and its providers)
     * @param metrics the client's metrics, which count ejections and returns
     */
    public OutlierDetector(OutlierEjection settings, String owner, RpcMetrics metrics) {
        this.settings = settings;
        this.owner = owner;
        this.metrics = metrics;
        this.sliceNanos = settings.ejectsOnFailureRate()
                ? TimeUnit.MILLISECONDS.toNanos(settings.failureRateWindowMillis()) / FailureWindow.SLICES : 0;
    }

    /** The providers of {@code all} that are in load balancing now; {@code all} itself while none is out. */
    public Endpoint[] inRotation(Endpoint[] all) {
        if (ejected == 0) {
            return all;
        }
        View v = view;
        if (v.source == all && System.nanoTime() - v.nextReturnNanos < 0) {
            return v.inRotation;
        }
        return rebuild(all);
    }

    /**
     * A provider on probation that may take this call as its probe (connected, not {@code excluded}, no other probe
     * in flight), claimed for it for {@code leaseNanos} (the call's timeout and a margin: a claim whose end was never
     * reported frees itself then); {@code null} if there is none. Call after {@link #inRotation} returned fewer
     * providers than {@code all}.
     */
    public Endpoint probe(Endpoint[] all, Endpoint excluded, long leaseNanos) {
        View v = view;
        if (v.source != all || v.onProbation.length == 0) {
            return null;
        }
        long now = System.nanoTime();
        for (Endpoint e : v.onProbation) {
            if (e == excluded || !e.onProbation || !e.isAvailable()) {
                continue;
            }
            long until = e.probeUntilNanos.get();
            if ((until == 0 || now - until > 0) && e.probeUntilNanos.compareAndSet(until, (now + leaseNanos) | 1)) {
                return e;
            }
        }
        return null;
    }

    /**
     * Whether {@code error}, an answer from a provider, is a server error that counts as a failure: an exception the
     * method does not declare ({@code SERVICE_UNEXPECTED_ERROR}), a failure around the method ({@code SERVER_ERROR})
     * or a provider that does not serve the service at all ({@code SERVICE_NOT_FOUND}: a stale registry entry),
     * unless the settings leave server errors out. A declared exception is the method's answer, and
     * {@code SERVER_BUSY} a full provider's (its refusals are for client-side throttling), so neither counts.
     */
    public boolean isServerError(Throwable error) {
        if (!settings.countsServerErrors() || !(error instanceof RpcException e)) {
            return false;
        }
        return StatusTable.isServerError(e.status()) || StatusTable.SERVICE_NOT_FOUND.is(e.status());
    }

    /** An attempt on {@code endpoint} ended without telling anything (cancelled, or not sent): its probe is free. */
    public void abandoned(Endpoint endpoint) {
        if (endpoint.probeUntilNanos.get() != 0) {
            endpoint.probeUntilNanos.set(0);
        }
    }

    /** An attempt on {@code endpoint} got an answer (of any kind) at {@code nowNanos}: its run of failures ends. */
    public void answered(Endpoint endpoint, long nowNanos) {
        if (endpoint.consecutiveFailures.get() != 0) {
            endpoint.consecutiveFailures.set(0);
        }
        if (endpoint.onProbation) {
            endProbation(endpoint);
        }
        if (sliceNanos != 0) {
            endpoint.failureWindow.record(false, nowNanos, sliceNanos);
        }
    }

    /** The probe answered: back in rotation (under the lock, so no view built meanwhile keeps it out). */
    private synchronized void endProbation(Endpoint endpoint) {
        if (!endpoint.onProbation) {
            return;
        }
        endpoint.onProbation = false;
        endpoint.probeUntilNanos.set(0);
        view = EMPTY;
        log.info("{}: provider {} back in load balancing: it answered on probation", owner,
                TransportAddresses.format(endpoint.address()));
    }

    /**
     * An attempt on {@code endpoint} timed out, lost its connection or got a {@linkplain #isServerError server error}
     * at {@code nowNanos}; {@code all} is the proxy's
     * current snapshot of providers (the share ejected at once is counted over it).
     */
    public void failed(Endpoint endpoint, Endpoint[] all, Throwable reason, long nowNanos) {
        if (!settings.enabled()) {
            return;
        }
        int failures = endpoint.consecutiveFailures.incrementAndGet();
        boolean rateReached = false;
        if (sliceNanos != 0) {
            FailureWindow window = endpoint.failureWindow;
            window.record(true, nowNanos, sliceNanos);
            rateReached = window.exceeds(settings.failureRatePercent(), settings.failureRateMinRequests(), nowNanos,
                    sliceNanos);
        }
        if (endpoint.onProbation) {
            eject(endpoint, all, "a failure on probation", reason);
        } else if (failures >= settings.consecutiveFailures()) {
            eject(endpoint, all, failures == 1 ? "a failure" : failures + " failures in a row", reason);
        } else if (rateReached) {
            eject(endpoint, all, settings.failureRatePercent() + " % or more of its attempts failing within "
                    + settings.failureRateWindowMillis() + " ms", reason);
        }
    }

    private synchronized void eject(Endpoint endpoint, Endpoint[] all, String cause, Throwable reason) {
        long now = System.nanoTime();
        if (endpoint.ejectedUntilNanos != 0 || !contains(all, endpoint)) {
            return; // out already (calls in flight before the ejection keep failing), or no longer a provider
        }
        int out = 0;
        for (Endpoint e : all) {
            if (e != endpoint && ((e.ejectedUntilNanos != 0 && now - e.ejectedUntilNanos < 0) || e.onProbation)) {
                out++;
            }
        }
        int allowed = Math.min(all.length - 1, Math.max(1, all.length * settings.maxEjectedPercent() / 100));
        if (out >= allowed) {
            log.debug("{}: provider {} failed ({}) but stays in: {} of {} providers are out already",
                    owner, TransportAddresses.format(endpoint.address()), cause, out, all.length);
            return;
        }
        if (now - endpoint.returnedAtNanos > endpoint.lastEjectionNanos) {
            endpoint.timesEjected = 0; // it stayed in as long as it was out last time: start again from the first time
        }
        long first = TimeUnit.MILLISECONDS.toNanos(settings.ejectionMillis());
        long max = TimeUnit.MILLISECONDS.toNanos(settings.maxEjectionMillis());
        long duration = endpoint.timesEjected >= 30 ? max : Math.min(max, first << endpoint.timesEjected);
        endpoint.timesEjected++;
        endpoint.lastEjectionNanos = duration;
        long until = now + duration;
        endpoint.ejectedUntilNanos = until != 0 ? until : 1;
        endpoint.onProbation = false;
        endpoint.probeUntilNanos.set(0);
        endpoint.consecutiveFailures.set(0);
        endpoint.failureWindow.clear();
        ejected = out + 1;
        view = EMPTY;
        log.warn("{}: provider {} ejected from load balancing for {} ms ({} ejection in a row) after {}: {}; {} of {}"
                        + " providers out", owner, TransportAddresses.format(endpoint.address()),
                TimeUnit.NANOSECONDS.toMillis(duration), ordinal(endpoint.timesEjected), cause, LogText.of(reason),
                out + 1, all.length);
        metrics.outlierEjected();
    }

    private synchronized Endpoint[] rebuild(Endpoint[] all) {
        long now = System.nanoTime();
        List<Endpoint> in = new ArrayList<>(all.length);
        List<Endpoint> probation = null;
        long nextReturn = now + TimeUnit.DAYS.toNanos(1);
        int out = 0;
        for (Endpoint e : all) {
            long until = e.ejectedUntilNanos;
            if (until != 0 && now - until >= 0) {
                e.ejectedUntilNanos = 0;
                e.onProbation = true;
                e.probeUntilNanos.set(0);
                e.returnedAtNanos = now;
                e.consecutiveFailures.set(0);
                log.info("{}: provider {} on probation after {} ms out: one call at a time tries it; an answer brings"
                        + " it back, a failure ejects it again", owner, TransportAddresses.format(e.address()),
                        TimeUnit.NANOSECONDS.toMillis(e.lastEjectionNanos));
                metrics.outlierReturned();
                until = 0;
            }
            if (until != 0) {
                out++;
                if (until - nextReturn < 0) {
                    nextReturn = until;
                }
            } else if (e.onProbation) {
                out++;
                if (probation == null) {
                    probation = new ArrayList<>(2);
                }
                probation.add(e);
            } else {
                in.add(e);
            }
        }
        Endpoint[] inRotation = out == 0 ? all : in.toArray(new Endpoint[0]);
        ejected = out;
        view = new View(all, inRotation, probation == null ? NONE : probation.toArray(new Endpoint[0]), nextReturn);
        return inRotation;
    }

    private static boolean contains(Endpoint[] all, Endpoint endpoint) {
        for (Endpoint e : all) {
            if (e == endpoint) {
                return true;
            }
        }
        return false;
    }

    private static String ordinal(int n) {
        return n == 1 ? "1st" : n == 2 ? "2nd" : n == 3 ? "3rd" : n + "th";
    }
}
