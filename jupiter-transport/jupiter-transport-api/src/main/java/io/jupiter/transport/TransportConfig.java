package io.jupiter.transport;

import io.jupiter.common.Requires;
import io.jupiter.common.config.JupiterSettings;
import java.util.List;
import java.util.Locale;

/**
 * Immutable transport settings. Build with {@link #builder()}. Each setting, its default, bounds and system property
 * are declared in {@link JupiterSettings} (docs/configuration.md lists them): a builder starts from the
 * system properties, checked as the setters check their arguments, and a setter wins over a property.
 */
public final class TransportConfig {

    /** Default body cap, as in 1.3.1. */
    public static final int DEFAULT_MAX_BODY_SIZE = JupiterSettings.MAX_BODY_SIZE.defaultValue();

    private final int maxBodySize;
    private final long readerIdleMillis;
    private final long writerIdleMillis;
    private final long keepaliveTimeoutMillis;
    private final long pingMinIntervalMillis;
    private final int maxHeartbeatsPerSecond;
    private final int ioThreads;
    private final boolean nativeTransport;
    private final IoTransport transport;
    private final BufferAllocator allocator;
    private final int writeBufferLowWaterMark;
    private final int writeBufferHighWaterMark;
    private final long maxPendingWriteBytes;
    private final int connectTimeoutMillis;
    private final long reconnectInitialDelayMillis;
    private final long reconnectMaxDelayMillis;
    private final int acceptedMessageCodes;
    private final byte firstFrameMessageCode;
    private final int firstFrameMaxBodySize;
    private final String threadNamePrefix;
    private final WriteBatching writeBatching;
    private final long batchDelayMicros;
    private final long bodyTimeoutMillis;
    private final int maxConnections;
    private final int maxConnectionsPerAddress;
    private final TlsConfig tls;
    private final List<PortProtocol> protocols;

    private TransportConfig(Builder b) {
        this.maxBodySize = b.maxBodySize;
        this.readerIdleMillis = b.readerIdleMillis;
        this.writerIdleMillis = b.writerIdleMillis;
        this.keepaliveTimeoutMillis = b.keepaliveTimeoutMillis;
        this.pingMinIntervalMillis = b.pingMinIntervalMillis;
        this.maxHeartbeatsPerSecond = b.maxHeartbeatsPerSecond;
        this.ioThreads = b.ioThreads;
        this.nativeTransport = b.nativeTransport;
        this.transport = b.transport;
        this.allocator = b.allocator;
        this.writeBufferLowWaterMark = b.writeBufferLowWaterMark;
        this.writeBufferHighWaterMark = b.writeBufferHighWaterMark;
        this.maxPendingWriteBytes = b.maxPendingWriteBytes;
        this.connectTimeoutMillis = b.connectTimeoutMillis;
        this.reconnectInitialDelayMillis = b.reconnectInitialDelayMillis;
        this.reconnectMaxDelayMillis = b.reconnectMaxDelayMillis;
        this.acceptedMessageCodes = b.acceptedMessageCodes;
        this.firstFrameMessageCode = b.firstFrameMessageCode;
        this.firstFrameMaxBodySize = b.firstFrameMaxBodySize;
        this.threadNamePrefix = b.threadNamePrefix;
        this.writeBatching = b.writeBatching;
        this.batchDelayMicros = b.batchDelayMicros;
        this.bodyTimeoutMillis = b.bodyTimeoutMillis;
        this.maxConnections = b.maxConnections;
        this.maxConnectionsPerAddress = b.maxConnectionsPerAddress;
        this.tls = b.tls;
        this.protocols = b.protocols;
    }

    /** A builder holding the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The defaults. */
    public static TransportConfig defaults() {
        return builder().build();
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.maxBodySize = maxBodySize;
        b.readerIdleMillis = readerIdleMillis;
        b.writerIdleMillis = writerIdleMillis;
        b.keepaliveTimeoutMillis = keepaliveTimeoutMillis;
        b.pingMinIntervalMillis = pingMinIntervalMillis;
        b.maxHeartbeatsPerSecond = maxHeartbeatsPerSecond;
        b.ioThreads = ioThreads;
        b.nativeTransport = nativeTransport;
        b.transport = transport;
        b.allocator = allocator;
        b.writeBufferLowWaterMark = writeBufferLowWaterMark;
        b.writeBufferHighWaterMark = writeBufferHighWaterMark;
        b.maxPendingWriteBytes = maxPendingWriteBytes;
        b.connectTimeoutMillis = connectTimeoutMillis;
        b.reconnectInitialDelayMillis = reconnectInitialDelayMillis;
        b.reconnectMaxDelayMillis = reconnectMaxDelayMillis;
        b.acceptedMessageCodes = acceptedMessageCodes;
        b.firstFrameMessageCode = firstFrameMessageCode;
        b.firstFrameMaxBodySize = firstFrameMaxBodySize;
        b.threadNamePrefix = threadNamePrefix;
        b.writeBatching = writeBatching;
        b.batchDelayMicros = batchDelayMicros;
        b.bodyTimeoutMillis = bodyTimeoutMillis;
        b.maxConnections = maxConnections;
        b.maxConnectionsPerAddress = maxConnectionsPerAddress;
        b.tls = tls;
        b.protocols = protocols;
        return b;
    }

    /** Largest body accepted, in bytes; checked on the header, before the body is buffered. */
    public int maxBodySize() {
        return maxBodySize;
    }

    /** An accepted connection with no inbound bytes for this long is closed; 0 disables. */
    public long readerIdleMillis() {
        return readerIdleMillis;
    }

    /** A client connection with no outbound bytes for this long sends a heartbeat; 0 disables. */
    public long writerIdleMillis() {
        return writerIdleMillis;
    }

    /**
     * A client connection whose peer answers pings ({@link ProtocolHeader#HEARTBEAT}) is closed once nothing arrived
     * on it for this long: a dead link is found within this time, idle or busy. The client pings after 40 % of it
     * without inbound bytes (20 % when it wrote since it last read: calls are probably outstanding). 0 disables:
     * only the one-way heartbeat of {@link #writerIdleMillis()}, as 1.3.1.
     */
    public long keepaliveTimeoutMillis() {
        return keepaliveTimeoutMillis;
    }

    /**
     * A server answers at most one ping per connection in this long; pings that come sooner go unanswered, so a
     * client cannot make a server write more than one 16-byte answer per interval. 0 answers every ping.
     */
    public long pingMinIntervalMillis() {
        return pingMinIntervalMillis;
    }

    /**
     * A server closes a connection that sends more than this many {@link ProtocolHeader#HEARTBEAT} frames (pings,
     * 1.3.1's one-way heartbeats, announcements) within one second: such a peer only burns the IO thread. A sane
     * peer sends a few a minute (a heartbeat per writer idle time, a ping per keepalive tick at most). 0: no limit.
     */
    public int maxHeartbeatsPerSecond() {
        return maxHeartbeatsPerSecond;
    }

    /** Number of IO (event loop) threads. */
    public int ioThreads() {
        return ioThreads;
    }

    /**
     * Whether to use native epoll when it is available; read only while {@link #transport()} is
     * {@link IoTransport#AUTO} ({@code false} then means NIO).
     */
    public boolean nativeTransport() {
        return nativeTransport;
    }

    /** The IO transport; {@link IoTransport#AUTO} (the default) takes native epoll where it loads, else NIO. */
    public IoTransport transport() {
        return transport;
    }

    /** The buffer allocator of the connections; {@link BufferAllocator#POOLED} by default. */
    public BufferAllocator allocator() {
        return allocator;
    }

    /** Outbound bytes below which a connection becomes writable again. */
    public int writeBufferLowWaterMark() {
        return writeBufferLowWaterMark;
    }

    /** Outbound bytes above which a connection is unwritable and stops reading. */
    public int writeBufferHighWaterMark() {
        return writeBufferHighWaterMark;
    }

    /**
     * Outbound bytes of one connection above which it is closed. The high water mark stops reading new requests
     * from a peer that does not read its responses; this limit stops the responses already owed to it from
     * filling the memory.
     */
    public long maxPendingWriteBytes() {
        return maxPendingWriteBytes;
    }

    /** Connect timeout. */
    public int connectTimeoutMillis() {
        return connectTimeoutMillis;
    }

    /** First reconnect delay. */
    public long reconnectInitialDelayMillis() {
        return reconnectInitialDelayMillis;
    }

    /** Cap of the reconnect delay. */
    public long reconnectMaxDelayMillis() {
        return reconnectMaxDelayMillis;
    }

    /** Bit {@code 1 << code} set for each message code accepted; any other code closes the connection. */
    public int acceptedMessageCodes() {
        return acceptedMessageCodes;
    }

    /**
     * A message code accepted as the first frame of a connection and nowhere else (a provider's caller token,
     * {@link ProtocolHeader#CALLER_TOKEN}); 0: none, the default.
     */
    public byte firstFrameMessageCode() {
        return firstFrameMessageCode;
    }

    /** The body cap of a {@link #firstFrameMessageCode()} frame, checked on its header; 0 without one. */
    public int firstFrameMaxBodySize() {
        return firstFrameMaxBodySize;
    }

    /** How frames written by other threads become socket writes. */
    public WriteBatching writeBatching() {
        return writeBatching;
    }

    /** How long a flush is held to gather more frames ({@link WriteBatching#ENABLE}, and AUTO under load). */
    public long batchDelayMicros() {
        return batchDelayMicros;
    }

    /**
     * Once a frame's header has arrived, its body must be complete within this many milliseconds or the connection
     * is closed: a peer cannot hold a partial frame (and its buffer) by trickling bytes. 0: no limit.
     */
    public long bodyTimeoutMillis() {
        return bodyTimeoutMillis;
    }

    /** Accepted connections that may be open at once; a connection beyond it is closed as soon as it is accepted. */
    public int maxConnections() {
        return maxConnections;
    }

    /** Accepted connections one remote IP address may hold open at once; beyond it, as {@link #maxConnections()}. */
    public int maxConnectionsPerAddress() {
        return maxConnectionsPerAddress;
    }

    /** TLS settings, or {@code null} for plaintext (the default, and all a 1.3.1 peer speaks). */
    public TlsConfig tls() {
        return tls;
    }

    /**
     * The protocols an acceptor serves beside the 1.3.1 frame on the same port, told apart by each connection's
     * first bytes ({@link PortProtocol}); empty (the default): only 1.3.1 frames, read exactly as without this
     * setting. Ignored by connectors.
     */
    public List<PortProtocol> protocols() {
        return protocols;
    }

    /** Prefix of IO thread names. */
    public String threadNamePrefix() {
        return threadNamePrefix;
    }

    /** Builder with validated setters. */
    public static final class Builder {
        private int maxBodySize = JupiterSettings.MAX_BODY_SIZE.get();
        private long readerIdleMillis = JupiterSettings.READER_IDLE_MILLIS.get();
        private long writerIdleMillis = JupiterSettings.WRITER_IDLE_MILLIS.get();
        private long keepaliveTimeoutMillis = JupiterSettings.KEEPALIVE_TIMEOUT_MILLIS.get();
        private long pingMinIntervalMillis = JupiterSettings.PING_MIN_INTERVAL_MILLIS.get();
        private int maxHeartbeatsPerSecond = JupiterSettings.MAX_HEARTBEATS_PER_SECOND.get();
        private int ioThreads = JupiterSettings.IO_THREADS.get();
        private boolean nativeTransport = JupiterSettings.NATIVE_TRANSPORT.get();
        private IoTransport transport = IoTransport.fromSetting(JupiterSettings.TRANSPORT.get());
        private BufferAllocator allocator = BufferAllocator.valueOf(
                JupiterSettings.ALLOCATOR.get().toUpperCase(Locale.ROOT));
        private int writeBufferLowWaterMark = JupiterSettings.WRITE_BUFFER_LOW_WATER_MARK.get();
        private int writeBufferHighWaterMark = JupiterSettings.WRITE_BUFFER_HIGH_WATER_MARK.get();
        private long maxPendingWriteBytes = JupiterSettings.MAX_PENDING_WRITE_BYTES.get();
        private int connectTimeoutMillis = JupiterSettings.CONNECT_TIMEOUT_MILLIS.get();
        private long reconnectInitialDelayMillis = JupiterSettings.RECONNECT_INITIAL_DELAY_MILLIS.get();
        private long reconnectMaxDelayMillis = JupiterSettings.RECONNECT_MAX_DELAY_MILLIS.get();
        private int acceptedMessageCodes = ProtocolHeader.RPC_MESSAGE_CODES;
        private byte firstFrameMessageCode;
        private int firstFrameMaxBodySize;
        private String threadNamePrefix = "jupiter-io";
        private WriteBatching writeBatching = WriteBatching.valueOf(
                JupiterSettings.WRITE_BATCHING.get().toUpperCase(Locale.ROOT));
        private long batchDelayMicros = JupiterSettings.BATCH_DELAY_MICROS.get();
        private long bodyTimeoutMillis = JupiterSettings.BODY_TIMEOUT_MILLIS.get();
        private int maxConnections = JupiterSettings.MAX_CONNECTIONS.get();
        private int maxConnectionsPerAddress = JupiterSettings.MAX_CONNECTIONS_PER_ADDRESS.get();
        private TlsConfig tls;
        private List<PortProtocol> protocols = List.of();

        private Builder() {
        }

        public Builder maxBodySize(int bytes) {
            this.maxBodySize = JupiterSettings.MAX_BODY_SIZE.check(bytes);
            return this;
        }

        public Builder readerIdleMillis(long millis) {
            this.readerIdleMillis = JupiterSettings.READER_IDLE_MILLIS.check(millis);
            return this;
        }

        public Builder writerIdleMillis(long millis) {
            this.writerIdleMillis = JupiterSettings.WRITER_IDLE_MILLIS.check(millis);
            return this;
        }

        /** See {@link TransportConfig#keepaliveTimeoutMillis()}; 0 disables. */
        public Builder keepaliveTimeoutMillis(long millis) {
            this.keepaliveTimeoutMillis = JupiterSettings.KEEPALIVE_TIMEOUT_MILLIS.check(millis);
            return this;
        }

        /** See {@link TransportConfig#pingMinIntervalMillis()}. */
        public Builder pingMinIntervalMillis(long millis) {
            this.pingMinIntervalMillis = JupiterSettings.PING_MIN_INTERVAL_MILLIS.check(millis);
            return this;
        }

        /** See {@link TransportConfig#maxHeartbeatsPerSecond()}; 0: no limit. */
        public Builder maxHeartbeatsPerSecond(int heartbeats) {
            this.maxHeartbeatsPerSecond = JupiterSettings.MAX_HEARTBEATS_PER_SECOND.check(heartbeats);
            return this;
        }

        public Builder ioThreads(int threads) {
            this.ioThreads = JupiterSettings.IO_THREADS.check(threads);
            return this;
        }

        /**
         * Native epoll where it loads (the default), else NIO; {@code false}: NIO. Kept for compatibility: read only
         * while {@link #transport(IoTransport)} is {@link IoTransport#AUTO}.
         */
        public Builder nativeTransport(boolean enabled) {
            this.nativeTransport = enabled;
            return this;
        }

        /**
         * The IO transport. {@link IoTransport#AUTO} (the default) follows {@link #nativeTransport(boolean)}; any
         * other choice is taken as asked, and an acceptor or connector fails to start where it does not load.
         */
        public Builder transport(IoTransport transport) {
            this.transport = Requires.notNull(transport, "transport");
            return this;
        }

        /** The buffer allocator of the connections; see {@link BufferAllocator}. */
        public Builder allocator(BufferAllocator allocator) {
            this.allocator = Requires.notNull(allocator, "allocator");
            return this;
        }

        public Builder writeBufferWaterMark(int low, int high) {
            JupiterSettings.WRITE_BUFFER_LOW_WATER_MARK.check(low);
            JupiterSettings.WRITE_BUFFER_HIGH_WATER_MARK.check(high);
            Requires.argument(high >= low, "writeBufferHighWaterMark: " + high + " (expected: >= low " + low + ")");
            this.writeBufferLowWaterMark = low;
            this.writeBufferHighWaterMark = high;
            return this;
        }

        public Builder maxPendingWriteBytes(long bytes) {
            this.maxPendingWriteBytes = JupiterSettings.MAX_PENDING_WRITE_BYTES.check(bytes);
            return this;
        }

        public Builder connectTimeoutMillis(int millis) {
            this.connectTimeoutMillis = JupiterSettings.CONNECT_TIMEOUT_MILLIS.check(millis);
            return this;
        }

        public Builder reconnectBackoff(long initialDelayMillis, long maxDelayMillis) {
            JupiterSettings.RECONNECT_INITIAL_DELAY_MILLIS.check(initialDelayMillis);
            JupiterSettings.RECONNECT_MAX_DELAY_MILLIS.check(maxDelayMillis);
            Requires.argument(maxDelayMillis >= initialDelayMillis,
                    "reconnectMaxDelayMillis: " + maxDelayMillis + " (expected: >= initial " + initialDelayMillis
                            + ")");
            this.reconnectInitialDelayMillis = initialDelayMillis;
            this.reconnectMaxDelayMillis = maxDelayMillis;
            return this;
        }

        /** The message codes this endpoint accepts; see {@link ProtocolHeader#messageCodeMask(byte...)}. */
        public Builder acceptedMessageCodes(int mask) {
            Requires.argument(mask != 0, "acceptedMessageCodes: 0 (expected: at least one code)");
            this.acceptedMessageCodes = mask;
            return this;
        }

        /**
         * Accepts {@code messageCode}, with a body of at most {@code maxBodySize} bytes, as the first frame of a
         * connection, and nowhere else: the same code later closes the connection, as any code not accepted does.
         * The code need not be among {@link #acceptedMessageCodes}.
         */
        public Builder firstFrameOnly(byte messageCode, int maxBodySize) {
            Requires.inRange(messageCode, 1, 0x0e, "firstFrameMessageCode");
            this.firstFrameMaxBodySize = Requires.positive(maxBodySize, "firstFrameMaxBodySize");
            this.firstFrameMessageCode = messageCode;
            return this;
        }

        public Builder writeBatching(WriteBatching mode) {
            this.writeBatching = Requires.notNull(mode, "writeBatching");
            return this;
        }

        public Builder batchDelayMicros(long micros) {
            this.batchDelayMicros = JupiterSettings.BATCH_DELAY_MICROS.check(micros);
            return this;
        }

        /** See {@link TransportConfig#bodyTimeoutMillis()}; 0 disables. */
        public Builder bodyTimeoutMillis(long millis) {
            this.bodyTimeoutMillis = JupiterSettings.BODY_TIMEOUT_MILLIS.check(millis);
            return this;
        }

        /** See {@link TransportConfig#maxConnections()} and {@link TransportConfig#maxConnectionsPerAddress()}. */
        public Builder maxConnections(int total, int perAddress) {
            JupiterSettings.MAX_CONNECTIONS.check(total);
            JupiterSettings.MAX_CONNECTIONS_PER_ADDRESS.check(perAddress);
            this.maxConnections = total;
            this.maxConnectionsPerAddress = perAddress;
            return this;
        }

        /** TLS for every connection of this endpoint; {@code null} (the default) for plaintext. */
        public Builder tls(TlsConfig tls) {
            this.tls = tls;
            return this;
        }

        /**
         * Serves {@code protocols} beside the 1.3.1 frame on the acceptor's port; see
         * {@link TransportConfig#protocols()}. None (the default) turns the detection off.
         */
        public Builder protocols(List<PortProtocol> protocols) {
            Requires.notNull(protocols, "protocols");
            protocols.forEach(p -> Requires.notNull(p, "protocol"));
            this.protocols = List.copyOf(protocols);
            return this;
        }

        public Builder threadNamePrefix(String prefix) {
            this.threadNamePrefix = Requires.notBlank(prefix, "threadNamePrefix");
            return this;
        }

        public TransportConfig build() {
            long needed = (long) maxBodySize + ProtocolHeader.HEADER_SIZE + writeBufferHighWaterMark;
            Requires.argument(maxPendingWriteBytes >= needed, "maxPendingWriteBytes: " + maxPendingWriteBytes
                    + " (expected: >= maxBodySize + header + high water mark = " + needed + ")");
            return new TransportConfig(this);
        }
    }
}
