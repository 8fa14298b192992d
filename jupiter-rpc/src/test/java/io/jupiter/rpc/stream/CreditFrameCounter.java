package io.jupiter.rpc.stream;

import io.jupiter.transport.ProtocolHeader;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the stream credit frames clients send through a {@link TcpRelay}: each connection's tap reads the 16-byte
 * header of every frame (sign, status, id, body size) and skips its body.
 */
final class CreditFrameCounter {

    private final AtomicLong creditFrames = new AtomicLong();

    /** Credit frames the clients sent so far. */
    long creditFrames() {
        return creditFrames.get();
    }

    /** A tap for one connection (frames are followed across reads). */
    TcpRelay.Tap tap() {
        byte[] header = new byte[ProtocolHeader.HEADER_SIZE];
        int[] headerRead = {0};
        long[] bodyLeft = {0};
        return (bytes, length) -> {
            int i = 0;
            while (i < length) {
                if (bodyLeft[0] > 0) {
                    int skip = (int) Math.min(bodyLeft[0], length - i);
                    bodyLeft[0] -= skip;
                    i += skip;
                    continue;
                }
                header[headerRead[0]++] = bytes[i++];
                if (headerRead[0] == header.length) {
                    headerRead[0] = 0;
                    if ((header[2] & 0x0f) == ProtocolHeader.STREAM_CREDIT) {
                        creditFrames.incrementAndGet();
                    }
                    bodyLeft[0] = ((header[12] & 0xffL) << 24) | ((header[13] & 0xff) << 16)
                            | ((header[14] & 0xff) << 8) | (header[15] & 0xff);
                }
            }
        };
    }
}
