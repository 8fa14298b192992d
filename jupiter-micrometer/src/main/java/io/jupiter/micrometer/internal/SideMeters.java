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
 * The meters of one side ({@link RpcMetrics.Side}) in one registry, fed by the side's recordings: under the names
 * after OpenTelemetry's RPC conventions and, while they are kept, under the first names too. Method timers (first
 * names only) are made on a method's first call and then found by the runtime's token for the method, so a call
 * builds no tags.
 */
public final class SideMeters implements RpcMetrics.Listener {

    /** Histogram range of the timers: loopback calls take tens of microseconds, the slowest seconds. */
    public static final Duration MIN_TIME = Duration.ofMillis(1).dividedBy(20);
    public static final Duration MAX_TIME = Duration.ofSeconds(60);
    /** Histogram range of the body sizes in bytes: up to the largest body cap a transport is likely given. */
    private static final double MIN_BYTES = 16;
    private static final double MAX_BYTES = 64.0 * 1024 * 1024;

    private final MeterRegistry registry;
    private final RpcMetrics.Side side;
    /** The common tags and {@code rpc.system.name}: those of every meter under the new names. */
    private final Tags tags;
    private final Tags legacyTags;
    private final boolean legacy;
    private final DistributionSummary[] requestSize;
    private final DistributionSummary[] responseSize;
    private final Counter[] rejection;
    private final Timer[] processing;
    private final Map<Object, Timer> methods = new ConcurrentHashMap<>();
    private final Map<MethodKey, StreamMeters> streams = new ConcurrentHashMap<>();
    private final List<Meter> created = new CopyOnWriteArrayList<>();

    /**
     * Registers the meters of {@code side} in {@code registry}, each with {@code common} tags; with {@code legacy},
     * under the first names ({@code jupiter.*}) too.
     */
    public SideMeters(RpcMetrics.Side side, MeterRegistry registry, Tags common, boolean legacy) {
        this.registry = registry;
        this.side = side;
        this.legacy = legacy;
        this.legacyTags = common.and(JupiterMeterBinder.SIDE_TAG, side.id());
        this.tags = common.and(JupiterMeterBinder.SYSTEM_TAG, JupiterMeterBinder.SYSTEM);
        boolean provider = side == RpcMetrics.Side.PROVIDER;
        String requestWhat = provider ? "received request body size (without the 16-byte header)"
                : "sent request body size (without the 16-byte header)";
        String responseWhat = provider ? "sent response body size (without the 16-byte header)"
                : "received response body size (without the 16-byte header)";
        String rejectionWhat = "requests refused (bad request, service not found, busy, flow control)";
        String processingWhat = "from a request decoded to its response handed to the connection";
        DistributionSummary request = sizes(provider ? JupiterMeterBinder.SERVER_REQUEST_SIZE
                : JupiterMeterBinder.CLIENT_REQUEST_SIZE, tags, requestWhat);
        DistributionSummary response = sizes(provider ? JupiterMeterBinder.SERVER_RESPONSE_SIZE
                : JupiterMeterBinder.CLIENT_RESPONSE_SIZE, tags, responseWhat);
        Counter rejected = counter(provider ? JupiterMeterBinder.SERVER_REJECTED : JupiterMeterBinder.CLIENT_REJECTED,
                tags, rejectionWhat);
        Timer processed = provider ? timer(JupiterMeterBinder.SERVER_PROCESSING, tags, processingWhat) : null;
        if (legacy) {
            this.requestSize = new DistributionSummary[] {request,
                    sizes(JupiterMeterBinder.REQUEST_SIZE, legacyTags, requestWhat)};
            this.responseSize = new DistributionSummary[] {response,
                    sizes(JupiterMeterBinder.RESPONSE_SIZE, legacyTags, responseWhat)};
            this.rejection = new Counter[] {rejected,
                    counter(JupiterMeterBinder.REJECTION, legacyTags, rejectionWhat)};
            this.processing = provider ? new Timer[] {processed,
                    timer(JupiterMeterBinder.PROCESSING, legacyTags, processingWhat)} : new Timer[0];
        } else {
            this.requestSize = new DistributionSummary[] {request};
            this.responseSize = new DistributionSummary[] {response};
            this.rejection = new Counter[] {rejected};
            this.processing = provider ? new Timer[] {processed} : new Timer[0];
        }
    }

    private DistributionSummary sizes(String name, Tags tags, String description) {
        return add(DistributionSummary.builder(name).baseUnit("bytes").tags(tags).description(description)
                .publishPercentileHistogram().minimumExpectedValue(MIN_BYTES).maximumExpectedValue(MAX_BYTES)
                .register(registry));
    }

    private Counter counter(String name, Tags tags, String description) {
        return add(Counter.builder(name).tags(tags).description(description).register(registry));
    }

    private Timer timer(String name, Tags tags, String description) {
        return add(Timer.builder(name).tags(tags).description(description).publishPercentileHistogram()
                .minimumExpectedValue(MIN_TIME).maximumExpectedValue(MAX_TIME).register(registry));
    }

    private <M extends Meter> M add(M meter) {
        created.add(meter);
        return meter;
    }

    @Override
    public void requestSize(int bodyBytes) {
        for (DistributionSummary summary : requestSize) {
            summary.record(bodyBytes);
        }
    }

    @Override
    public void responseSize(int bodyBytes) {
        for (DistributionSummary summary : responseSize) {
            summary.record(bodyBytes);
        }
    }

    @Override
    public void rejected() {
        for (Counter counter : rejection) {
            counter.increment();
        }
    }

    @Override
    public void processed(long nanos) {
        for (Timer timer : processing) {
            timer.record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void methodDone(Object token, ServiceKey key, String method, long nanos) {
        if (!legacy) {
            return;
        }
        Timer timer = methods.get(token);
        if (timer == null) {
            timer = methods.computeIfAbsent(token, t -> timer(JupiterMeterBinder.METHOD, legacyTags.and(
                    JupiterMeterBinder.GROUP_TAG, key.group(), JupiterMeterBinder.SERVICE_TAG, key.name(),
                    JupiterMeterBinder.VERSION_TAG, key.version(), JupiterMeterBinder.METHOD_TAG, method),
                    "provider method execution time; consumer call time"));
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Stream meters (new names only), made for a method when its first stream opens. */
    @Override
    public RpcMetrics.StreamListener streamOpened(ServiceKey key, String method) {
        MethodKey id = new MethodKey(key, method);
        StreamMeters meters = streams.get(id);
        if (meters == null) {
            meters = streams.computeIfAbsent(id, k -> new StreamMeters(side, registry, tags, key, method, created));
        }
        return meters.opened();
    }

    /** Removes every meter this made from its registry. */
    public void remove() {
        for (Meter meter : created) {
            registry.remove(meter);
        }
        created.clear();
        methods.clear();
        streams.clear();
    }

    /** A method of a service, as a map key. */
    private record MethodKey(ServiceKey key, String method) {
    }
}
