package io.jupiter.rpc.balance;

import io.jupiter.common.Requires;
import io.jupiter.common.config.JupiterSettings;

/**
 * Outlier ejection (failure accrual) of one proxy: a provider whose calls end in {@code consecutiveFailures}
 * timeouts or connection errors in a row is taken out of load balancing for {@code ejectionMillis}; each further
 * ejection of a provider that keeps failing doubles the time, up to {@code maxEjectionMillis}. An ejected provider
 * comes back by itself when its time is over, on probation: its first failure ejects it again at once, its first
 * success ends the probation. At most {@code maxEjectedPercent} of the proxy's providers are out at once (at least
 * one may be, never all of them: a proxy of one provider ejects nothing).
 *
 * <p>Only timeouts and connection errors count; an answer of any kind (a value, an exception the method threw, a
 * refusal such as {@code SERVER_BUSY}) ends a run of failures. Each ejection and return is logged and counted in the
 * client's metrics ({@code outlier.ejection}, {@code outlier.return}).
 *
 * <p>On by default with the settings of {@code JupiterSettings} ({@code jupiter.rpc.outlier.*}).
 */
public final class OutlierEjection {

    private static final OutlierEjection OFF = new OutlierEjection(0, 1, 1, 1);

    private final int consecutiveFailures;
    private final long ejectionMillis;
    private final long maxEjectionMillis;
    private final int maxEjectedPercent;

    private OutlierEjection(int consecutiveFailures, long ejectionMillis, long maxEjectionMillis,
                            int maxEjectedPercent) {
        this.consecutiveFailures = consecutiveFailures;
        this.ejectionMillis = ejectionMillis;
        this.maxEjectionMillis = maxEjectionMillis;
        this.maxEjectedPercent = maxEjectedPercent;
    }

    /** The defaults: {@code jupiter.rpc.outlier.*} (5 failures, 5 s doubling up to 60 s, 50 % of providers). */
    public static OutlierEjection defaults() {
        return of(JupiterSettings.OUTLIER_CONSECUTIVE_FAILURES.get(), JupiterSettings.OUTLIER_EJECTION_MILLIS.get(),
                JupiterSettings.OUTLIER_MAX_EJECTION_MILLIS.get(), JupiterSettings.OUTLIER_MAX_EJECTED_PERCENT.get());
    }

    /**
     * Ejection with the given settings.
     *
     * @param consecutiveFailures timeouts or connection errors in a row that eject a provider (&gt; 0)
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
        return new OutlierEjection(consecutiveFailures, ejectionMillis, maxEjectionMillis, maxEjectedPercent);
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

    @Override
    public String toString() {
        return !enabled() ? "OutlierEjection(off)" : "OutlierEjection(" + consecutiveFailures + " failures, "
                + ejectionMillis + ".." + maxEjectionMillis + " ms, " + maxEjectedPercent + " %)";
    }
}
