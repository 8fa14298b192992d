package io.jupiter.rpc.metrics;

import com.codahale.metrics.Clock;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import io.jupiter.common.Requires;
import io.jupiter.common.config.JupiterSettings;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.stream.SlowConsumerPolicy;
import io.jupiter.transport.Status;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The metrics of one {@code JupiterServer} (provider side) or {@code JupiterClient} (consumer side), in a
 * Dropwizard {@link MetricRegistry} of its own: histograms {@value MetricNames#REQUEST_SIZE} and
 * {@value MetricNames#RESPONSE_SIZE}, meter {@value MetricNames#REJECTION}, a timer per called method and, on the
 * provider, timer {@value MetricNames#PROCESSING}; on the consumer, meters {@value MetricNames#OUTLIER_EJECTION},
 * {@value MetricNames#OUTLIER_RETURN} and {@value MetricNames#RETRY_THROTTLED}.
 *
 * <p>Recording is wait-free (HdrHistogram reservoirs, {@code LongAdder} counts) and allocates nothing on the
 * provider; when disabled every recording method returns at once. The recording methods are for the RPC runtime;
 * readers (the monitor) use {@link #registry()}; other metrics libraries (e.g. {@code jupiter-micrometer}) receive
 * every recording through a {@link Listener}.
 */
public final class RpcMetrics {

    /** Which end of a call the metrics describe. */
    public enum Side {
        PROVIDER, CONSUMER;

        /** {@code provider} or {@code consumer}. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Receives every recording as it is made, on the thread that makes it (an IO or provider thread: keep it short and
     * never block or throw). Each method does nothing by default. Not called when the metrics are disabled.
     *
     * @see #addListener(Listener)
     */
    public interface Listener {

        /** A request body of {@code bodyBytes} was received (provider) or sent (consumer). */
        default void requestSize(int bodyBytes) {
        }

        /** A response body of {@code bodyBytes} was handed to the connection (provider) or received (consumer). */
        default void responseSize(int bodyBytes) {
        }

        /** A request was refused ({@link #isRejection(byte)}). */
        default void rejected() {
        }

        /** Provider only: a request took {@code nanos} from decoded to its response handed to the connection. */
        default void processed(long nanos) {
        }

        /**
         * A call of {@code method} of {@code key} took {@code nanos}; {@code token} is the same object for every call
         * of the same method (compare by identity to cache per-method state).
         */
        default void methodDone(Object token, ServiceKey key, String method, long nanos) {
        }

        /** Consumer only: a proxy took a provider out of load balancing (outlier ejection). */
        default void outlierEjected() {
        }

        /** Consumer only: an ejected provider came back into load balancing. */
        default void outlierReturned() {
        }

        /** Consumer only: a retry or hedge was not sent because the proxy's retry budget was spent. */
        default void retryThrottled() {
        }

        /**
         * A stream of {@code method} of {@code key} opened (provider: its method was admitted; consumer: its open
         * frame is being sent). Returns who hears the stream's events, or {@code null} (the default) to hear none;
         * when every listener returns {@code null} the stream records nothing at all.
         */
        default StreamListener streamOpened(ServiceKey key, String method) {
            return null;
        }
    }

    /**
     * The events of one stream (or of every stream of one method: the same object may be returned for many), on the
     * thread that makes them (an IO, stream or producer thread, sometimes holding the stream's lock: keep it short,
     * never block or throw). Each method does nothing by default.
     */
    public interface StreamListener {

        /** A message of {@code bodyBytes} (without the 16-byte header) went to the connection, against credit. */
        default void messageSent(int bodyBytes) {
        }

        /** A message of {@code bodyBytes} (without the 16-byte header) arrived. */
        default void messageReceived(int bodyBytes) {
        }

        /**
         * The receiver read too slowly and the stream's policy acted: a message dropped ({@code DROP_OLDEST},
         * {@code DROP_NEWEST}) or the stream ended ({@code FAIL}, status {@code SLOW_CONSUMER}).
         */
        default void slowConsumer(SlowConsumerPolicy policy) {
        }

        /** The stream ended with {@code status} after {@code nanos}; once per stream. */
        default void ended(Status status, long nanos) {
        }
    }

    private static final Listener[] NO_LISTENERS = {};

    /** {@code -Djupiter.metrics.enabled}: the default of the builders' {@code metrics(boolean)}. */
    public static final String ENABLED_PROPERTY = JupiterSettings.METRICS.property();

    private final Side side;
    private final boolean enabled;
    private final MetricRegistry registry = new MetricRegistry();
    private final Histogram requestSize;
    private final Histogram responseSize;
    private final Meter rejection;
    private final Timer processing;
    private final Meter outlierEjection;
    private final Meter outlierReturn;
    private final Meter retryThrottled;
    private final Meter queueShed;
    private final Meter deadlineExpired;
    private final Meter callCancelled;
    /** Method timers by the runtime's own method object (identity), so the hot path builds no name. */
    private final ConcurrentHashMap<Object, Timer> methodTimers = new ConcurrentHashMap<>();
    /** Copied on write: the recording paths read the array once and allocate nothing. */
    private volatile Listener[] listeners = NO_LISTENERS;

    private RpcMetrics(Side side, boolean enabled) {
        this.side = Requires.notNull(side, "side");
        this.enabled = enabled;
        this.requestSize = registry.register(MetricNames.REQUEST_SIZE, new CountedHistogram(new HdrReservoir()));
        this.responseSize = registry.register(MetricNames.RESPONSE_SIZE, new CountedHistogram(new HdrReservoir()));
        this.rejection = registry.register(MetricNames.REJECTION, RatesOnRead.newMeter());
        this.processing = side == Side.PROVIDER ? registry.register(MetricNames.PROCESSING, newTimer()) : null;
        boolean consumer = side == Side.CONSUMER;
        this.outlierEjection = consumer ? registry.register(MetricNames.OUTLIER_EJECTION, RatesOnRead.newMeter())
                : null;
        this.outlierReturn = consumer ? registry.register(MetricNames.OUTLIER_RETURN, RatesOnRead.newMeter()) : null;
        this.retryThrottled = consumer ? registry.register(MetricNames.RETRY_THROTTLED, RatesOnRead.newMeter())
                : null;
        boolean provider = side == Side.PROVIDER;
        this.queueShed = provider ? registry.register(MetricNames.QUEUE_SHED, RatesOnRead.newMeter()) : null;
        this.deadlineExpired = provider ? registry.register(MetricNames.DEADLINE_EXPIRED, RatesOnRead.newMeter())
                : null;
        this.callCancelled = provider ? registry.register(MetricNames.CALL_CANCELLED, RatesOnRead.newMeter()) : null;
    }

    /** Metrics for {@code side}; when {@code enabled} is false nothing is recorded. */
    public static RpcMetrics create(Side side, boolean enabled) {
        return new RpcMetrics(side, enabled);
    }

    /** The default of {@code metrics(boolean)} on the builders: {@code -Djupiter.metrics.enabled}, else on. */
    public static boolean enabledByDefault() {
        return JupiterSettings.METRICS.get();
    }

    private static Timer newTimer() {
        Histogram histogram = new CountedHistogram(new HdrReservoir());
        return new Timer(RatesOnRead.newMeterCountedBy(histogram), histogram, Clock.defaultClock());
    }

    public Side side() {
        return side;
    }

    /** Whether anything is recorded. */
    public boolean enabled() {
        return enabled;
    }

    /** The registry (read it; do not add to it). */
    public MetricRegistry registry() {
        return registry;
    }

    /**
     * Adds a listener that receives every recording from now on (none of the past ones).
     *
     * @see #removeListener(Listener)
     */
    public synchronized void addListener(Listener listener) {
        Requires.notNull(listener, "listener");
        Listener[] grown = Arrays.copyOf(listeners, listeners.length + 1);
        grown[listeners.length] = listener;
        listeners = grown;
    }

    /** Removes a listener added with {@link #addListener}; nothing happens if it is not there. */
    public synchronized void removeListener(Listener listener) {
        listeners = Arrays.stream(listeners).filter(l -> l != listener).toArray(Listener[]::new);
    }

    // ---- recording (called by the RPC runtime) ----

    /** A start time for {@link #methodDone}, or 0 when disabled (saves the clock read). */
    public long startNanos() {
        return enabled ? System.nanoTime() : 0L;
    }

    /** A request body of {@code bodyBytes} was received (provider) or sent (consumer). */
    public void request(int bodyBytes) {
        if (enabled) {
            requestSize.update(bodyBytes);
            for (Listener listener : listeners) {
                listener.requestSize(bodyBytes);
            }
        }
    }

    /**
     * A response with {@code status} and {@code bodyBytes} was handed to the connection (provider) or received
     * (consumer). On the provider, {@code receivedNanos} (when the request was decoded) times
     * {@value MetricNames#PROCESSING}; 0 skips it.
     */
    public void response(byte status, int bodyBytes, long receivedNanos) {
        if (!enabled) {
            return;
        }
        Listener[] current = listeners;
        responseSize.update(bodyBytes);
        for (Listener listener : current) {
            listener.responseSize(bodyBytes);
        }
        if (isRejection(status)) {
            rejection.mark();
            for (Listener listener : current) {
                listener.rejected();
            }
        }
        if (processing != null && receivedNanos != 0L) {
            long nanos = System.nanoTime() - receivedNanos;
            processing.update(nanos, TimeUnit.NANOSECONDS);
            for (Listener listener : current) {
                listener.processed(nanos);
            }
        }
    }

    /**
     * The method identified by {@code token} (any object unique to the method, e.g. the runtime's method entry)
     * finished; {@code startNanos} from {@link #startNanos()}.
     */
    public void methodDone(Object token, ServiceKey key, String method, long startNanos) {
        methodDone(token, key, method, startNanos, 0L);
    }

    /**
     * {@link #methodDone(Object, ServiceKey, String, long)} at {@code endNanos}, a {@link System#nanoTime()} the
     * caller read just now (0: read here).
     */
    public void methodDone(Object token, ServiceKey key, String method, long startNanos, long endNanos) {
        if (enabled && startNanos != 0L) {
            long nanos = (endNanos != 0L ? endNanos : System.nanoTime()) - startNanos;
            methodTimer(token, key, method).update(nanos, TimeUnit.NANOSECONDS);
            for (Listener listener : listeners) {
                listener.methodDone(token, key, method, nanos);
            }
        }
    }

    private Timer methodTimer(Object token, ServiceKey key, String method) {
        Timer timer = methodTimers.get(token);
        if (timer == null) {
            String name = MetricNames.method(key, method);
            Timer registered = registry.timer(name, RpcMetrics::newTimer);
            timer = methodTimers.computeIfAbsent(token, t -> registered);
        }
        return timer;
    }

    /** A proxy took a provider out of load balancing (consumer). Rare: not on a call's fast path. */
    public void outlierEjected() {
        if (enabled && outlierEjection != null) {
            outlierEjection.mark();
            for (Listener listener : listeners) {
                listener.outlierEjected();
            }
        }
    }

    /** An ejected provider came back into load balancing (consumer). */
    public void outlierReturned() {
        if (enabled && outlierReturn != null) {
            outlierReturn.mark();
            for (Listener listener : listeners) {
                listener.outlierReturned();
            }
        }
    }

    /** A retry or hedge was not sent: the proxy's retry budget was spent (consumer). */
    public void retryThrottled() {
        if (enabled && retryThrottled != null) {
            retryThrottled.mark();
            for (Listener listener : listeners) {
                listener.retryThrottled();
            }
        }
    }

    /** A request waited in the queue longer than it allowed and was answered SERVER_BUSY unrun (provider). */
    public void queueShed() {
        if (enabled && queueShed != null) {
            queueShed.mark();
        }
    }

    /** A request was dropped unrun: its caller's deadline passed before it could run (provider). */
    public void deadlineExpired() {
        if (enabled && deadlineExpired != null) {
            deadlineExpired.mark();
        }
    }

    /** A request was dropped unrun: its caller cancelled it before it could run (provider). */
    public void callCancelled() {
        if (enabled && callCancelled != null) {
            callCancelled.mark();
        }
    }

    /**
     * A stream's open was refused with {@code status} (provider): counted with the refused requests
     * ({@value MetricNames#REJECTION}) when the status is a refusal.
     */
    public void streamRefused(Status status) {
        if (enabled && isRejection(status.value())) {
            rejection.mark();
            for (Listener listener : listeners) {
                listener.rejected();
            }
        }
    }

    /**
     * A stream of {@code method} of {@code key} opened: its recorder, or {@code null} when disabled or no listener
     * wants stream events (then the stream records nothing).
     */
    public StreamMetrics streamOpened(ServiceKey key, String method) {
        if (!enabled) {
            return null;
        }
        Listener[] current = listeners;
        if (current.length == 0) {
            return null;
        }
        List<StreamListener> found = null;
        for (Listener listener : current) {
            StreamListener stream = listener.streamOpened(key, method);
            if (stream != null) {
                if (found == null) {
                    found = new ArrayList<>(current.length);
                }
                found.add(stream);
            }
        }
        return found == null ? null : new StreamMetrics(found.toArray(StreamListener[]::new));
    }

    /** Whether a response status means the request was refused. */
    public static boolean isRejection(byte status) {
        return StatusTable.isRefusal(Status.fromByte(status));
    }
}
