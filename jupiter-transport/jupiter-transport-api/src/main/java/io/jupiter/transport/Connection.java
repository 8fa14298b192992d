package io.jupiter.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.net.SocketAddress;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * One connection (TCP, Unix domain socket or in-process), seen at the level of whole frames. Thread-safe: any thread
 * may write.
 */
public interface Connection {

    /**
     * The peer's address: an {@link java.net.InetSocketAddress} over TCP, a {@link java.net.UnixDomainSocketAddress}
     * over a Unix domain socket (the path is empty on the accepting side: a client socket has no name), an
     * {@link InProcessAddress} in process (on the accepting side, a name the connector's end was given).
     */
    SocketAddress remoteAddress();

    /** This side's address, of the same kind as {@link #remoteAddress()}. */
    SocketAddress localAddress();

    /** Whether the connection is open. */
    boolean isActive();

    /** Whether the outbound buffer is below its high water mark. */
    boolean isWritable();

    /**
     * The largest frame body this connection accepts ({@link TransportConfig#maxBodySize()}). Peers are expected to
     * use the same cap, so the layers above refuse to send a larger body rather than have the peer close the
     * connection on it.
     */
    int maxBodySize();

    /** The allocator to build outbound frames with (pooled, direct where possible). */
    ByteBufAllocator alloc();

    /**
     * Queues a complete frame (built with {@link Frames}) and arranges a flush; flushes are batched. Takes ownership
     * of {@code frame}: it is released once written, or at once if the connection is closed. A frame that cannot be
     * written means the connection is closing, which the {@link FrameHandler} hears as {@code disconnected}.
     */
    void write(ByteBuf frame);

    /** Writes a frame, then closes the connection once it is written (used for rejections, as in 1.3.1). */
    void writeAndClose(ByteBuf frame);

    /** Closes the connection; pending writes are dropped. */
    void close();

    /** The IO thread of this connection, for work measured to be cheaper there. */
    Executor ioExecutor();

    /**
     * The certificates the peer presented in the TLS handshake, its own first: empty without TLS, or when the peer
     * presented none (a client where mutual TLS is not required). Verified by the handshake against the trusted
     * certificates; a provider's {@code CallerIdentifier} may name its caller by them.
     */
    default List<X509Certificate> peerCertificates() {
        return List.of();
    }

    /**
     * Whether one write may carry several whole frames back to back: a byte stream whose reader splits frames by
     * their headers (TCP, a Unix domain socket, in process). {@code false} where each write must be one frame: a
     * connection another protocol took over (gRPC, HTTP), which makes each frame a message of its own.
     */
    default boolean takesFrameRuns() {
        return false;
    }

}
