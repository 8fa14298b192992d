package io.jupiter.micrometer.internal;

import io.jupiter.micrometer.JupiterMeterBinder;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The meters of one side ({@link RpcMetrics.Side}) in one registry, fed by the side's recordings. Method timers are
 * made on a method's first call and then found by the runtime's token for the method, so a call builds no tags.
 */
public final class SideMeters implements RpcMetrics.Listener {

    /** Histogram range of the timers: loopback calls take tens of microseconds, the slowest seconds. */
    public static final Duration MIN_TIME = Duration.ofMillis(1).dividedBy(20);
    public static final Duration MAX_TIME = Duration.ofSeconds(60);
    /** Histogram range of the body sizes in bytes: up to the largest body cap a transport is likely given. */
    private static final double MIN_BYTES = 16;
    private static final double MAX_BYTES = 64.0 * 1024 * 1024;

    private final MeterRegistry registry;
    private final Tags tags;
    private final DistributionSummary requestSize;
    private final DistributionSummary responseSize;
    private final Counter rejection;
    private final Timer processing;
    private final Map<Object, Timer> methods = new ConcurrentHashMap<>();
    private final List<Meter> created = new CopyOnWriteArrayList<>();

    /** Registers the meters of {@code side} in {@code registry}, each with {@code common} tags. */
    public SideMeters(RpcMetrics.Side side, MeterRegistry registry, Tags common) {
        this.registry = registry;
        this.tags = common.and(JupiterMeterBinder.SIDE_TAG, side.id());
        this.requestSize = add(sizes(JupiterMeterBinder.REQUEST_SIZE, side == RpcMetrics.Side.PROVIDER
                ? "received request body size (without the 16-byte header)"
                : "sent request body size (without the 16-byte header)"));
        this.responseSize = add(sizes(JupiterMeterBinder.RESPONSE_SIZE, side == RpcMetrics.Side.PROVIDER
                ? "sent response body size (without the 16-byte header)"
                : "received response body size (without the 16-byte header)"));
        this.rejection = add(Counter.builder(JupiterMeterBinder.REJECTION).tags(tags)
                .description("requests refused (bad request, service not found, busy, flow control)")
                .register(registry));
        this.processing = side == RpcMetrics.Side.PROVIDER
                ? add(timer(JupiterMeterBinder.PROCESSING, tags,
                        "from a request decoded to its response handed to the connection"))
                : null;
    }

    private DistributionSummary sizes(String name, String description) {
        return DistributionSummary.builder(name).baseUnit("bytes").tags(tags).description(description)
                .publishPercentileHistogram().minimumExpectedValue(MIN_BYTES).maximumExpectedValue(MAX_BYTES)
                .register(registry);
    }

    private Timer timer(String name, Tags timerTags, String description) {
        return Timer.builder(name).tags(timerTags).description(description).publishPercentileHistogram()
                .minimumExpectedValue(MIN_TIME).maximumExpectedValue(MAX_TIME).register(registry);
    }

    private <M extends Meter> M add(M meter) {
        created.add(meter);
        return meter;
    }

    @Override
    public void requestSize(int bodyBytes) {
        requestSize.record(bodyBytes);
    }

    @Override
    public void responseSize(int bodyBytes) {
        responseSize.record(bodyBytes);
    }

    @Override
    public void rejected() {
        rejection.increment();
    }

    @Override
    public void processed(long nanos) {
        if (processing != null) {
            processing.record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void methodDone(Object token, ServiceKey key, String method, long nanos) {
        Timer timer = methods.get(token);
        if (timer == null) {
            timer = methods.computeIfAbsent(token, t -> add(timer(JupiterMeterBinder.METHOD, tags.and(
                    JupiterMeterBinder.GROUP_TAG, key.group(), JupiterMeterBinder.SERVICE_TAG, key.name(),
                    JupiterMeterBinder.VERSION_TAG, key.version(), JupiterMeterBinder.METHOD_TAG, method),
                    "provider method execution time; consumer call time")));
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Removes every meter this made from its registry. */
    public void remove() {
        for (Meter meter : created) {
            registry.remove(meter);
        }
        created.clear();
        methods.clear();
    }
}
