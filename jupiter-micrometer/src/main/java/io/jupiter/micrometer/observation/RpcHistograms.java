package io.jupiter.micrometer.observation;

import io.jupiter.micrometer.internal.SideMeters;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;

/**
 * A {@link MeterFilter} giving the call timers of {@link RpcObservationFilter} ({@code rpc.client.call.duration},
 * {@code rpc.server.call.duration}) a percentile histogram from 50 us to 60 s, so that a Prometheus server can
 * compute p50 and p99 over many processes (the dashboard in docs/ does). Micrometer's meter handler makes plain timers
 * otherwise. Add it to the registry before the first call: {@code meterRegistry.config().meterFilter(
 * RpcHistograms.meterFilter())}; the Spring Boot starter adds it as a bean.
 */
public final class RpcHistograms implements MeterFilter {

    private static final RpcHistograms INSTANCE = new RpcHistograms();

    private RpcHistograms() {
    }

    /** The filter. */
    public static MeterFilter meterFilter() {
        return INSTANCE;
    }

    @Override
    public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
        if (id.getType() != Meter.Type.TIMER || !(id.getName().equals(RpcObservationDocumentation.CLIENT_NAME)
                || id.getName().equals(RpcObservationDocumentation.SERVER_NAME))) {
            return config;
        }
        return DistributionStatisticConfig.builder()
                .percentilesHistogram(true)
                .minimumExpectedValue((double) SideMeters.MIN_TIME.toNanos())
                .maximumExpectedValue((double) SideMeters.MAX_TIME.toNanos())
                .build()
                .merge(config);
    }
}
