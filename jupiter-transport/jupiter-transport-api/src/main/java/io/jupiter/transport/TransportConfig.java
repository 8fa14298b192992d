package io.jupiter.transport;

import io.jupiter.common.Requires;
import io.jupiter.common.SystemProperties;

/**
 * Immutable transport settings. Build with {@link #builder()}; every default below can also be set with the named
 * system property, and a builder setter wins over it.
 *
 * <table>
 * <caption>Settings</caption>
 * <tr><th>setting</th><th>default</th><th>system property</th></tr>
 * <tr><td>maxBodySize</td><td>5 MiB (5,242,880 bytes; equal is allowed)</td><td>jupiter.io.decoder.max.body.size</td></tr>
 * <tr><td>readerIdleMillis (acceptor closes an idle connection; 0 = never)</td><td>60,000</td><td>jupiter.io.reader.idle.time.seconds (seconds)</td></tr>
 * <tr><td>writerIdleMillis (connector sends a heartbeat; 0 = never)</td><td>30,000</td><td>jupiter.io.writer.idle.time.seconds (seconds)</td></tr>
 * <tr><td>ioThreads</td><td>number of processors</td><td>jupiter.io.threads</td></tr>
 * <tr><td>nativeTransport (epoll when available, else NIO)</td><td>true</td><td>jupiter.io.native</td></tr>
 * <tr><td>write buffer water marks (low/high)</td><td>512 KiB / 1 MiB</td><td>-</td></tr>
 * <tr><td>maxPendingWriteBytes (outbound bytes of one connection above which it is closed: its peer is not
 * reading)</td><td>16 MiB</td><td>-</td></tr>
 * <tr><td>connectTimeoutMillis</td><td>3,000</td><td>-</td></tr>
 * <tr><td>reconnect backoff (initial/max)</td><td>10 ms / 10,000 ms, doubled each attempt, +-50 % jitter</td><td>-</td></tr>
 * <tr><td>writeBatching (see {@link WriteBatching})</td><td>AUTO</td><td>jupiter.io.write.batching
 * (disable|enable|auto)</td></tr>
 * <tr><td>batchDelayMicros (how long ENABLE, and AUTO under load, hold a flush)</td><td>50</td>
 * <td>jupiter.io.write.batch.delay.micros</td></tr>
 * <tr><td>acceptedMessageCodes</td><td>request, response, heartbeat</td><td>-</td></tr>
 * <tr><td>firstFrameOnly (a message code accepted as a connection's first frame only, with its own body
 * cap)</td><td>none</td><td>-</td></tr>
 * <tr><td>bodyTimeoutMillis (a frame whose header arrived must be complete within this; 0 = no limit)</td>
 * <td>10,000</td><td>jupiter.io.decoder.body.timeout.millis</td></tr>
 * <tr><td>maxConnections (accepted connections open at once; more are closed at once)</td><td>20,000</td>
 * <td>jupiter.io.max.connections</td></tr>
 * <tr><td>maxConnectionsPerAddress (accepted connections from one remote IP address)</td><td>2,000</td>
 * <td>jupiter.io.max.connections.per.address</td></tr>
 * <tr><td>tls (see {@link TlsConfig})</td><td>none: plaintext, as 1.3.1</td><td>-</td></tr>
 * </table>
 */
public final class TransportConfig {

    /** Default body cap, as in 1.3.1. */
    public static final int DEFAULT_MAX_BODY_SIZE = 5 * 1024 * 1024;

    private final int maxBodySize;
    private final long readerIdleMillis;
    private final long writerIdleMillis;
    private final int ioThreads;
    private final boolean nativeTransport;
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

    private TransportConfig(Builder b) {
        this.maxBodySize = b.maxBodySize;
        this.readerIdleMillis = b.readerIdleMillis;
        this.writerIdleMillis = b.writerIdleMillis;
        this.ioThreads = b.ioThreads;
        this.nativeTransport = b.nativeTransport;
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
        b.ioThreads = ioThreads;
        b.nativeTransport = nativeTransport;
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

    /** Number of IO (event loop) threads. */
    public int ioThreads() {
        return ioThreads;
    }

    /** Whether to use native epoll when it is available. */
    public boolean nativeTransport() {
        return nativeTransport;
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

    /** Prefix of IO thread names. */
    public String threadNamePrefix() {
        return threadNamePrefix;
    }

    /** Builder with validated setters. */
    public static final class Builder {
        private int maxBodySize = SystemProperties.getInt("jupiter.io.decoder.max.body.size", DEFAULT_MAX_BODY_SIZE);
        private long readerIdleMillis = SystemProperties.getLong("jupiter.io.reader.idle.time.seconds", 60) * 1000;
        private long writerIdleMillis = SystemProperties.getLong("jupiter.io.writer.idle.time.seconds", 30) * 1000;
        private int ioThreads = SystemProperties.getInt("jupiter.io.threads", Runtime.getRuntime().availableProcessors());
        private boolean nativeTransport = SystemProperties.getBoolean("jupiter.io.native", true);
        private int writeBufferLowWaterMark = 512 * 1024;
        private int writeBufferHighWaterMark = 1024 * 1024;
        private long maxPendingWriteBytes = 16L * 1024 * 1024;
        private int connectTimeoutMillis = 3000;
        private long reconnectInitialDelayMillis = 10;
        private long reconnectMaxDelayMillis = 10_000;
        private int acceptedMessageCodes = ProtocolHeader.RPC_MESSAGE_CODES;
        private byte firstFrameMessageCode;
        private int firstFrameMaxBodySize;
        private String threadNamePrefix = "jupiter-io";
        private WriteBatching writeBatching = WriteBatching.valueOf(
                SystemProperties.get("jupiter.io.write.batching", "auto").toUpperCase(java.util.Locale.ROOT));
        private long batchDelayMicros = SystemProperties.getLong("jupiter.io.write.batch.delay.micros", 50);
        private long bodyTimeoutMillis = SystemProperties.getLong("jupiter.io.decoder.body.timeout.millis", 10_000);
        private int maxConnections = SystemProperties.getInt("jupiter.io.max.connections", 20_000);
        private int maxConnectionsPerAddress = SystemProperties.getInt("jupiter.io.max.connections.per.address", 2_000);
        private TlsConfig tls;

        private Builder() {
        }

        public Builder maxBodySize(int bytes) {
            this.maxBodySize = Requires.positive(bytes, "maxBodySize");
            return this;
        }

        public Builder readerIdleMillis(long millis) {
            this.readerIdleMillis = Requires.notNegative(millis, "readerIdleMillis");
            return this;
        }

        public Builder writerIdleMillis(long millis) {
            this.writerIdleMillis = Requires.notNegative(millis, "writerIdleMillis");
            return this;
        }

        public Builder ioThreads(int threads) {
            this.ioThreads = Requires.positive(threads, "ioThreads");
            return this;
        }

        public Builder nativeTransport(boolean enabled) {
            this.nativeTransport = enabled;
            return this;
        }

        public Builder writeBufferWaterMark(int low, int high) {
            Requires.positive(low, "writeBufferLowWaterMark");
            Requires.argument(high >= low, "writeBufferHighWaterMark: " + high + " (expected: >= low " + low + ")");
            this.writeBufferLowWaterMark = low;
            this.writeBufferHighWaterMark = high;
            return this;
        }

        public Builder maxPendingWriteBytes(long bytes) {
            this.maxPendingWriteBytes = Requires.positive(bytes, "maxPendingWriteBytes");
            return this;
        }

        public Builder connectTimeoutMillis(int millis) {
            this.connectTimeoutMillis = Requires.positive(millis, "connectTimeoutMillis");
            return this;
        }

        public Builder reconnectBackoff(long initialDelayMillis, long maxDelayMillis) {
            Requires.positive(initialDelayMillis, "reconnectInitialDelayMillis");
            Requires.argument(maxDelayMillis >= initialDelayMillis,
                    "reconnectMaxDelayMillis: " + maxDelayMillis + " (expected: >= initial " + initialDelayMillis + ")");
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
            this.batchDelayMicros = Requires.positive(micros, "batchDelayMicros");
            return this;
        }

        /** See {@link TransportConfig#bodyTimeoutMillis()}; 0 disables. */
        public Builder bodyTimeoutMillis(long millis) {
            this.bodyTimeoutMillis = Requires.notNegative(millis, "bodyTimeoutMillis");
            return this;
        }

        /** See {@link TransportConfig#maxConnections()} and {@link TransportConfig#maxConnectionsPerAddress()}. */
        public Builder maxConnections(int total, int perAddress) {
            Requires.positive(total, "maxConnections");
            Requires.positive(perAddress, "maxConnectionsPerAddress");
            this.maxConnections = total;
            this.maxConnectionsPerAddress = perAddress;
            return this;
        }

        /** TLS for every connection of this endpoint; {@code null} (the default) for plaintext. */
        public Builder tls(TlsConfig tls) {
            this.tls = tls;
            return this;
        }

        public Builder threadNamePrefix(String prefix) {
            this.threadNamePrefix = Requires.notBlank(prefix, "threadNamePrefix");
            return this;
        }

        public TransportConfig build() {
            Requires.positive(maxBodySize, "maxBodySize");
            Requires.positive(ioThreads, "ioThreads");
            // Values from system properties come through here too, so they get the setters' checks.
            Requires.notNegative(bodyTimeoutMillis, "bodyTimeoutMillis");
            Requires.positive(maxConnections, "maxConnections");
            Requires.positive(maxConnectionsPerAddress, "maxConnectionsPerAddress");
            long needed = (long) maxBodySize + ProtocolHeader.HEADER_SIZE + writeBufferHighWaterMark;
            Requires.argument(maxPendingWriteBytes >= needed, "maxPendingWriteBytes: " + maxPendingWriteBytes
                    + " (expected: >= maxBodySize + header + high water mark = " + needed + ")");
            return new TransportConfig(this);
        }
    }
}
