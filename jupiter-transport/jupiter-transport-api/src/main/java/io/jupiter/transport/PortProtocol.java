package io.jupiter.transport;

import io.netty.buffer.ByteBuf;

/**
 * A protocol other than the 1.3.1 frame that an acceptor serves on the same port, told apart by the first bytes of
 * each connection ({@link TransportConfig.Builder#protocols}). Off unless configured: an acceptor with no such
 * protocol reads every connection as 1.3.1 frames, byte for byte as before.
 *
 * <p>A connection whose first byte is the 1.3.1 magic's ({@code 0xba}) is always the 1.3.1 protocol; otherwise each
 * configured protocol is asked in turn, and a connection no protocol claims is handed to the frame decoder, which
 * refuses it as any bad frame. A protocol's requests reach the same {@link FrameHandler} as 1.3.1 requests, as
 * request frames; how it installs itself is the transport implementation's business (the Netty transport's
 * {@code NettyPortProtocol}).
 */
public interface PortProtocol {

    /** What a protocol makes of a connection's first bytes. */
    enum Detection {
        /** The bytes are this protocol's. */
        MATCH,
        /** The bytes are not this protocol's. */
        NO_MATCH,
        /** Too few bytes to tell yet. */
        NEED_MORE
    }

    /** A short name for logs and documentation, e.g. {@code http/1.1}. */
    String name();

    /**
     * Decides from the first bytes of a connection (all readable bytes of {@code firstBytes}, which it must not
     * consume or release).
     */
    Detection detect(ByteBuf firstBytes);
}
