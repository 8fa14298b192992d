package io.jupiter.spring.boot.autoconfigure;

import io.jupiter.common.config.JupiterSettings;
import io.jupiter.rpc.ProxyBuilder;
import io.jupiter.rpc.balance.OutlierEjection;
import io.jupiter.rpc.cluster.HedgingPolicy;
import io.jupiter.rpc.cluster.RetryBudget;
import io.jupiter.spring.boot.JupiterReference;

/**
 * The tail tolerance a {@link JupiterReference} asks for, handed to its {@link ProxyBuilder}: outlier ejection, the
 * retry budget and hedging, each from the defaults of {@code JupiterSettings} with the attributes that are set laid
 * over them. A refused value fails naming the attribute and the injection point.
 */
final class ReferenceTailTolerance {

    private ReferenceTailTolerance() {
    }

    /** Applies the reference's {@code outlier*}, {@code retryBudget*} and {@code hedging*} attributes. */
    static void apply(JupiterReference reference, ProxyBuilder<?> builder, String where) {
        OutlierEjection ejection = outlierEjection(reference, where);
        if (ejection != null) {
            builder.outlierEjection(ejection);
        }
        RetryBudget budget = retryBudget(reference, where);
        if (budget != null) {
            builder.retryBudget(budget);
        }
        HedgingPolicy hedging = hedging(reference, where);
        if (hedging != null) {
            builder.hedging(hedging);
        }
    }

    /** The reference's outlier ejection; {@code null}: every attribute unset (the proxy builder's default). */
    static OutlierEjection outlierEjection(JupiterReference r, String where) {
        boolean anySet = r.outlierConsecutiveFailures() != 0 || r.outlierFailureRatePercent() != -1
                || r.outlierFailureRateMinRequests() != 0 || r.outlierFailureRateWindowMillis() != 0
                || r.outlierEjectionMillis() != 0 || r.outlierMaxEjectionMillis() != 0
                || r.outlierMaxEjectedPercent() != 0;
        if (!r.outlierEjection()) {
            if (anySet) {
                throw invalid("outlierEjection", where, "false, yet other outlier* attributes are set (expected: "
                        + "either no ejection or its settings)");
            }
            return OutlierEjection.off();
        }
        if (!anySet) {
            return null;
        }
        try {
            int failures = or(r.outlierConsecutiveFailures(), JupiterSettings.OUTLIER_CONSECUTIVE_FAILURES.get());
            long first = or(r.outlierEjectionMillis(), JupiterSettings.OUTLIER_EJECTION_MILLIS.get());
            long max = r.outlierMaxEjectionMillis() != 0 ? r.outlierMaxEjectionMillis()
                    : Math.max(first, JupiterSettings.OUTLIER_MAX_EJECTION_MILLIS.get());
            int percent = or(r.outlierMaxEjectedPercent(), JupiterSettings.OUTLIER_MAX_EJECTED_PERCENT.get());
            OutlierEjection ejection = OutlierEjection.of(failures, first, max, percent);
            int ratePercent = r.outlierFailureRatePercent() == -1
                    ? JupiterSettings.OUTLIER_FAILURE_RATE_PERCENT.get() : r.outlierFailureRatePercent();
            if (ratePercent == 0) {
                return ejection.withoutFailureRate();
            }
            return ejection.withFailureRate(ratePercent,
                    or(r.outlierFailureRateMinRequests(), JupiterSettings.OUTLIER_FAILURE_RATE_MIN_REQUESTS.get()),
                    or(r.outlierFailureRateWindowMillis(), JupiterSettings.OUTLIER_FAILURE_RATE_WINDOW_MILLIS.get()));
        } catch (IllegalArgumentException e) {
            throw invalid("outlier*", where, e.getMessage());
        }
    }

    /** The reference's retry budget; {@code null}: every attribute unset. */
    static RetryBudget retryBudget(JupiterReference r, String where) {
        boolean anySet = r.retryBudgetMaxTokens() != 0 || r.retryBudgetTokenPercent() != 0;
        if (!r.retryBudget()) {
            if (anySet) {
                throw invalid("retryBudget", where, "false, yet retryBudgetMaxTokens or retryBudgetTokenPercent is "
                        + "set (expected: either no budget or its settings)");
            }
            return RetryBudget.unlimited();
        }
        if (!anySet) {
            return null;
        }
        try {
            return RetryBudget.of(or(r.retryBudgetMaxTokens(), JupiterSettings.RETRY_BUDGET_MAX_TOKENS.get()),
                    or(r.retryBudgetTokenPercent(), JupiterSettings.RETRY_BUDGET_TOKEN_PERCENT.get()));
        } catch (IllegalArgumentException e) {
            throw invalid("retryBudget*", where, e.getMessage());
        }
    }

    /** The reference's hedging; {@code null}: none (neither a delay nor a percentile). */
    static HedgingPolicy hedging(JupiterReference r, String where) {
        boolean percentile = r.hedgingPercentile() != 0;
        if (!percentile && r.hedgingDelayMillis() == 0) {
            if (r.hedgingMinDelayMillis() != 0 || r.hedgingMaxAttempts() != 0) {
                throw invalid("hedging*", where, "hedgingMinDelayMillis or hedgingMaxAttempts without "
                        + "hedgingDelayMillis or hedgingPercentile (expected: one of them, to turn hedging on)");
            }
            return null;
        }
        if (r.idempotent().length == 0) {
            throw invalid("hedging*", where, "hedging, but no method is marked idempotent (expected: the methods "
                    + "safe to run twice in idempotent = {...}; only they are hedged)");
        }
        int attempts = or(r.hedgingMaxAttempts(), 2);
        try {
            if (!percentile) {
                if (r.hedgingMinDelayMillis() != 0) {
                    throw new IllegalArgumentException("hedgingMinDelayMillis applies to hedgingPercentile only");
                }
                return HedgingPolicy.of(r.hedgingDelayMillis(), attempts);
            }
            return HedgingPolicy.afterLatencyPercentile(r.hedgingPercentile(),
                    or(r.hedgingMinDelayMillis(), JupiterSettings.HEDGING_MIN_DELAY_MILLIS.get()),
                    or(r.hedgingDelayMillis(), JupiterSettings.HEDGING_FALLBACK_DELAY_MILLIS.get()), attempts);
        } catch (IllegalArgumentException e) {
            throw invalid("hedging*", where, e.getMessage());
        }
    }

    private static int or(int value, int byDefault) {
        return value != 0 ? value : byDefault;
    }

    private static long or(long value, long byDefault) {
        return value != 0 ? value : byDefault;
    }

    private static InvalidJupiterPropertyException invalid(String attribute, String where, String why) {
        return new InvalidJupiterPropertyException("@JupiterReference(" + attribute + ") on " + where + ": " + why,
                null);
    }
}
