package io.jupiter.rpc.balance;

import io.jupiter.common.Requires;
import io.jupiter.common.config.JupiterSettings;

/**
 * Outlier ejection (failure accrual) of one proxy. A provider is taken out of load balancing for
 * {@code ejectionMillis} when its attempts end in {@code consecutiveFailures} timeouts or connection errors in a row,
 * or when, over the last {@code failureRateWindowMillis}, at least {@code failureRateMinRequests} attempts went to it
 * and at least {@code failureRatePercent} % of them ended so (the rule that catches a provider failing often but
 * answering in between). Each further ejection of a provider that keeps failing doubles the time, up to
 * {@code maxEjectionMillis}. An ejected provider comes back by itself when its time is over, on probation: it gets
 * one call at a time (a probe) until one answers, which brings it back into rotation; a failed probe ejects it again
 * at once. At most {@code maxEjectedPercent} of the proxy's providers are out at once (at least one may be, never
 * all of them: a proxy of one provider ejects nothing).
 *
 * <p>Failures are timeouts, connection errors and, unless {@link #withServerErrors withServerErrors(false)}, server
 * errors: an exception the method does not declare ({@code SERVICE_UNEXPECTED_ERROR}, a bad deploy or a broken
 * dependency), a failure of the provider around the method ({@code SERVER_ERROR}), Envoy's 5xx, and
 * {@code SERVICE_NOT_FOUND} (a provider published for a service it does not serve). Any other answer
 * (a value, an exception the method declares: a business outcome, a refusal such as {@code SERVER_BUSY}: a full
 * provider, which client-side throttling and the balancer handle) ends a run of failures and counts as a success in
 * the window. Each
 * ejection and return is logged and counted in the client's metrics ({@code outlier.ejection},
 * {@code outlier.return}).
 *
 * <p>On by default with the settings of {@code JupiterSettings} ({@code jupiter.rpc.outlier.*}).
 */
public final class OutlierEjection {

    private static final OutlierEjection OFF = new OutlierEjection(0, 1, 1, 1, 0, 1, 10_000, false);

    private final int consecutiveFailures;
    private final long ejectionMillis;
    private final long maxEjectionMillis;
    private final int maxEjectedPercent;
    private final int failureRatePercent;
    private final int failureRateMinRequests;
    private final long failureRateWindowMillis;
    private final boolean countsServerErrors;

    private OutlierEjection(int consecutiveFailures, long ejectionMillis, long maxEjectionMillis,
                            int maxEjectedPercent, int failureRatePercent, int failureRateMinRequests,
                            long failureRateWindowMillis, boolean countsServerErrors) {
        this.consecutiveFailures = consecutiveFailures;
        this.ejectionMillis = ejectionMillis;
        this.maxEjectionMillis = maxEjectionMillis;
        this.maxEjectedPercent = maxEjectedPercent;
        this.failureRatePercent = failureRatePercent;
        this.failureRateMinRequests = failureRateMinRequests;
        this.failureRateWindowMillis = failureRateWindowMillis;
        this.countsServerErrors = countsServerErrors;
    }

    /**
     * The defaults: {@code jupiter.rpc.outlier.*} (5 failures in a row, or at least 50 % of at least 20 attempts
     * within 10 s; 5 s doubling up to 60 s; 50 % of providers).
     */
    public static OutlierEjection defaults() {
        return of(JupiterSettings.OUTLIER_CONSECUTIVE_FAILURES.get(), JupiterSettings.OUTLIER_EJECTION_MILLIS.get(),
                JupiterSettings.OUTLIER_MAX_EJECTION_MILLIS.get(), JupiterSettings.OUTLIER_MAX_EJECTED_PERCENT.get());
    }

    /**
     * Ejection with the given settings, and the failure-rate rule of the defaults
     * ({@code jupiter.rpc.outlier.failure.rate.*}; {@link #withFailureRate} and {@link #withoutFailureRate} change it).
     *
     * @param consecutiveFailures timeouts, connection errors or server errors in a row that eject a provider (&gt; 0)
     * @param ejectionMillis      the first ejection time (&gt; 0)
     * @param maxEjectionMillis   the longest ejection time (at least {@code ejectionMillis})
     * @param maxEjectedPercent   the largest share of the providers out at once, 1 to 100
     */
    public static OutlierEjection of(int consecutiveFailures, long ejectionMillis, long maxEjectionMillis,
                                     int maxEjectedPercent) {
        JupiterSettings.OUTLIER_CONSECUTIVE_FAILURES.check(consecutiveFailures);
        JupiterSettings.OUTLIER_EJECTION_MILLIS.check(ejectionMillis);
        JupiterSettings.OUTLIER_MAX_EJECTION_MILLIS.check(maxEjectionMillis);
        Requires.argument(maxEjectionMillis >= ejectionMillis, "maxEjectionMillis " + maxEjectionMillis
                + " is below ejectionMillis " + ejectionMillis);
        JupiterSettings.OUTLIER_MAX_EJECTED_PERCENT.check(maxEjectedPercent);
        return new OutlierEjection(consecutiveFailures, ejectionMillis, maxEjectionMillis, maxEjectedPercent,
                JupiterSettings.OUTLIER_FAILURE_RATE_PERCENT.get(),
                JupiterSettings.OUTLIER_FAILURE_RATE_MIN_REQUESTS.get(),
                JupiterSettings.OUTLIER_FAILURE_RATE_WINDOW_MILLIS.get(),
                JupiterSettings.OUTLIER_COUNTS_SERVER_ERRORS.get());
    }

    /**
     * These settings with the failure-rate rule: a provider is also ejected when, over the last {@code windowMillis},
     * at least {@code minRequests} attempts went to it and at least {@code percent} % of them timed out or lost their
     * connection.
     *
     * @param percent      the failure share, 1 to 100 (100: every attempt in the window failed)
     * @param minRequests  the attempts within the window below which the share does not count, 1 to 1,000,000
     * @param windowMillis the window, 100 ms to 1 h, counted in ten slices (an attempt leaves it a slice at a time)
     */
    public OutlierEjection withFailureRate(int percent, int minRequests, long windowMillis) {
        Requires.argument(enabled(), "withFailureRate on OutlierEjection.off(): start from of(...) or defaults()");
        Requires.inRange(percent, 1, 100, "percent");
        JupiterSettings.OUTLIER_FAILURE_RATE_MIN_REQUESTS.check(minRequests);
        JupiterSettings.OUTLIER_FAILURE_RATE_WINDOW_MILLIS.check(windowMillis);
        return new OutlierEjection(consecutiveFailures, ejectionMillis, maxEjectionMillis, maxEjectedPercent,
                percent, minRequests, windowMillis, countsServerErrors);
    }

    /** These settings without the failure-rate rule: only failures in a row eject. */
    public OutlierEjection withoutFailureRate() {
        if (!enabled()) {
            return this;
        }
        return new OutlierEjection(consecutiveFailures, ejectionMillis, maxEjectionMillis, maxEjectedPercent,
                0, failureRateMinRequests, failureRateWindowMillis, countsServerErrors);
    }

    /**
     * These settings with server errors counted as failures ({@code true}, the default of
     * {@code jupiter.rpc.outlier.server.errors}) or not: an exception the method does not declare
     * ({@code SERVICE_UNEXPECTED_ERROR}), a failure of the provider around the method ({@code SERVER_ERROR}) and
     * {@code SERVICE_NOT_FOUND}. With {@code false}, only timeouts and connection errors count, as before issue #35.
     */
    public OutlierEjection withServerErrors(boolean counted) {
        if (!enabled() || counted == countsServerErrors) {
            return this;
        }
        return new OutlierEjection(consecutiveFailures, ejectionMillis, maxEjectionMillis, maxEjectedPercent,
                failureRatePercent, failureRateMinRequests, failureRateWindowMillis, counted);
    }

    /** No ejection: every provider with an open connection stays in load balancing. */
    public static OutlierEjection off() {
        return OFF;
    }

    public boolean enabled() {
        return consecutiveFailures > 0;
    }

    public int consecutiveFailures() {
        return consecutiveFailures;
    }

    public long ejectionMillis() {
        return ejectionMillis;
    }

    public long maxEjectionMillis() {
        return maxEjectionMillis;
    }

    public int maxEjectedPercent() {
        return maxEjectedPercent;
    }

    /** Whether the failure-rate rule is on. */
    public boolean ejectsOnFailureRate() {
        return enabled() && failureRatePercent > 0;
    }

    /** The failure share from which a provider is ejected; 0: the rule is off. */
    public int failureRatePercent() {
        return failureRatePercent;
    }

    public int failureRateMinRequests() {
        return failureRateMinRequests;
    }

    public long failureRateWindowMillis() {
        return failureRateWindowMillis;
    }

    /** Whether undeclared exceptions and {@code SERVER_ERROR} answers count as failures ({@link #withServerErrors}). */
    public boolean countsServerErrors() {
        return countsServerErrors;
    }

    @Override
    public String toString() {
        if (!enabled()) {
            return "OutlierEjection(off)";
        }
        String rate = failureRatePercent == 0 ? "" : " or >= " + failureRatePercent + " % of " + failureRateMinRequests
                + "+ in " + failureRateWindowMillis + " ms";
        return "OutlierEjection(" + consecutiveFailures + " failures" + rate + ", " + ejectionMillis + ".."
                + maxEjectionMillis + " ms, " + maxEjectedPercent + " %" + (countsServerErrors ? ", server errors" : "")
                + ")";
    }
}
