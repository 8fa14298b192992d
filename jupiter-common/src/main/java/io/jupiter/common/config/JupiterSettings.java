package io.jupiter.common.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every setting of Jupiter, in one place: type, default, bounds, system property (with 1.3.1's and older names as
 * aliases) and the line that documents it. The settings table of docs/configuration.md is generated from this
 * list, in this order ({@link SettingsTable}); a test fails when they differ.
 *
 * <p>Property names are lower-case words separated by dots, ending in the unit ({@code .millis}, {@code .micros},
 * {@code .seconds}); the names 1.3.1 used and names renamed since stay accepted as aliases.
 *
 * <p>The settings are plain data: this module is below every other, so each module reads its own settings here
 * ({@code JupiterSettings.INVOKE_TIMEOUT.get()}) and its builders check what they are given with the same
 * declaration ({@code JupiterSettings.INVOKE_TIMEOUT.check(millis)}).
 */
public final class JupiterSettings {

    private static final List<Setting<?>> DECLARED = new ArrayList<>();

    // ---- transport (TransportConfig) ----

    /** Largest frame body accepted; checked on the header, before the body is buffered. */
    public static final Setting<Integer> MAX_BODY_SIZE = declare(Setting.of("maxBodySize", ValueType.INT,
                    5 * 1024 * 1024)
            .bound(Bound.positive()).defaultText("5 MiB")
            .doc("body size cap (checked on the header, before the body is buffered)")
            .property("jupiter.io.decoder.max.body.size")
            .where("`TransportConfig.Builder.maxBodySize`"));

    /** A server closes a connection that sent nothing for this long; 0: never. */
    public static final Setting<Long> READER_IDLE_MILLIS = declare(Setting.of("readerIdleMillis",
                    ValueType.SECONDS_AS_MILLIS, 60_000L)
            .bound(Bound.notNegative()).accepts("0: off; the property in seconds").defaultText("60 s")
            .doc("server closes a connection with no inbound bytes")
            .property("jupiter.io.reader.idle.time.seconds")
            .where("`TransportConfig.Builder.readerIdleMillis`"));

    /** A client sends a heartbeat after writing nothing for this long; 0: never. */
    public static final Setting<Long> WRITER_IDLE_MILLIS = declare(Setting.of("writerIdleMillis",
                    ValueType.SECONDS_AS_MILLIS, 30_000L)
            .bound(Bound.notNegative()).accepts("0: off; the property in seconds").defaultText("30 s")
            .doc("client heartbeat after no outbound bytes")
            .property("jupiter.io.writer.idle.time.seconds")
            .where("`TransportConfig.Builder.writerIdleMillis`"));

    /**
     * A client finds a dead connection (to a provider that answers pings) within this long and closes it; 0: off,
     * only {@link #WRITER_IDLE_MILLIS}'s one-way heartbeat.
     */
    public static final Setting<Long> KEEPALIVE_TIMEOUT_MILLIS = declare(Setting.of("keepaliveTimeoutMillis",
                    ValueType.LONG, 5_000L)
            .bound(Bound.notNegative())
            .accepts("0: off; else at least 5 × the provider's minimum ping interval")
            .defaultText("5 s")
            .doc("client closes a connection whose provider answers pings once it was silent this long (pinged "
                    + "after 40 %, 20 % with calls outstanding; 3 × as long while the provider answers on another "
                    + "connection: [keepalive](reliability.md#dead-connections))")
            .property("jupiter.io.keepalive.timeout.millis")
            .where("`TransportConfig.Builder.keepaliveTimeoutMillis`"));

    /** A server answers at most one ping per connection in this long; earlier pings go unanswered. */
    public static final Setting<Long> PING_MIN_INTERVAL_MILLIS = declare(Setting.of("pingMinIntervalMillis",
                    ValueType.LONG, 500L)
            .bound(Bound.notNegative()).accepts("0: answers every ping").defaultText("500 ms")
            .doc("server answers at most one ping per connection in this long (earlier ones go unanswered)")
            .property("jupiter.io.ping.min.interval.millis")
            .where("`TransportConfig.Builder.pingMinIntervalMillis`"));

    /**
     * A server closes a connection that sends more heartbeats (pings, 1.3.1's one-way heartbeats, announcements) than
     * this within one second; 0: no limit. A sane peer sends a few a minute.
     */
    public static final Setting<Integer> MAX_HEARTBEATS_PER_SECOND = declare(Setting.of("maxHeartbeatsPerSecond",
                    ValueType.INT, 1_000)
            .bound(Bound.notNegative()).accepts("0: no limit").defaultText("1,000")
            .doc("server closes a connection that sends more heartbeats and pings than this within one second "
                    + "([junk traffic](security.md#transport-junk-traffic-and-log-floods))")
            .property("jupiter.io.max.heartbeats.per.second")
            .where("`TransportConfig.Builder.maxHeartbeatsPerSecond`"));

    /** IO threads of an acceptor or connector. */
    public static final Setting<Integer> IO_THREADS = declare(Setting.of("ioThreads", ValueType.INT,
                    () -> Runtime.getRuntime().availableProcessors(), "processors")
            .bound(Bound.positive())
            .doc("IO threads")
            .property("jupiter.io.threads")
            .where("`TransportConfig.Builder.ioThreads`"));

    /** Native epoll where it loads; else NIO. Read by {@link #TRANSPORT} {@code auto} only. */
    public static final Setting<Boolean> NATIVE_TRANSPORT = declare(Setting.of("nativeTransport", ValueType.BOOLEAN,
                    true)
            .defaultText("on")
            .doc("native epoll (falls back to NIO); off makes `transport` auto mean NIO, an explicit `transport` "
                    + "ignores it")
            .property("jupiter.io.native")
            .where("`TransportConfig.Builder.nativeTransport`"));

    /** The IO transport: auto (epoll where it loads, else NIO), or one named, which must load. */
    public static final Setting<String> TRANSPORT = declare(Setting.of("transport",
                    ValueType.oneOf("auto", "nio", "epoll", "io_uring"), "auto")
            .doc("IO transport (`IoTransport`): auto is native epoll where it loads, else NIO; epoll or io_uring "
                    + "fail to start where they do not load ([transports](transports.md))")
            .property("jupiter.io.transport")
            .where("`TransportConfig.Builder.transport`"));

    /** Netty's buffer allocator for the connections' buffers. */
    public static final Setting<String> ALLOCATOR = declare(Setting.of("allocator",
                    ValueType.oneOf("pooled", "adaptive"), "pooled")
            .doc("buffer allocator of the connections (`BufferAllocator`): Netty's pooled one, or its adaptive one "
                    + "([transports](transports.md#allocator))")
            .property("jupiter.io.allocator")
            .where("`TransportConfig.Builder.allocator`"));

    /** Outbound bytes of a connection below which it is writable again. */
    public static final Setting<Integer> WRITE_BUFFER_LOW_WATER_MARK = declare(Setting.of("writeBufferLowWaterMark",
                    ValueType.INT, 512 * 1024)
            .bound(Bound.positive()).defaultText("512 KiB")
            .doc("write buffer low water mark (below it: read that connection again)")
            .where("`TransportConfig.Builder.writeBufferWaterMark(low, high)`"));

    /** Outbound bytes of a connection above which it is no longer read. */
    public static final Setting<Integer> WRITE_BUFFER_HIGH_WATER_MARK = declare(Setting.of("writeBufferHighWaterMark",
                    ValueType.INT, 1024 * 1024)
            .bound(Bound.positive()).accepts("at least the low mark").defaultText("1 MiB")
            .doc("write buffer high water mark (above it: stop reading that connection)")
            .where("`TransportConfig.Builder.writeBufferWaterMark(low, high)`"));

    /** Outbound bytes of one connection above which it is closed. */
    public static final Setting<Long> MAX_PENDING_WRITE_BYTES = declare(Setting.of("maxPendingWriteBytes",
                    ValueType.LONG, 16L * 1024 * 1024)
            .bound(Bound.positive()).accepts("at least max body + header + high water mark").defaultText("16 MiB")
            .doc("outbound bytes of one connection above which it is closed (its peer is not reading)")
            .where("`TransportConfig.Builder.maxPendingWriteBytes`"));

    /** How long a client waits for a connection to open. */
    public static final Setting<Integer> CONNECT_TIMEOUT_MILLIS = declare(Setting.of("connectTimeoutMillis",
                    ValueType.INT, 3000)
            .bound(Bound.positive()).defaultText("3 s")
            .doc("connect timeout")
            .where("`TransportConfig.Builder.connectTimeoutMillis`"));

    /** First reconnect delay; it doubles on each failed attempt, with ±50 % jitter. */
    public static final Setting<Long> RECONNECT_INITIAL_DELAY_MILLIS = declare(Setting.of("reconnectInitialDelayMillis",
                    ValueType.LONG, 10L)
            .bound(Bound.positive()).defaultText("10 ms")
            .doc("reconnect backoff: first delay (doubled on each failed attempt, ±50 % jitter)")
            .where("`TransportConfig.Builder.reconnectBackoff(initial, max)`"));

    /** Longest reconnect delay. */
    public static final Setting<Long> RECONNECT_MAX_DELAY_MILLIS = declare(Setting.of("reconnectMaxDelayMillis",
                    ValueType.LONG, 10_000L)
            .bound(Bound.positive()).accepts("at least the first delay").defaultText("10 s")
            .doc("reconnect backoff: longest delay")
            .where("`TransportConfig.Builder.reconnectBackoff(initial, max)`"));

    /** How frames written by other threads become socket writes. */
    public static final Setting<String> WRITE_BATCHING = declare(Setting.of("writeBatching",
                    ValueType.oneOf("auto", "enable", "disable"), "auto")
            .doc("write batching (`WriteBatching`: hold a flush to send more frames in one write)")
            .property("jupiter.io.write.batching")
            .where("`TransportConfig.Builder.writeBatching`"));

    /**
     * How long a flush is held to gather more frames. 15 µs rather than 50: at 8 sync callers every flush is held and
     * the hold adds to every round trip (15 µs gave 1.15-1.20 × the calls of 50 µs there, the same at 32 callers).
     */
    public static final Setting<Long> BATCH_DELAY_MICROS = declare(Setting.of("batchDelayMicros", ValueType.LONG, 15L)
            .bound(Bound.positive()).defaultText("15 µs")
            .doc("how long a batching flush is held to gather more frames")
            .property("jupiter.io.write.batch.delay.micros")
            .where("`TransportConfig.Builder.batchDelayMicros`"));

    /** A frame's body must be complete this long after its header; 0: no limit. */
    public static final Setting<Long> BODY_TIMEOUT_MILLIS = declare(Setting.of("bodyTimeoutMillis", ValueType.LONG,
                    10_000L)
            .bound(Bound.notNegative()).accepts("0: no limit").defaultText("10 s")
            .doc("a frame's body must be complete this long after its header (else the connection is closed)")
            .property("jupiter.io.decoder.body.timeout.millis")
            .where("`TransportConfig.Builder.bodyTimeoutMillis`"));

    /** Accepted connections open at once, in total. */
    public static final Setting<Integer> MAX_CONNECTIONS = declare(Setting.of("maxConnections", ValueType.INT, 20_000)
            .bound(Bound.positive()).defaultText("20,000")
            .doc("accepted connections open at once, in total (more are closed on accept)")
            .property("jupiter.io.max.connections")
            .where("`TransportConfig.Builder.maxConnections(total, perAddress)`"));

    /** Accepted connections open at once from one IP address. */
    public static final Setting<Integer> MAX_CONNECTIONS_PER_ADDRESS = declare(Setting.of("maxConnectionsPerAddress",
                    ValueType.INT, 2_000)
            .bound(Bound.positive()).defaultText("2,000")
            .doc("accepted connections open at once from one IP address (more are closed on accept)")
            .property("jupiter.io.max.connections.per.address")
            .where("`TransportConfig.Builder.maxConnections(total, perAddress)`"));

    // ---- addresses and threads ----

    /** Where a server listens. */
    public static final Setting<Void> LISTEN_ADDRESS = declare(Setting.composite("listenAddress",
                    "TCP, every interface, port 18090")
            .doc("where a server listens ([transports](transports.md))")
            .where("`JupiterServer.Builder.host`, `.port`; `.unixSocket(Path)` (Unix domain socket, `rw-------`), "
                    + "`.inProcess(name)`"));

    /** What a proxy calls. */
    public static final Setting<Void> PROXY_TARGET = declare(Setting.composite("proxyTarget",
                    "(required, or a registry)")
            .doc("what a proxy calls")
            .where("`ProxyBuilder.address(\"host:port\" \\| \"unix:/path\" \\| \"inprocess:NAME\")`, "
                    + "`.unixSocket(Path)`, `.inProcess(name)`"));

    /** In-process IO threads. */
    public static final Setting<Void> IN_PROCESS_IO_THREADS = declare(Setting.composite("inProcessIoThreads",
                    "processors (at least 2), `jupiter-inprocess-N`")
            .doc("in-process IO threads (shared by every in-process acceptor and connector of the JVM)")
            .where("-"));

    /** Provider threads; 0 runs methods on the IO thread. */
    public static final Setting<Integer> PROVIDER_THREADS = declare(Setting.of("providerThreads", ValueType.INT,
                    () -> Math.max(4, 2 * Runtime.getRuntime().availableProcessors()), "max(4, 2 × processors)")
            .bound(Bound.notNegative()).accepts("0: run on the IO thread")
            .doc("provider threads")
            .where("`JupiterServer.Builder.providerThreads`"));

    /** Requests queued for the provider threads. */
    public static final Setting<Integer> QUEUE_CAPACITY = declare(Setting.of("queueCapacity", ValueType.INT, 8192)
            .bound(Bound.positive())
            .doc("provider queue (requests waiting for a provider thread; more get SERVER_BUSY)")
            .where("`JupiterServer.Builder.queueCapacity`"));

    /** Requests one connection may have in flight on a provider. */
    public static final Setting<Integer> MAX_IN_FLIGHT_PER_CONNECTION = declare(Setting.of("maxInFlightPerConnection",
                    ValueType.INT, 4096)
            .bound(Bound.positive())
            .doc("requests one connection may have in flight on a provider (more get SERVER_BUSY)")
            .where("`JupiterServer.Builder.connectionLimits(requests, bytes)`"));

    /** Bytes of unread request bodies one connection may have queued on a provider. */
    public static final Setting<Long> MAX_QUEUED_BYTES_PER_CONNECTION = declare(Setting.of(
                    "maxQueuedBytesPerConnection", ValueType.LONG, 64L * 1024 * 1024)
            .bound(Bound.positive()).defaultText("64 MiB")
            .doc("bytes of unread request bodies one connection may have queued on a provider (more get SERVER_BUSY)")
            .where("`JupiterServer.Builder.connectionLimits(requests, bytes)`"));

    /** Provider threads running at once before a request wakes another. */
    public static final Setting<Integer> POOL_PARALLELISM = declare(Setting.of("poolParallelism", ValueType.INT,
                    () -> Math.max(1, Runtime.getRuntime().availableProcessors() / 2), "max(1, processors / 2)")
            .bound(Bound.positive())
            .doc("provider threads running at once before a request wakes another")
            .property("jupiter.rpc.pool.parallelism")
            .where("`JupiterServer.Builder.poolParallelism`"));

    /** Wait that wakes another provider thread anyway. */
    public static final Setting<Long> POOL_STALL_MICROS = declare(Setting.of("poolStallMicros", ValueType.LONG, 1_000L)
            .bound(Bound.positive()).defaultText("1 ms")
            .doc("how long a request may wait, every awake provider thread busy, before it wakes another")
            .property("jupiter.rpc.pool.stall.micros")
            .where("`poolStallMicros` on `JupiterServer.Builder` and `JupiterClient.Builder`"));

    /** How long an idle provider thread looks for work before it parks. */
    public static final Setting<Long> POOL_SPIN_MICROS = declare(Setting.of("poolSpinMicros", ValueType.LONG, 0L)
            .bound(Bound.notNegative()).defaultText("0 (parks at once)")
            .doc("how long one idle provider thread keeps looking for work before it parks (helps one caller at a "
                    + "time on a machine with spare cores, costs throughput on a busy one: benchmark.md)")
            .property("jupiter.rpc.pool.spin.micros")
            .where("`JupiterServer.Builder.poolSpinMicros`"));

    // ---- overload, on the provider (issue #35) ----

    /** The provider queue stands once no request left it within this for a whole interval (CoDel's target). */
    public static final Setting<Long> QUEUE_TARGET_MILLIS = declare(Setting.of("queueTargetMillis", ValueType.LONG,
                    5L)
            .bound(Bound.notNegative()).defaultText("5 ms").accepts("0: no standing queue is ever shed (1.3.1's queue)")
            .doc("the provider queue stands once, for 100 ms (or `queueIntervalMillis` if shorter), no request "
                    + "was taken while the oldest had waited less than this; it then sheds (SERVER_BUSY) what waited "
                    + "longer than `queueIntervalMillis` and serves the newest first once the oldest waited half of it")
            .property("jupiter.rpc.provider.queue.target.millis").where("`JupiterServer.Builder.queueTargetMillis`"));

    /** How long a queue must stand to count as standing, and the longest wait while it does (CoDel's interval). */
    public static final Setting<Long> QUEUE_INTERVAL_MILLIS = declare(Setting.of("queueIntervalMillis",
                    ValueType.LONG, 1000L)
            .bound(Bound.positive()).defaultText("1 s")
            .doc("the longest a request may wait for a provider thread while the queue stands (half of it: the "
                    + "newest is served first)")
            .property("jupiter.rpc.provider.queue.interval.millis")
            .where("`JupiterServer.Builder.queueIntervalMillis`"));

    /** An adaptive concurrency limit on each provider (Gradient2-like, learned from request latency). */
    public static final Setting<Boolean> ADAPTIVE_CONCURRENCY = declare(Setting.of("adaptiveConcurrency",
                    ValueType.BOOLEAN, false)
            .defaultText("off")
            .doc("a provider admits at most a limit of requests at once, learned from their latency (Gradient2-like,"
                    + " 4..1000, starts at 20); more get SERVER_BUSY at once, before they are read or queued")
            .property("jupiter.rpc.provider.adaptive.concurrency")
            .where("`JupiterServer.Builder.adaptiveConcurrency`"));

    // ---- streams, on the provider ----

    /**
     * Messages of a consumer's stream a provider takes ahead of what its method has read: as many as the iterator's
     * prefetch, so the byte windows bind first (a slow method holds about {@code streamWindowBytes} of a stream).
     */
    public static final Setting<Integer> STREAM_INBOUND_WINDOW = declare(Setting.of("streamInboundWindow",
                    ValueType.INT, 1024)
            .bound(Bound.between(1, 65_536)).defaultText("1,024")
            .doc("messages of a consumer's stream (client, bidirectional) a provider takes ahead of what its method "
                    + "read, within `streamWindowBytes`: the most it holds of one such stream")
            .property("jupiter.rpc.stream.inbound.window")
            .where("`JupiterServer.Builder.streamInboundWindow`"));

    /**
     * Bytes of frames a receiving stream lets be on their way or queued, on either side: its message credit is sized
     * from the sizes its messages have had so that they fit (gRPC-java's default HTTP/2 window is as large).
     */
    public static final Setting<Integer> STREAM_WINDOW_BYTES = declare(Setting.of("streamWindowBytes",
                    ValueType.INT, 1024 * 1024)
            .bound(Bound.positive()).defaultText("1 MiB")
            .doc("bytes of frames one receiving stream (either side) lets be on their way or queued: the credit it "
                    + "grants is sized from its messages' recent sizes to fit ([streams](streams.md#flow-control))")
            .property("jupiter.rpc.stream.window.bytes")
            .where("`JupiterServer.Builder.streamWindowBytes`, `JupiterClient.Builder.streamWindowBytes`"));

    /**
     * Bytes the receiving streams of one connection may hold together, arrived and not yet read, on either side:
     * beyond, none of them grants credit until a reader takes bytes out.
     */
    public static final Setting<Long> STREAM_CONNECTION_WINDOW_BYTES = declare(Setting.of(
                    "streamConnectionWindowBytes", ValueType.LONG, 8L * 1024 * 1024)
            .bound(Bound.positive()).defaultText("8 MiB")
            .doc("bytes the receiving streams of one connection (either side) may hold together, arrived and not "
                    + "yet read: beyond, none of them grants credit until a reader takes bytes out "
                    + "([streams](streams.md#flow-control))")
            .property("jupiter.rpc.stream.connection.window.bytes")
            .where("`JupiterServer.Builder.streamConnectionWindowBytes`, "
                    + "`JupiterClient.Builder.streamConnectionWindowBytes`"));

    /**
     * Bytes the outbound streams of one connection may buffer together on a provider beyond their credit, and, apart,
     * bytes they may have sent against credit and not yet handed to the connection.
     */
    public static final Setting<Long> STREAM_CONNECTION_BUFFER_BYTES = declare(Setting.of(
                    "streamConnectionBufferBytes", ValueType.LONG, 4L * 1024 * 1024)
            .bound(Bound.positive()).defaultText("4 MiB")
            .doc("bytes the streams of one connection may buffer together on a provider beyond their receivers' "
                    + "credit, and apart the bytes sent against credit not yet handed to the connection, whatever "
                    + "the credit (then each stream's slow-consumer policy applies: [security](security.md#streams-"
                    + "limits-a-hostile-peer-meets))")
            .property("jupiter.rpc.stream.connection.buffer.bytes")
            .where("`JupiterServer.Builder.streamConnectionBufferBytes`"));

    /** Streams that may hold a provider thread at once (blocking opens, sink-driven producers), across connections. */
    public static final Setting<Integer> STREAM_THREADS = declare(Setting.of("streamThreads", ValueType.INT, 512)
            .bound(Bound.positive())
            .doc("streams that may hold a thread of the provider at once, across every connection: an open whose "
                    + "method runs (a blocking iterator holds it as long as the stream), a sink-driven producer; "
                    + "beyond: `SERVER_BUSY` ([security](security.md#streams-limits-a-hostile-peer-meets))")
            .property("jupiter.rpc.stream.threads")
            .where("`JupiterServer.Builder.streamThreads`"));

    /**
     * How long a stream's open waits for a provider thread when {@link #STREAM_THREADS} are held, before it is refused.
     */
    public static final Setting<Long> STREAM_OPEN_WAIT_MILLIS = declare(Setting.of("streamOpenWaitMillis",
                    ValueType.LONG, 1_000L)
            .bound(Bound.notNegative()).accepts("0: refused at once").defaultText("1 s")
            .doc("how long an open waits, in order, for one of the `streamThreads` to be given back before it is "
                    + "refused `SERVER_BUSY` (at most 4,096 opens and 16 MiB of their bodies wait; beyond: refused "
                    + "at once)")
            .property("jupiter.rpc.stream.open.wait.millis")
            .where("`JupiterServer.Builder.streamOpenWaitMillis`"));

    // ---- serialization ----

    /** Serializers a provider accepts. */
    public static final Setting<Void> SERIALIZERS = declare(Setting.composite("serializers",
                    "protostuff, hessian, kryo (java off)")
            .doc("serializers a provider accepts")
            .where("`JupiterServer.Builder.serializers`"));

    /** Serializers one service accepts. */
    public static final Setting<Void> PINNED_SERIALIZERS = declare(Setting.composite("pinSerializers",
                    "all the provider accepts")
            .doc("serializers one service accepts (others: BAD_REQUEST, arguments unread)")
            .where("`JupiterServer.pinSerializers(key, ...)` ([security](security.md#authorization-and-argument-"
                    + "types))"));

    /** Who may call which service and method. */
    public static final Setting<Void> AUTHORIZATION = declare(Setting.composite("authorizer",
                    "everyone / anonymous")
            .doc("who may call which service and method (refused: BAD_REQUEST, arguments unread) / the caller's "
                    + "identity per connection")
            .where("`JupiterServer.Builder.authorizer` (`AuthorizationRules`), `.callerIdentifier` "
                    + "(`CallerIdentifier.CLIENT_CERTIFICATE`: the mTLS client certificate's CN)"));

    /** The caller token a client presents once per connection, and the provider's check of it. */
    public static final Setting<Void> CALLER_TOKEN = declare(Setting.composite("callerToken",
                    "none, nothing sent / not asked for (a connection that sends one anyway is closed, as by 1.3.1)")
            .doc("caller token: sent once per connection as its first frame (max 4 KiB, a secret: use TLS) / "
                    + "required and checked by the provider, naming the caller (without one, or with a refused one: "
                    + "the first request gets BAD_REQUEST \"caller token missing\" / \"caller token refused\", unread, "
                    + "and the connection closes)")
            .where("`JupiterClient.Builder.callerToken(String or Supplier<String>)` / "
                    + "`JupiterServer.Builder.tokenAuthenticator` (`TokenAuthenticator.of(Map token -> name)`) "
                    + "([security](security.md#caller-tokens))"));

    /** How long a connection to a provider that requires caller tokens may go without presenting one. */
    public static final Setting<Long> CALLER_TOKEN_TIMEOUT_MILLIS = declare(Setting.of("callerTokenTimeoutMillis",
                    ValueType.LONG, 10_000L)
            .bound(Bound.positive()).defaultText("10 s")
            .doc("a connection to a provider that requires caller tokens is closed if it has not presented its token"
                    + " this long after it opened, whatever else it sent (heartbeats too)")
            .property("jupiter.rpc.caller.token.timeout.millis")
            .where("`JupiterServer.Builder.callerTokenTimeoutMillis` ([security](security.md#caller-tokens))"));

    /** How often a provider logs a line for one peer and cause of refusal at most. */
    public static final Setting<Long> REFUSAL_LOG_INTERVAL_MILLIS = declare(Setting.of("refusalLogIntervalMillis",
                    ValueType.LONG, 60_000L)
            .bound(Bound.positive()).defaultText("1 min")
            .doc("a provider logs the refusals a peer causes (caller token, authorization, unreadable request, "
                    + "stream open) at most once this often per peer IP and cause, the next line saying how many "
                    + "were dropped; every refusal is still counted ([security](security.md#refusal-log-lines))")
            .property("jupiter.rpc.refusal.log.interval.millis")
            .where("`JupiterServer.Builder.refusalLogIntervalMillis`"));

    /** The class allow-list's mode. */
    public static final Setting<String> ALLOWLIST_MODE = declare(Setting.of("allowlist",
                    ValueType.oneOf("strict", "warn", "off"), "strict")
            .defaultText("strict; service interfaces' own types trusted on register/build")
            .doc("class allow-list for every serializer ([serialization safety](reliability.md#serialization-"
                    + "safety))")
            .property("jupiter.serialization.allowlist")
            .where("`ClassAllowList.global()` (`.trust`, `.trustPackage`, `.mode`); a list of its own: "
                    + "`allowList(ClassAllowList)` on `JupiterServer.Builder` and `JupiterClient.Builder`"));

    /** How deep values may nest in one body: far above any RPC argument, far below what overflows a 512 KiB stack. */
    public static final Setting<Integer> MAX_DEPTH = declare(Setting.of("maxDepth", ValueType.INT, 100)
            .bound(Bound.positive())
            .doc("how deep values may nest in one body (deeper: the read fails)")
            .property("jupiter.serialization.max.depth").alias("jupiter.serialization.maxDepth")
            .where("`readLimits(ReadLimits.of(depth, references))` on `JupiterServer.Builder` and "
                    + "`JupiterClient.Builder`"));

    /** How many objects one Java or Hessian body may register for back-references. */
    public static final Setting<Integer> MAX_REFERENCES = declare(Setting.of("maxReferences", ValueType.INT, 1_000_000)
            .bound(Bound.positive()).defaultText("1,000,000")
            .doc("objects one Java or Hessian body may register for back-references (more: the read fails)")
            .property("jupiter.serialization.max.references").alias("jupiter.serialization.maxReferences")
            .where("`readLimits(ReadLimits.of(depth, references))` on `JupiterServer.Builder` and "
                    + "`JupiterClient.Builder`"));

    /** Copied to protostuff's {@code protostuff.runtime.always_use_sun_reflection_factory} unless that is set. */
    public static final Setting<Boolean> PROTOSTUFF_SUN_REFLECTION_FACTORY = declare(Setting.of(
                    "protostuffSunReflectionFactory", ValueType.BOOLEAN, true)
            .defaultText("on")
            .doc("protostuff creates objects without calling a constructor (copied to "
                    + "`protostuff.runtime.always_use_sun_reflection_factory` unless that is set)")
            .property("jupiter.serializer.protostuff.always_use_sun_reflection_factory"));

    /** Copied to protostuff's {@code protostuff.runtime.allow_null_array_element} unless that is set. */
    public static final Setting<Boolean> PROTOSTUFF_NULL_ARRAY_ELEMENTS = declare(Setting.of(
                    "protostuffNullArrayElements", ValueType.BOOLEAN, false)
            .defaultText("off (as 1.3.1; both sides must agree)")
            .doc("protostuff writes null array elements (copied to `protostuff.runtime.allow_null_array_element` "
                    + "unless that is set)")
            .property("jupiter.serializer.protostuff.allow_null_array_element"));

    // ---- calls ----

    /** Call timeout. */
    public static final Setting<Long> INVOKE_TIMEOUT = declare(Setting.of("timeoutMillis", ValueType.LONG, 3000L)
            .bound(Bound.positive()).defaultText("3000 ms")
            .doc("call timeout")
            .property("jupiter.rpc.invoke.timeout")
            .where("`ProxyBuilder.timeoutMillis`, `.methodTimeoutMillis`"));

    /** Methods that run on the IO thread. */
    public static final Setting<Void> NON_BLOCKING = declare(Setting.composite("nonBlocking",
                    "those declared `@NonBlocking` (and, with adaptive dispatch on, undeclared ones once fast)")
            .doc("methods that run on the IO thread instead of the provider pool")
            .where("`@NonBlocking` on a method or type, `@NonBlocking(false)` to keep a method on the pool ([where "
                    + "methods run](architecture.md#where-methods-and-callbacks-run))"));

    /**
     * Adaptive dispatch; off by default: one slow call of a learned method stalls every connection of its IO thread.
     */
    public static final Setting<Boolean> ADAPTIVE_DISPATCH = declare(Setting.of("adaptiveDispatch", ValueType.BOOLEAN,
                    false)
            .defaultText("off")
            .doc("adaptive dispatch (undeclared methods move to the IO threads once fast)")
            .property("jupiter.rpc.provider.adaptive.dispatch")
            .where("`JupiterServer.Builder.adaptiveDispatch`"));

    /** Consumer threads; 0 reads responses and runs callbacks on the IO threads. */
    public static final Setting<Integer> CONSUMER_THREADS = declare(Setting.of("consumerThreads", ValueType.INT,
                    () -> Runtime.getRuntime().availableProcessors(), "processors")
            .bound(Bound.notNegative()).accepts("0: on the IO threads")
            .doc("consumer threads (read async responses, run callbacks)")
            .where("`JupiterClient.Builder.consumerThreads`, or `.callbackExecutor` (the application's executor)"));

    /** Adaptive callbacks; off by default, for the same reason as {@link #ADAPTIVE_DISPATCH}. */
    public static final Setting<Boolean> ADAPTIVE_CALLBACKS = declare(Setting.of("adaptiveCallbacks",
                    ValueType.BOOLEAN, false)
            .defaultText("off")
            .doc("adaptive callbacks (a method's async completions move to the IO threads once fast)")
            .property("jupiter.rpc.consumer.adaptive.callbacks")
            .where("`JupiterClient.Builder.adaptiveCallbacks`"));

    /** Provider executor instead of the pool. */
    public static final Setting<Void> PROVIDER_EXECUTOR = declare(Setting.composite("executor",
                    "none (the built-in pool)")
            .doc("provider executor instead of the pool")
            .where("`JupiterServer.Builder.executor`, `.virtualThreads()` (JDK 21+), per service "
                    + "`JupiterServer.executor(key, executor)`"));

    /** Calls of one client in flight at once. */
    public static final Setting<Integer> MAX_IN_FLIGHT = declare(Setting.of("maxInFlight", ValueType.INT, 4096)
            .bound(Bound.positive()).defaultText("4096 (half a provider's queue)")
            .doc("calls of one client in flight at once (async back-pressure: more wait for a slot within their "
                    + "timeout)")
            .property("jupiter.rpc.consumer.max.in.flight").alias("jupiter.rpc.consumer.max-in-flight")
            .where("`JupiterClient.Builder.maxInFlight`"));

    /** Load balancer warm-up of a new provider. */
    public static final Setting<Long> WARM_UP_MILLIS = declare(Setting.of("warmUpMillis", ValueType.LONG, 60_000L)
            .bound(Bound.notNegative()).accepts("0: none").defaultText("60 s")
            .doc("load balancer warm-up: a provider's weight grows to its full value over this long after it appears")
            .property("jupiter.rpc.load.balancer.warm.up.millis").alias("jupiter.rpc.load-balancer.warm-up")
            .where("`JupiterClient.Builder.warmUpMillis`"));

    /** How long a consumer keeps a removed provider's connections for the calls still in flight on them. */
    public static final Setting<Long> REMOVED_PROVIDER_GRACE_MILLIS = declare(Setting.of("removedProviderGraceMillis",
                    ValueType.LONG, 10_000L)
            .bound(Bound.notNegative()).defaultText("10 s")
            .doc("a provider the registry removed is disconnected after this, so calls in flight on it can finish")
            .property("jupiter.rpc.consumer.removed.provider.grace.millis")
            .alias("jupiter.rpc.consumer.removed-provider.grace.millis"));

    // ---- tail tolerance of a proxy (ProxyBuilder; docs/reliability.md) ----

    /** The load balancer of a proxy that names none. */
    public static final Setting<String> LOAD_BALANCER = declare(Setting.of("loadBalancer",
                    ValueType.oneOf("least_latency", "round_robin", "random", "least_active"), "least_latency")
            .doc("load balancer (least latency: recent latency x calls in flight, power of two choices, weights "
                    + "between alike providers; 1.3.1 had random and round robin)")
            .property("jupiter.rpc.load.balancer")
            .where("`ProxyBuilder.loadBalancer(LoadBalancerType...)`"));

    /** Consecutive timeouts or connection errors that eject a provider from load balancing. */
    public static final Setting<Integer> OUTLIER_CONSECUTIVE_FAILURES = declare(Setting.of(
                    "outlierConsecutiveFailures", ValueType.INT, 5)
            .bound(Bound.positive())
            .doc("outlier ejection: consecutive timeouts, connection errors or server errors of one provider that "
                    + "eject it")
            .property("jupiter.rpc.outlier.consecutive.failures")
            .where("`ProxyBuilder.outlierEjection(OutlierEjection.of(...))`, `OutlierEjection.off()`"));

    /** First ejection time; doubles with each ejection of a provider that keeps failing. */
    public static final Setting<Long> OUTLIER_EJECTION_MILLIS = declare(Setting.of("outlierEjectionMillis",
                    ValueType.LONG, 5_000L)
            .bound(Bound.positive()).defaultText("5 s")
            .doc("outlier ejection: first ejection time, doubled at each ejection of a provider that keeps failing")
            .property("jupiter.rpc.outlier.ejection.millis")
            .where("`ProxyBuilder.outlierEjection`"));

    /** Longest ejection time. */
    public static final Setting<Long> OUTLIER_MAX_EJECTION_MILLIS = declare(Setting.of("outlierMaxEjectionMillis",
                    ValueType.LONG, 60_000L)
            .bound(Bound.positive()).accepts("at least the first ejection time").defaultText("60 s")
            .doc("outlier ejection: longest ejection time")
            .property("jupiter.rpc.outlier.max.ejection.millis")
            .where("`ProxyBuilder.outlierEjection`"));

    /** Largest share of a proxy's providers ejected at once (one at least, never all). */
    public static final Setting<Integer> OUTLIER_MAX_EJECTED_PERCENT = declare(Setting.of(
                    "outlierMaxEjectedPercent", ValueType.INT, 50)
            .bound(Bound.between(1, 100)).defaultText("50 %")
            .doc("outlier ejection: largest share of a proxy's providers out at once (at least one, never all)")
            .property("jupiter.rpc.outlier.max.ejected.percent")
            .where("`ProxyBuilder.outlierEjection`"));

    /** Failure share over the window from which a provider is ejected; 0 turns the rule off. */
    public static final Setting<Integer> OUTLIER_FAILURE_RATE_PERCENT = declare(Setting.of(
                    "outlierFailureRatePercent", ValueType.INT, 50)
            .bound(Bound.between(0, 100)).defaultText("50 %")
            .doc("outlier ejection: share of a provider's attempts over the window that ended in a timeout, "
                    + "connection error or server error from which it is ejected; 0 turns the rule off")
            .property("jupiter.rpc.outlier.failure.rate.percent")
            .where("`ProxyBuilder.outlierEjection(OutlierEjection.of(...).withFailureRate(...))`"));

    /** Attempts a provider must have had within the window before its failure share counts. */
    public static final Setting<Integer> OUTLIER_FAILURE_RATE_MIN_REQUESTS = declare(Setting.of(
                    "outlierFailureRateMinRequests", ValueType.INT, 20)
            .bound(Bound.between(1, 1_000_000))
            .doc("outlier ejection: attempts a provider must have had within the window before its failure share "
                    + "can eject it")
            .property("jupiter.rpc.outlier.failure.rate.min.requests")
            .where("`OutlierEjection.withFailureRate`"));

    /** The window the failure share is counted over. */
    public static final Setting<Long> OUTLIER_FAILURE_RATE_WINDOW_MILLIS = declare(Setting.of(
                    "outlierFailureRateWindowMillis", ValueType.LONG, 10_000L)
            .bound(Bound.between(100, 3_600_000)).defaultText("10 s")
            .doc("outlier ejection: the window a provider's failure share is counted over (in ten slices)")
            .property("jupiter.rpc.outlier.failure.rate.window.millis")
            .where("`OutlierEjection.withFailureRate`"));

    /** Time constant of the least-latency balancer's latency average. */
    public static final Setting<Long> LATENCY_DECAY_MILLIS = declare(Setting.of("latencyDecayMillis",
                    ValueType.LONG, 1_000L)
            .bound(Bound.positive()).defaultText("1 s")
            .doc("least-latency balancer: how fast the latency average of a provider that gets no calls decays "
                    + "(time constant), so that a provider that was slow is tried again")
            .property("jupiter.rpc.load.balancer.latency.decay.millis")
            .where("`JupiterClient.Builder.latencyDecayMillis` (`LoadBalancerType.LEAST_LATENCY`)"));

    /** Size of a proxy's retry budget. */
    public static final Setting<Integer> RETRY_BUDGET_MAX_TOKENS = declare(Setting.of("retryBudgetMaxTokens",
                    ValueType.INT, 10)
            .bound(Bound.between(1, 100_000))
            .doc("retry budget: tokens of a proxy's bucket; a retry or hedge is sent only while more than half are "
                    + "left, a timeout or refusal takes one")
            .property("jupiter.rpc.retry.budget.max.tokens")
            .where("`ProxyBuilder.retryBudget(RetryBudget.of(...))`, `RetryBudget.unlimited()`"));

    /** Share of a token a successful attempt gives back. */
    public static final Setting<Integer> RETRY_BUDGET_TOKEN_PERCENT = declare(Setting.of("retryBudgetTokenPercent",
                    ValueType.INT, 10)
            .bound(Bound.between(1, 100)).defaultText("10 (a tenth of a token)")
            .doc("retry budget: percent of a token each successful attempt gives back")
            .property("jupiter.rpc.retry.budget.token.percent")
            .where("`ProxyBuilder.retryBudget`"));

    /** Hedged calls. */
    public static final Setting<Void> HEDGING = declare(Setting.composite("hedging", "off")
            .doc("hedged calls of idempotent methods: another attempt on another provider after a delay, the first "
                    + "answer wins")
            .where("`ProxyBuilder.hedging(HedgingPolicy.afterMillis(d))` or "
                    + "`HedgingPolicy.afterLatencyPercentile(95)`, `.methodHedging(name, policy)`"));

    /** Shortest delay of a hedge that follows the method's latency. */
    public static final Setting<Long> HEDGING_MIN_DELAY_MILLIS = declare(Setting.of("hedgingMinDelayMillis",
                    ValueType.LONG, 10L)
            .bound(Bound.positive()).defaultText("10 ms (the client timer's tick)")
            .doc("hedging at a latency percentile: the shortest delay, whatever the method's latency")
            .property("jupiter.rpc.hedging.min.delay.millis")
            .where("`HedgingPolicy.afterLatencyPercentile(p, minDelayMillis, fallbackDelayMillis, maxAttempts)`"));

    /** Delay of a hedge that follows the method's latency while too few calls of it were seen. */
    public static final Setting<Long> HEDGING_FALLBACK_DELAY_MILLIS = declare(Setting.of(
                    "hedgingFallbackDelayMillis", ValueType.LONG, 100L)
            .bound(Bound.positive()).defaultText("100 ms")
            .doc("hedging at a latency percentile: the delay until enough attempts of the method were seen")
            .property("jupiter.rpc.hedging.fallback.delay.millis")
            .where("`HedgingPolicy.afterLatencyPercentile`"));

    /** Attempts of a method seen before its percentile replaces the fallback delay. */
    public static final Setting<Integer> HEDGING_MIN_SAMPLES = declare(Setting.of("hedgingMinSamples",
                    ValueType.INT, 100)
            .bound(Bound.between(10, 1_000_000))
            .doc("hedging at a latency percentile: attempts of the method seen (recently) before their percentile "
                    + "replaces the fallback delay")
            .property("jupiter.rpc.hedging.min.samples")
            .where("`HedgingPolicy.afterLatencyPercentile`"));

    // ---- sick providers and client-side throttling (issue #35; ProxyBuilder; docs/reliability.md) ----

    /** Whether server errors count as failures for outlier ejection. */
    public static final Setting<Boolean> OUTLIER_COUNTS_SERVER_ERRORS = declare(Setting.of(
                    "outlierCountsServerErrors", ValueType.BOOLEAN, true)
            .doc("outlier ejection: an exception the method does not declare (SERVICE_UNEXPECTED_ERROR), a provider "
                    + "failure around the method (SERVER_ERROR) and SERVICE_NOT_FOUND count as failures, like a "
                    + "timeout; a declared exception and SERVER_BUSY do not")
            .property("jupiter.rpc.outlier.server.errors")
            .where("`OutlierEjection.withServerErrors(boolean)`"));

    /** Whether a proxy throttles its own calls while its providers refuse or time out most of them. */
    public static final Setting<Boolean> CLIENT_THROTTLING = declare(Setting.of("clientThrottling",
                    ValueType.BOOLEAN, false)
            .doc("client-side adaptive throttling (SRE book, Handling Overload): a proxy refuses a call locally "
                    + "(ThrottledException, a ServerBusyException) with probability max(0, (calls - K x accepted) / "
                    + "(calls + 1)) over the window")
            .property("jupiter.rpc.client.throttling")
            .where("`ProxyBuilder.clientThrottling(ClientThrottling.defaults() / .of(...) / .off())`"));

    /** K of client-side throttling, in percent: calls go unthrottled up to K x the calls accepted. */
    public static final Setting<Integer> CLIENT_THROTTLING_K_PERCENT = declare(Setting.of("clientThrottlingKPercent",
                    ValueType.INT, 200)
            .bound(Bound.between(100, 10_000)).defaultText("200 (K = 2)")
            .doc("client-side throttling: K x 100; a proxy sends up to K times the calls its providers accepted")
            .property("jupiter.rpc.client.throttling.k.percent")
            .where("`ClientThrottling.of(kPercent, windowMillis)`"));

    /** The window client-side throttling counts calls and accepted calls over. */
    public static final Setting<Long> CLIENT_THROTTLING_WINDOW_MILLIS = declare(Setting.of(
                    "clientThrottlingWindowMillis", ValueType.LONG, 10_000L)
            .bound(Bound.between(1_000, 3_600_000)).defaultText("10 s")
            .doc("client-side throttling: the window calls and accepted calls are counted over (in ten slices)")
            .property("jupiter.rpc.client.throttling.window.millis")
            .where("`ClientThrottling.of(kPercent, windowMillis)`"));

    /** Connections each consumer should keep to a provider. */
    public static final Setting<Integer> SUGGESTED_CONNECTION_COUNT = declare(Setting.of("connCount", ValueType.INT,
                    () -> Math.min(Runtime.getRuntime().availableProcessors(), 4), "min(processors, 4)")
            .bound(Bound.between(1, 64))
            .doc("connections each consumer should keep to this provider (published in the registry)")
            .property("jupiter.rpc.suggest.connection.count")
            .where("`JupiterServer.Builder.connCount`"));

    /** Interceptors and filters. */
    public static final Setting<Void> INTERCEPTORS = declare(Setting.composite("interceptors",
                    "none (service-loaded filters: see [extensions](extensions.md))")
            .doc("interceptors / filters")
            .where("`JupiterClient.Builder.interceptor`, `ProxyBuilder.interceptor`, `JupiterServer.Builder."
                    + "interceptor`, `JupiterServer.intercept(key, ...)`"));

    /** Application-wide flow limiter. */
    public static final Setting<Void> APP_FLOW_LIMITER = declare(Setting.composite("appFlowLimiter", "none")
            .doc("application-wide flow limiter (0x54)")
            .where("`JupiterServer.Builder.appFlowLimiter`"));

    /** Per service or method flow limiters. */
    public static final Setting<Void> FLOW_LIMITERS = declare(Setting.composite("flowLimiters", "none")
            .doc("per service / method flow limiters (0x55)")
            .where("`JupiterServer.Builder.interceptor(FlowControlFilter.builder()...)`"));

    /** Send each call's deadline. */
    public static final Setting<Boolean> PROPAGATE_DEADLINE = declare(Setting.of("propagateDeadline",
                    ValueType.BOOLEAN, true)
            .defaultText("on (always on for calls made while serving a request that had one)")
            .doc("send each call's deadline (`jupiter.timeout` attachment; a 1.3.1 provider ignores it), so a "
                    + "provider drops a request whose caller gave up instead of running it")
            .property("jupiter.rpc.consumer.deadline.propagate")
            .where("`JupiterClient.Builder.propagateDeadline`"));

    /** Tell providers which calls their callers stopped waiting for. */
    public static final Setting<Boolean> CANCEL_CALLS = declare(Setting.of("cancelCalls", ValueType.BOOLEAN, true)
            .defaultText("on")
            .doc("tell a provider of ours when a call's caller stops waiting (timeout, cancelled future, a hedge that "
                    + "lost), so it drops the call if it has not started; asked per connection, never sent to a "
                    + "1.3.1 provider")
            .property("jupiter.rpc.consumer.cancel")
            .where("`JupiterClient.Builder.cancelCalls`"));

    /** Exceptions reach callers with their stack traces. */
    public static final Setting<Boolean> SEND_STACK_TRACES = declare(Setting.of("sendStackTraces", ValueType.BOOLEAN,
                    false)
            .defaultText("off (callers get the exception's class and message)")
            .doc("exceptions a method throws reach callers with their stack traces")
            .property("jupiter.rpc.provider.stack.traces")
            .where("`JupiterServer.Builder.sendStackTraces`"));

    /** Quiet period of a graceful shutdown. */
    public static final Setting<Long> SHUTDOWN_QUIET_MILLIS = declare(Setting.of("shutdownQuietMillis",
                    ValueType.LONG, 200L)
            .bound(Bound.notNegative()).defaultText("200 ms")
            .doc("graceful shutdown: consumers have stopped sending once no request arrived for this long")
            .property("jupiter.rpc.shutdown.quiet.millis")
            .where("`JupiterServer.Builder.shutdownQuietMillis`"));

    /** Metrics. */
    public static final Setting<Boolean> METRICS = declare(Setting.of("metrics", ValueType.BOOLEAN, true)
            .defaultText("on")
            .doc("metrics")
            .property("jupiter.metrics.enabled").alias("jupiter.metric.needed")
            .where("`JupiterServer.Builder.metrics`, `JupiterClient.Builder.metrics`"));

    // ---- monitor and TLS ----

    /** Monitor console. */
    public static final Setting<Void> MONITOR = declare(Setting.composite("monitor",
                    "127.0.0.1:19999, password required, lines ≤ 1024 bytes, ≤ 32 sessions, 10 min idle close")
            .doc("monitor console")
            .where("`MonitorServer.Builder`"));

    /** TLS on an RPC server or client. */
    public static final Setting<Void> TLS = declare(Setting.composite("tls", "off (plaintext, as 1.3.1)")
            .doc("TLS on an RPC server or client ([security](security.md)): PEM certificate + PKCS#8 key, trust "
                    + "file, TLS 1.3/1.2 only, files re-read for new connections when they change")
            .where("`TransportConfig.Builder.tls(TlsConfig.builder()...build())` given to `JupiterServer.Builder."
                    + "transportConfig` / `JupiterClient.Builder.transportConfig`"));

    /** Mutual TLS. */
    public static final Setting<Void> TLS_CLIENT_AUTH = declare(Setting.composite("requireClientAuth",
                    "off (with a trust file: asked for, checked if sent)")
            .doc("TLS: client certificates required (mutual TLS)")
            .where("`TlsConfig.Builder.requireClientAuth` (needs `.trust`)"));

    /** Host name verification. */
    public static final Setting<Void> TLS_VERIFY_HOSTNAME = declare(Setting.composite("verifyHostname", "on")
            .doc("TLS: client checks the server certificate names the host")
            .where("`TlsConfig.Builder.verifyHostname`"));

    /** TLS implementation. */
    public static final Setting<Void> TLS_PROVIDER = declare(Setting.composite("tlsProvider",
                    "OpenSSL (netty-tcnative BoringSSL, linux-x86_64) when it loads, else the JDK")
            .doc("TLS implementation")
            .where("`TlsConfig.Builder.provider` (`AUTO`, `OPENSSL`, `JDK`)"));

    /** HTTPS for the monitor. */
    public static final Setting<Void> MONITOR_HTTPS = declare(Setting.composite("httpTls", "off")
            .doc("HTTPS for the monitor's HTTP endpoint")
            .where("`MonitorServer.Builder.httpTls`"));

    // ---- embedded registry ----

    /** TLS on the embedded registry. */
    public static final Setting<Void> REGISTRY_TLS = declare(Setting.composite("registryTls", "off")
            .doc("TLS on the embedded registry's port / its clients")
            .where("`RegistryServer.Builder.tls`; clients: `EmbeddedRegistryFactory.connect(addresses, resendMillis, "
                    + "tls)`, or for `registry(\"default://...\")` the three properties below"));

    /** Trust file of registry clients made from a URL; set, they use TLS. */
    public static final Setting<String> REGISTRY_TLS_TRUST = declare(Setting.optional("registryTlsTrust",
                    ValueType.text("a PEM file path"), "none (plaintext)")
            .doc("embedded registry clients made from a URL: trust file (set: TLS on)")
            .property("jupiter.registry.tls.trust"));

    /** Certificate registry clients made from a URL present. */
    public static final Setting<String> REGISTRY_TLS_CERT = declare(Setting.optional("registryTlsCert",
                    ValueType.text("a PEM file path"), "none")
            .doc("embedded registry clients made from a URL: certificate they present (with the key below)")
            .property("jupiter.registry.tls.cert"));

    /** Key of {@link #REGISTRY_TLS_CERT}. */
    public static final Setting<String> REGISTRY_TLS_KEY = declare(Setting.optional("registryTlsKey",
                    ValueType.text("a PEM file path"), "none")
            .doc("embedded registry clients made from a URL: key of that certificate")
            .property("jupiter.registry.tls.key"));

    /** Resend interval of registry clients made from a URL. */
    public static final Setting<Long> REGISTRY_RESEND_MILLIS = declare(Setting.of("resendMillis", ValueType.LONG,
                    10_000L)
            .bound(Bound.positive()).defaultText("10 s")
            .doc("embedded registry clients made from a URL: a message not acknowledged is sent again after this")
            .property("jupiter.registry.default.resend.millis")
            .where("`EmbeddedRegistryFactory.connect(addresses, resendMillis, ...)`"));

    /** Address the embedded registry binds. */
    public static final Setting<Void> REGISTRY_HOST = declare(Setting.composite("registryHost",
                    "127.0.0.1 (a WARN line when it listens beyond loopback without a secret)")
            .doc("embedded registry: address bound")
            .where("`RegistryServer.Builder.host`, `registry --host`"));

    /** The embedded registry's shared secret. */
    public static final Setting<Void> REGISTRY_SECRET = declare(Setting.composite("registrySecret",
                    "none (1.3.1's wire) / 10 s")
            .doc("embedded registry: shared secret every peer must prove (HMAC-SHA256 challenge-response both ways, "
                    + "≥ 16 bytes; not 1.3.1-compatible) / how long a peer has to prove it")
            .where("`RegistryServer.Builder.secret`, `.authTimeoutMillis`; clients: `EmbeddedRegistryFactory."
                    + "connect(addresses, resendMillis, tls, secret)`; environment `JUPITER_REGISTRY_SECRET` for "
                    + "clients made from a URL and the `registry` / `demo` commands"));

    /** Publications naming another host. */
    public static final Setting<Void> REGISTRY_ANY_HOST = declare(Setting.composite("allowAnyPublishedHost",
                    "no (an empty or wildcard host is filled in)")
            .doc("embedded registry: publications may name a host other than the provider's own address")
            .where("`RegistryServer.Builder.allowAnyPublishedHost`"));

    /** Per connection limits of the embedded registry. */
    public static final Setting<Void> REGISTRY_CONNECTION_LIMITS = declare(Setting.composite(
                    "registryConnectionLimits", "1,024 / 1,024 / 4,096 / 1,024 (fixed)")
            .doc("embedded registry, per connection: publications / subscriptions / pushes awaiting an ACK / bytes in "
                    + "one string")
            .where("`RegistryServer.Builder.maxPublicationsPerConnection`, `.maxSubscriptionsPerConnection`, "
                    + "`.maxUnackedPushesPerConnection`"));

    // ---- ZooKeeper registry ----

    /** ZooKeeper digest credentials. */
    public static final Setting<Void> ZOOKEEPER_DIGEST = declare(Setting.composite("zookeeperDigest",
                    "none (open nodes, as 1.3.1)")
            .doc("ZooKeeper digest credentials (`user:password`; our nodes get all rights for them, read for anyone)")
            .where("`ZookeeperRegistryFactory.connect(addresses, digest)`, environment `JUPITER_ZOOKEEPER_DIGEST` for "
                    + "`zookeeper://` URLs"));

    /** ZooKeeper session timeout. */
    public static final Setting<Integer> ZOOKEEPER_SESSION_TIMEOUT_MILLIS = declare(Setting.of(
                    "zookeeperSessionTimeoutMillis", ValueType.INT, 60_000)
            .bound(Bound.positive()).defaultText("60 s")
            .doc("ZooKeeper session timeout (a provider's nodes go this long after its session is lost)")
            .property("jupiter.registry.zookeeper.session.timeout.millis")
            .alias("jupiter.registry.zookeeper.sessionTimeoutMs"));

    /** ZooKeeper connection timeout. */
    public static final Setting<Integer> ZOOKEEPER_CONNECTION_TIMEOUT_MILLIS = declare(Setting.of(
                    "zookeeperConnectionTimeoutMillis", ValueType.INT, 15_000)
            .bound(Bound.positive()).defaultText("15 s")
            .doc("ZooKeeper connection timeout")
            .property("jupiter.registry.zookeeper.connection.timeout.millis")
            .alias("jupiter.registry.zookeeper.connectionTimeoutMs"));

    /** Host a ZooKeeper provider publishes when it listens on every interface. */
    public static final Setting<String> LOCAL_ADDRESS = declare(Setting.optional("localAddress",
                    ValueType.text("a host name or IP address"), "this host's address")
            .doc("ZooKeeper registry: host published for a provider that listens on every interface (as 1.3.1)")
            .property("jupiter.local.address"));

    // ---- discovery (all registries) ----

    /** Longest wait between two tries to reach an unreachable registry. */
    public static final Setting<Long> REGISTRY_RETRY_MAX_MILLIS = declare(Setting.of("registryRetryMaxMillis",
                    ValueType.LONG, 1000L)
            .bound(Bound.between(200, 60_000)).defaultText("1 s")
            .doc("Kubernetes registry: longest back-off between two lists while the API server cannot be reached "
                    + "(from 200 ms, doubling, with jitter; reset once it answers), so a provider added during an "
                    + "outage is seen within about this long after the API server is back")
            .property("jupiter.registry.retry.max.millis"));

    /** Kubernetes registry: how long a watch may stay silent before the namespace is listed and watched afresh. */
    public static final Setting<Long> K8S_WATCH_IDLE_MILLIS = declare(Setting.of("k8sWatchIdleMillis",
                    ValueType.LONG, 120_000L)
            .bound(Bound.between(1_000, 3_600_000)).defaultText("2 min")
            .doc("Kubernetes registry: a watch that delivered nothing (no change, no bookmark) for this long is "
                    + "replaced by a fresh list and watch, so a connection that died without the client noticing "
                    + "costs at most this long")
            .property("jupiter.registry.kubernetes.watch.idle.millis"));

    /** Shortest interval between two DNS resolutions asked for by a failed connection. */
    public static final Setting<Long> DNS_RERESOLVE_FLOOR_MILLIS = declare(Setting.of("dnsReresolveFloorMillis",
                    ValueType.LONG, 1000L)
            .bound(Bound.between(100, 600_000)).defaultText("1 s")
            .doc("DNS registry: a consumer that cannot reach a provider makes the name be resolved again at once, "
                    + "but not sooner than this after the last resolution")
            .property("jupiter.registry.dns.reresolve.floor.millis"));

    private JupiterSettings() {
    }

    /** Every setting, in declaration order (the order of docs/configuration.md's table). */
    public static List<Setting<?>> all() {
        return Collections.unmodifiableList(DECLARED);
    }

    private static <T> Setting<T> declare(Setting.Builder<T> builder) {
        Setting<T> setting = builder.build();
        DECLARED.add(setting);
        return setting;
    }
}
