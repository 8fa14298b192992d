package io.jupiter.micrometer.internal;

import io.jupiter.micrometer.JupiterMeterBinder;
import io.jupiter.micrometer.observation.RpcObservationDocumentation.LowCardinalityKeyNames;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.rpc.stream.SlowConsumerPolicy;
import io.jupiter.transport.Status;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The stream meters of one method on one side: streams open (gauge), messages and bytes each way (counters),
 * slow-consumer events by policy (counter), and the streams ended by status with their duration (timer). One
 * instance serves every stream of the method: each event is a counter increment, the timer is found per status.
 */
final class StreamMeters implements RpcMetrics.StreamListener {

    /** Streams may last hours: the duration histogram reaches a day. */
    private static final Duration STREAM_MAX_TIME = Duration.ofDays(1);

    private final MeterRegistry registry;
    private final List<Meter> created;
    private final Tags tags;
    private final boolean provider;
    private final AtomicLong open = new AtomicLong();
    private final Counter sentMessages;
    private final Counter receivedMessages;
    private final Counter sentBytes;
    private final Counter receivedBytes;
    private final Map<SlowConsumerPolicy, Counter> slow = new EnumMap<>(SlowConsumerPolicy.class);
    private final Map<Status, Timer> ended = new ConcurrentHashMap<>();

    StreamMeters(RpcMetrics.Side side, MeterRegistry registry, Tags common, ServiceKey key, String method,
                 List<Meter> created) {
        this.registry = registry;
        this.created = created;
        this.provider = side == RpcMetrics.Side.PROVIDER;
        this.tags = common.and(
                LowCardinalityKeyNames.RPC_METHOD.asString(), key.name() + '/' + method,
                LowCardinalityKeyNames.RPC_SERVICE.asString(), key.name(),
                LowCardinalityKeyNames.GROUP.asString(), key.group(),
                LowCardinalityKeyNames.VERSION.asString(), key.version());
        add(Gauge.builder(provider ? JupiterMeterBinder.SERVER_STREAMS_OPEN : JupiterMeterBinder.CLIENT_STREAMS_OPEN,
                        open, AtomicLong::get).tags(tags).description("streams open now")
                .strongReference(true).register(registry));
        String messages = provider ? JupiterMeterBinder.SERVER_STREAM_MESSAGES
                : JupiterMeterBinder.CLIENT_STREAM_MESSAGES;
        String bytes = provider ? JupiterMeterBinder.SERVER_STREAM_BYTES : JupiterMeterBinder.CLIENT_STREAM_BYTES;
        this.sentMessages = counter(messages, JupiterMeterBinder.SENT, null, "stream messages sent or received");
        this.receivedMessages = counter(messages, JupiterMeterBinder.RECEIVED, null,
                "stream messages sent or received");
        this.sentBytes = counter(bytes, JupiterMeterBinder.SENT, "bytes",
                "stream message bodies sent or received (without the 16-byte header)");
        this.receivedBytes = counter(bytes, JupiterMeterBinder.RECEIVED, "bytes",
                "stream message bodies sent or received (without the 16-byte header)");
        for (SlowConsumerPolicy policy : new SlowConsumerPolicy[] {SlowConsumerPolicy.DROP_OLDEST,
                SlowConsumerPolicy.DROP_NEWEST, SlowConsumerPolicy.FAIL}) {
            slow.put(policy, add(Counter.builder(provider ? JupiterMeterBinder.SERVER_STREAM_SLOW_CONSUMER
                            : JupiterMeterBinder.CLIENT_STREAM_SLOW_CONSUMER)
                    .tags(tags).tag(JupiterMeterBinder.POLICY_TAG, policy.name())
                    .description("a receiver read too slowly: messages dropped (DROP_OLDEST, DROP_NEWEST), streams"
                            + " ended (FAIL)")
                    .register(registry)));
        }
    }

    private Counter counter(String name, String direction, String unit, String description) {
        return add(Counter.builder(name).tags(tags).tag(JupiterMeterBinder.DIRECTION_TAG, direction).baseUnit(unit)
                .description(description).register(registry));
    }

    private <M extends Meter> M add(M meter) {
        created.add(meter);
        return meter;
    }

    /** A stream of this method opened. */
    StreamMeters opened() {
        open.incrementAndGet();
        return this;
    }

    @Override
    public void messageSent(int bodyBytes) {
        sentMessages.increment();
        sentBytes.increment(bodyBytes);
    }

    @Override
    public void messageReceived(int bodyBytes) {
        receivedMessages.increment();
        receivedBytes.increment(bodyBytes);
    }

    @Override
    public void slowConsumer(SlowConsumerPolicy policy) {
        Counter counter = slow.get(policy);
        if (counter != null) {
            counter.increment();
        }
    }

    @Override
    public void ended(Status status, long nanos) {
        open.decrementAndGet();
        Timer timer = ended.get(status);
        if (timer == null) {
            timer = ended.computeIfAbsent(status, s -> add(Timer.builder(provider
                            ? JupiterMeterBinder.SERVER_STREAM_DURATION : JupiterMeterBinder.CLIENT_STREAM_DURATION)
                    .tags(tags).tag(LowCardinalityKeyNames.STATUS.asString(), s.name())
                    .description("streams ended, by status, and how long they were open")
                    .publishPercentileHistogram().minimumExpectedValue(SideMeters.MIN_TIME)
                    .maximumExpectedValue(STREAM_MAX_TIME).register(registry)));
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }
}
