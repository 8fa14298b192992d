package io.jupiter.micrometer;

import io.jupiter.common.Requires;
import io.jupiter.micrometer.internal.SideMeters;
import io.jupiter.rpc.ConsumedService;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.transport.PeerIncident;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Publishes the RPC metrics of servers and clients (the ones the monitor console shows) as Micrometer meters.
 *
 * <pre>{@code
 * JupiterMeterBinder binder = JupiterMeterBinder.of(server, client);
 * binder.bindTo(meterRegistry);
 * ...
 * binder.close();   // stops recording and removes the meters
 * }</pre>
 *
 * <p>Names follow OpenTelemetry's RPC semantic conventions where they have one (semconv 1.40.0), else
 * {@code rpc.jupiter.*}; every meter has the tag {@value #SYSTEM_TAG}{@code =jupiter} and the common tags given to
 * {@link #of(Iterable, RpcMetrics...)}:
 * <table>
 * <caption>Meters</caption>
 * <tr><th>name</th><th>type</th><th>Prometheus</th><th>what</th></tr>
 * <tr><td>{@value #SERVER_REQUEST_SIZE}, {@value #CLIENT_REQUEST_SIZE}</td><td>distribution summary, bytes</td>
 *     <td>{@code rpc_server_request_size_bytes}</td><td>request body size (without the 16-byte header)</td></tr>
 * <tr><td>{@value #SERVER_RESPONSE_SIZE}, {@value #CLIENT_RESPONSE_SIZE}</td><td>distribution summary, bytes</td>
 *     <td>{@code rpc_server_response_size_bytes}</td><td>response body size</td></tr>
 * <tr><td>{@value #SERVER_REJECTED}, {@value #CLIENT_REJECTED}</td><td>counter</td>
 *     <td>{@code rpc_jupiter_server_rejected_total}</td>
 *     <td>requests refused: bad request, service not found, busy, flow control</td></tr>
 * <tr><td>{@value #SERVER_PROCESSING}</td><td>timer</td><td>{@code rpc_jupiter_server_processing_duration_seconds}</td>
 *     <td>from a request decoded to its response handed to the connection</td></tr>
 * <tr><td>{@value #SERVER_CONNECTIONS}, {@value #CLIENT_CONNECTIONS}</td><td>gauge (servers and clients given as
 *     such)</td><td>{@code rpc_jupiter_server_connections}</td><td>connections open</td></tr>
 * <tr><td>{@value #SERVER_PEER_INCIDENTS}</td><td>counter, per {@value #INCIDENT_TAG} (servers given as such)</td>
 *     <td>{@code rpc_jupiter_server_peer_incidents_total}</td><td>connections closed or refused, and handler errors,
 *     by cause (docs/security.md)</td></tr>
 * <tr><td>{@value #SERVER_LOG_LINES_SUPPRESSED}</td><td>counter</td>
 *     <td>{@code rpc_jupiter_server_log_lines_suppressed_total}</td><td>log lines about peers throttled</td></tr>
 * <tr><td>{@value #CLIENT_PROVIDERS}</td><td>gauge</td><td>{@code rpc_jupiter_client_providers}</td>
 *     <td>provider addresses the client's proxies know (from the registry or configured)</td></tr>
 * <tr><td>{@value #SERVER_STREAMS_OPEN}, {@value #CLIENT_STREAMS_OPEN}</td><td>gauge, per method</td>
 *     <td>{@code rpc_jupiter_server_streams_open}</td><td>streams open now</td></tr>
 * <tr><td>{@value #SERVER_STREAM_MESSAGES}, {@value #CLIENT_STREAM_MESSAGES}</td><td>counter, per method and
 *     {@value #DIRECTION_TAG}</td><td>{@code rpc_jupiter_server_stream_messages_total}</td>
 *     <td>stream messages sent (against credit) and received</td></tr>
 * <tr><td>{@value #SERVER_STREAM_BYTES}, {@value #CLIENT_STREAM_BYTES}</td><td>counter, bytes, the same tags</td>
 *     <td>{@code rpc_jupiter_server_stream_bytes_total}</td><td>their body bytes</td></tr>
 * <tr><td>{@value #SERVER_STREAM_SLOW_CONSUMER}, {@value #CLIENT_STREAM_SLOW_CONSUMER}</td><td>counter, per method
 *     and {@value #POLICY_TAG}</td><td>{@code rpc_jupiter_server_stream_slow_consumer_total}</td>
 *     <td>messages dropped ({@code DROP_OLDEST}, {@code DROP_NEWEST}), streams ended ({@code FAIL})</td></tr>
 * <tr><td>{@value #SERVER_STREAM_DURATION}, {@value #CLIENT_STREAM_DURATION}</td><td>timer, per method and
 *     {@code rpc.response.status_code}</td><td>{@code rpc_jupiter_server_stream_duration_seconds}</td>
 *     <td>streams ended, by status, and how long each was open</td></tr>
 * </table>
 * The stream meters carry the call timers' method tags ({@code rpc.method}, {@code rpc.service},
 * {@code rpc.jupiter.group}, {@code rpc.jupiter.version}) and are made when a method's first stream opens.
 * The time of each call by service, method and status is the Observation instrumentation's
 * ({@code rpc.client.call.duration}, {@code rpc.server.call.duration}: see
 * {@link io.jupiter.micrometer.observation.RpcObservationFilter}).
 *
 * <p>The first names ({@value #REQUEST_SIZE}, {@value #RESPONSE_SIZE}, {@value #REJECTION}, {@value #PROCESSING},
 * {@value #METHOD}, with the tag {@value #SIDE_TAG}) are published too, for one more release, unless
 * {@link #legacyNames(boolean) legacyNames(false)}; docs/observability.md maps them to the new ones.
 *
 * <p>Timers and summaries publish a percentile histogram ({@code _bucket} series in Prometheus), so a Prometheus
 * server can aggregate quantiles over many processes. Only what is recorded after {@link #bindTo} is counted, and
 * nothing when the {@link RpcMetrics} are disabled. The binder may be bound to several registries.
 */
public final class JupiterMeterBinder implements MeterBinder, AutoCloseable {

    /** Tag on every meter under the new names: {@value #SYSTEM_TAG}={@value #SYSTEM}. */
    public static final String SYSTEM_TAG = "rpc.system.name";
    /** The value of {@link #SYSTEM_TAG}. */
    public static final String SYSTEM = "jupiter";
    /** Distribution summary of received request body sizes in bytes (provider). */
    public static final String SERVER_REQUEST_SIZE = "rpc.server.request.size";
    /** Distribution summary of sent request body sizes in bytes (consumer). */
    public static final String CLIENT_REQUEST_SIZE = "rpc.client.request.size";
    /** Distribution summary of sent response body sizes in bytes (provider). */
    public static final String SERVER_RESPONSE_SIZE = "rpc.server.response.size";
    /** Distribution summary of received response body sizes in bytes (consumer). */
    public static final String CLIENT_RESPONSE_SIZE = "rpc.client.response.size";
    /** Counter of requests the provider refused. */
    public static final String SERVER_REJECTED = "rpc.jupiter.server.rejected";
    /** Counter of calls refused by the provider, as the consumer saw them. */
    public static final String CLIENT_REJECTED = "rpc.jupiter.client.rejected";
    /** Timer of request processing (provider). */
    public static final String SERVER_PROCESSING = "rpc.jupiter.server.processing.duration";
    /** Gauge of a server's open connections. */
    public static final String SERVER_CONNECTIONS = "rpc.jupiter.server.connections";
    /** Gauge of a client's open connections, over all its proxies. */
    public static final String CLIENT_CONNECTIONS = "rpc.jupiter.client.connections";
    /** Gauge of the provider addresses a client's proxies know, over all its proxies. */
    public static final String CLIENT_PROVIDERS = "rpc.jupiter.client.providers";

    /**
     * Counter of what a server's peers did wrong, per {@value #INCIDENT_TAG} (a {@link PeerIncident} in lower case:
     * {@code malformed_frame}, {@code too_many_heartbeats}, {@code not_reading}, ...).
     */
    public static final String SERVER_PEER_INCIDENTS = "rpc.jupiter.server.peer.incidents";
    /** Counter of the log lines about a server's peers that were throttled (not printed). */
    public static final String SERVER_LOG_LINES_SUPPRESSED = "rpc.jupiter.server.log.lines.suppressed";
    /** The tag naming a {@link PeerIncident}. */
    public static final String INCIDENT_TAG = "incident";

    /** Gauge of the streams a server has open, per method. */
    public static final String SERVER_STREAMS_OPEN = "rpc.jupiter.server.streams.open";
    /** Gauge of the streams a client has open, per method. */
    public static final String CLIENT_STREAMS_OPEN = "rpc.jupiter.client.streams.open";
    /** Counter of stream messages a server sent and received, per method and {@value #DIRECTION_TAG}. */
    public static final String SERVER_STREAM_MESSAGES = "rpc.jupiter.server.stream.messages";
    /** Counter of stream messages a client sent and received, per method and {@value #DIRECTION_TAG}. */
    public static final String CLIENT_STREAM_MESSAGES = "rpc.jupiter.client.stream.messages";
    /** Counter of the body bytes of the stream messages a server sent and received. */
    public static final String SERVER_STREAM_BYTES = "rpc.jupiter.server.stream.bytes";
    /** Counter of the body bytes of the stream messages a client sent and received. */
    public static final String CLIENT_STREAM_BYTES = "rpc.jupiter.client.stream.bytes";
    /** Counter of a server's slow-consumer events, per method and {@value #POLICY_TAG}. */
    public static final String SERVER_STREAM_SLOW_CONSUMER = "rpc.jupiter.server.stream.slow_consumer";
    /** Counter of a client's slow-consumer events (its own messages to a slow provider method). */
    public static final String CLIENT_STREAM_SLOW_CONSUMER = "rpc.jupiter.client.stream.slow_consumer";
    /** Timer of a server's streams, from admitted to ended, per method and {@code rpc.response.status_code}. */
    public static final String SERVER_STREAM_DURATION = "rpc.jupiter.server.stream.duration";
    /** Timer of a client's streams, from the open sent to the end, per method and status. */
    public static final String CLIENT_STREAM_DURATION = "rpc.jupiter.client.stream.duration";
    /** Of the stream message counters: {@value #SENT} or {@value #RECEIVED}. */
    public static final String DIRECTION_TAG = "rpc.jupiter.direction";
    /** A value of {@link #DIRECTION_TAG}. */
    public static final String SENT = "sent";
    /** A value of {@link #DIRECTION_TAG}. */
    public static final String RECEIVED = "received";
    /** Of the slow-consumer counters: {@code DROP_OLDEST}, {@code DROP_NEWEST} or {@code FAIL}. */
    public static final String POLICY_TAG = "rpc.jupiter.policy";

    /** First name of {@link #SERVER_REQUEST_SIZE} / {@link #CLIENT_REQUEST_SIZE}; kept for one release. */
    public static final String REQUEST_SIZE = "jupiter.request.size";
    /** First name of {@link #SERVER_RESPONSE_SIZE} / {@link #CLIENT_RESPONSE_SIZE}; kept for one release. */
    public static final String RESPONSE_SIZE = "jupiter.response.size";
    /** First name of {@link #SERVER_REJECTED} / {@link #CLIENT_REJECTED}; kept for one release. */
    public static final String REJECTION = "jupiter.rejection";
    /** First name of {@link #SERVER_PROCESSING}; kept for one release. */
    public static final String PROCESSING = "jupiter.processing";
    /** Timer of each method, provider and consumer; replaced by the Observation's call timers; kept for one release. */
    public static final String METHOD = "jupiter.method";

    /** Of the first names: {@code provider} or {@code consumer}. */
    public static final String SIDE_TAG = "side";
    /** Of the first names: the service group of a method timer. */
    public static final String GROUP_TAG = "group";
    /** Of the first names: the service name of a method timer. */
    public static final String SERVICE_TAG = "service";
    /** Of the first names: the service version of a method timer. */
    public static final String VERSION_TAG = "version";
    /** Of the first names: the method name of a method timer. */
    public static final String METHOD_TAG = "method";

    private final List<RpcMetrics> sides;
    private final List<JupiterServer> servers = new ArrayList<>();
    private final List<JupiterClient> clients = new ArrayList<>();
    private final Tags tags;
    private final List<Binding> bound = new ArrayList<>();
    private final List<Bound> gauges = new ArrayList<>();
    private boolean legacyNames = true;
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

    /** A binder of one server's provider-side metrics and its connections. */
    public static JupiterMeterBinder of(JupiterServer server) {
        return of(Tags.empty(), server, null);
    }

    /** A binder of one client's consumer-side metrics, its connections and the providers it knows. */
    public static JupiterMeterBinder of(JupiterClient client) {
        return of(Tags.empty(), null, client);
    }

    /** A binder of a server and a client (either may be {@code null}), adding {@code tags} to every meter. */
    public static JupiterMeterBinder of(JupiterServer server, JupiterClient client) {
        return of(Tags.empty(), server, client);
    }

    /** A binder of a server and a client (either may be {@code null}), adding {@code tags} to every meter. */
    public static JupiterMeterBinder of(Iterable<Tag> tags, JupiterServer server, JupiterClient client) {
        if (server == null && client == null) {
            throw new IllegalArgumentException("server and client are both null (expected: at least one)");
        }
        List<RpcMetrics> sides = new ArrayList<>();
        if (server != null) {
            sides.add(server.metrics());
        }
        if (client != null) {
            sides.add(client.metrics());
        }
        JupiterMeterBinder binder = new JupiterMeterBinder(tags, sides.toArray(RpcMetrics[]::new));
        if (server != null) {
            binder.servers.add(server);
        }
        if (client != null) {
            binder.clients.add(client);
        }
        return binder;
    }

    /**
     * Whether to publish the first names ({@code jupiter.*}) beside the new ones; true by default in this release,
     * the first names go in the next. Set before {@link #bindTo}.
     *
     * @return this binder
     */
    public synchronized JupiterMeterBinder legacyNames(boolean publish) {
        if (!bound.isEmpty()) {
            throw new IllegalStateException("legacyNames must be set before bindTo");
        }
        this.legacyNames = publish;
        return this;
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
            SideMeters meters = new SideMeters(side.side(), registry, tags, legacyNames);
            side.addListener(meters);
            bound.add(new Binding(side, meters));
        }
        Tags gaugeTags = tags.and(SYSTEM_TAG, SYSTEM);
        for (JupiterServer server : servers) {
            gauge(registry, SERVER_CONNECTIONS, server, JupiterServer::connectionCount, gaugeTags,
                    "connections open to the server");
            for (PeerIncident incident : PeerIncident.values()) {
                counter(registry, SERVER_PEER_INCIDENTS, server, s -> s.peerIncidents().count(incident),
                        gaugeTags.and(INCIDENT_TAG, incident.name().toLowerCase(Locale.ROOT)),
                        "what the server's peers did wrong (closed, refused or logged)");
            }
            counter(registry, SERVER_LOG_LINES_SUPPRESSED, server, s -> s.peerIncidents().suppressedLogLines(),
                    gaugeTags, "log lines about the server's peers throttled, not printed");
        }
        for (JupiterClient client : clients) {
            gauge(registry, CLIENT_CONNECTIONS, client, c -> sum(c, true), gaugeTags,
                    "connections the client's proxies have open");
            gauge(registry, CLIENT_PROVIDERS, client, c -> sum(c, false), gaugeTags,
                    "provider addresses the client's proxies know");
        }
    }

    private <T> void gauge(MeterRegistry registry, String name, T object, ToDoubleFunction<T> value, Tags gaugeTags,
                           String description) {
        gauges.add(new Bound(registry, Gauge.builder(name, object, value).tags(gaugeTags).description(description)
                .strongReference(true).register(registry)));
    }

    private <T> void counter(MeterRegistry registry, String name, T object, ToDoubleFunction<T> value, Tags tags,
                             String description) {
        gauges.add(new Bound(registry, FunctionCounter.builder(name, object, value).tags(tags)
                .description(description).register(registry)));
    }

    private static double sum(JupiterClient client, boolean connections) {
        double total = 0;
        for (ConsumedService service : client.consumedServices()) {
            for (ConsumedService.Target target : service.targets()) {
                total += connections ? target.activeConnections() : 1;
            }
        }
        return total;
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
        for (Bound gauge : gauges) {
            gauge.registry.remove(gauge.meter);
        }
        gauges.clear();
    }

    /** The meters of one side in one registry. */
    private record Binding(RpcMetrics side, SideMeters meters) {
    }

    /** A gauge and the registry it is in. */
    private record Bound(MeterRegistry registry, Meter meter) {
    }
}
