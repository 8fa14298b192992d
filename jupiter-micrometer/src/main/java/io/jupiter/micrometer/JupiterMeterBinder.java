package io.jupiter.micrometer;

import io.jupiter.common.Requires;
import io.jupiter.micrometer.internal.SideMeters;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.List;

/**
 * Publishes the RPC metrics of servers and clients (the ones the monitor console shows) as Micrometer meters.
 *
 * <pre>{@code
 * JupiterMeterBinder binder = JupiterMeterBinder.of(server.metrics(), client.metrics());
 * binder.bindTo(meterRegistry);
 * ...
 * binder.close();   // stops recording and removes the meters
 * }</pre>
 *
 * <p>Every meter has the tag {@value #SIDE_TAG} ({@code provider} or {@code consumer}) and the common tags given to
 * {@link #of(Iterable, RpcMetrics...)}:
 * <table>
 * <caption>Meters</caption>
 * <tr><th>name</th><th>type</th><th>Prometheus</th><th>what</th></tr>
 * <tr><td>{@value #REQUEST_SIZE}</td><td>distribution summary, bytes</td><td>{@code jupiter_request_size_bytes}</td>
 *     <td>request body size (without the 16-byte header), received (provider) or sent (consumer)</td></tr>
 * <tr><td>{@value #RESPONSE_SIZE}</td><td>distribution summary, bytes</td><td>{@code jupiter_response_size_bytes}</td>
 *     <td>response body size, sent (provider) or received (consumer)</td></tr>
 * <tr><td>{@value #REJECTION}</td><td>counter</td><td>{@code jupiter_rejection_total}</td>
 *     <td>requests refused: bad request, service not found, busy, flow control</td></tr>
 * <tr><td>{@value #PROCESSING}</td><td>timer (provider only)</td><td>{@code jupiter_processing_seconds}</td>
 *     <td>from a request decoded to its response handed to the connection</td></tr>
 * <tr><td>{@value #METHOD}</td><td>timer, tags {@value #GROUP_TAG}, {@value #SERVICE_TAG}, {@value #VERSION_TAG},
 *     {@value #METHOD_TAG}</td><td>{@code jupiter_method_seconds}</td>
 *     <td>provider method execution time; consumer call time</td></tr>
 * </table>
 *
 * <p>Timers and summaries publish a percentile histogram ({@code _bucket} series in Prometheus), so a Prometheus
 * server can aggregate quantiles over many processes. Only what is recorded after {@link #bindTo} is counted, and
 * nothing when the {@link RpcMetrics} are disabled. The binder may be bound to several registries.
 */
public final class JupiterMeterBinder implements MeterBinder, AutoCloseable {

    /** Distribution summary of request body sizes in bytes. */
    public static final String REQUEST_SIZE = "jupiter.request.size";
    /** Distribution summary of response body sizes in bytes. */
    public static final String RESPONSE_SIZE = "jupiter.response.size";
    /** Counter of refused requests. */
    public static final String REJECTION = "jupiter.rejection";
    /** Timer of request processing (provider only). */
    public static final String PROCESSING = "jupiter.processing";
    /** Timer of each method, provider and consumer. */
    public static final String METHOD = "jupiter.method";

    /** {@code provider} or {@code consumer}. */
    public static final String SIDE_TAG = "side";
    /** The service group of a method timer. */
    public static final String GROUP_TAG = "group";
    /** The service name of a method timer. */
    public static final String SERVICE_TAG = "service";
    /** The service version of a method timer. */
    public static final String VERSION_TAG = "version";
    /** The method name of a method timer. */
    public static final String METHOD_TAG = "method";

    private final List<RpcMetrics> sides;
    private final Tags tags;
    private final List<Binding> bound = new ArrayList<>();
    private boolean closed;

    private JupiterMeterBinder(Iterable<Tag> tags, RpcMetrics... sides) {
        this.tags = Tags.of(Requires.notNull(tags, "tags"));
        this.sides = new ArrayList<>();
        for (RpcMetrics side : sides) {
            this.sides.add(Requires.notNull(side, "metrics"));
        }
    }

    /** A binder of the given metrics, e.g. {@code server.metrics()} and {@code client.metrics()}. */
    public static JupiterMeterBinder of(RpcMetrics... sides) {
        return new JupiterMeterBinder(Tags.empty(), sides);
    }

    /** A binder of the given metrics, adding {@code tags} to every meter. */
    public static JupiterMeterBinder of(Iterable<Tag> tags, RpcMetrics... sides) {
        return new JupiterMeterBinder(tags, sides);
    }

    /** A binder of one server's provider-side metrics. */
    public static JupiterMeterBinder of(JupiterServer server) {
        return of(Requires.notNull(server, "server").metrics());
    }

    /** A binder of one client's consumer-side metrics. */
    public static JupiterMeterBinder of(JupiterClient client) {
        return of(Requires.notNull(client, "client").metrics());
    }

    /**
     * Registers the meters in {@code registry} and starts feeding them.
     *
     * @throws IllegalStateException after {@link #close()}
     */
    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        Requires.notNull(registry, "registry");
        if (closed) {
            throw new IllegalStateException("JupiterMeterBinder is closed");
        }
        for (RpcMetrics side : sides) {
            SideMeters meters = new SideMeters(side.side(), registry, tags);
            side.addListener(meters);
            bound.add(new Binding(side, meters));
        }
    }

    /** Stops feeding the meters and removes them from every registry they were bound to. */
    @Override
    public synchronized void close() {
        closed = true;
        for (Binding binding : bound) {
            binding.side.removeListener(binding.meters);
            binding.meters.remove();
        }
        bound.clear();
    }

    /** The meters of one side in one registry. */
    private record Binding(RpcMetrics side, SideMeters meters) {
    }
}
