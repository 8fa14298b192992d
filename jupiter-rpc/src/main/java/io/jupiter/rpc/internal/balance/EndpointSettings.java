package io.jupiter.rpc.internal.balance;

import io.jupiter.common.config.JupiterSettings;
import java.util.concurrent.TimeUnit;

/**
 * What a client gives every {@link Endpoint} it makes, so that two clients in one JVM may differ: the warm-up of a
 * provider that just appeared and the time constant of its latency average's decay ({@link LatencyEwma}).
 *
 * @param warmUpNanos       how long a new provider's weight grows to its full value; 0: none
 * @param latencyDecayNanos the time constant by which an idle provider's latency average decays toward 0
 */
public record EndpointSettings(long warmUpNanos, long latencyDecayNanos) {

    public EndpointSettings {
        if (warmUpNanos < 0 || latencyDecayNanos <= 0) {
            throw new IllegalArgumentException("warmUpNanos: " + warmUpNanos + " (expected: >= 0), latencyDecayNanos: "
                    + latencyDecayNanos + " (expected: > 0)");
        }
    }

    /** The settings' values ({@link JupiterSettings#WARM_UP_MILLIS}, {@link JupiterSettings#LATENCY_DECAY_MILLIS}). */
    public static EndpointSettings fromSettings() {
        return new EndpointSettings(TimeUnit.MILLISECONDS.toNanos(JupiterSettings.WARM_UP_MILLIS.get()),
                TimeUnit.MILLISECONDS.toNanos(JupiterSettings.LATENCY_DECAY_MILLIS.get()));
    }

    /** These, with a warm-up of {@code millis}. */
    public EndpointSettings withWarmUpMillis(long millis) {
        return new EndpointSettings(TimeUnit.MILLISECONDS.toNanos(millis), latencyDecayNanos);
    }

    /** These, with a latency decay of {@code millis}. */
    public EndpointSettings withLatencyDecayMillis(long millis) {
        return new EndpointSettings(warmUpNanos, TimeUnit.MILLISECONDS.toNanos(millis));
    }
}
