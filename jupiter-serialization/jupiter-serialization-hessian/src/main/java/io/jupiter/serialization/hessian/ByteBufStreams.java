package io.jupiter.serialization.hessian;

import io.netty.buffer.ByteBuf;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Reusable streams over a {@link ByteBuf} that is set for one call and cleared afterwards, so that a thread's
 * Hessian streams can be kept without holding on to a buffer.
 */
final class ByteBufStreams {

    private ByteBufStreams() {
    }

    /** Appends to the current buffer. */
    static final class Sink extends OutputStream {
        ByteBuf buf;

        @Override
        public void write(int b) {
            buf.writeByte(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            buf.writeBytes(b, off, len);
        }
    }

    /** Reads the current buffer's readable bytes. */
    static final class Source extends InputStream {
        ByteBuf buf;

        @Override
        public int read() {
            return buf.isReadable() ? buf.readUnsignedByte() : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            int n = Math.min(len, buf.readableBytes());
            if (n == 0) {
                return -1;
            }
            buf.readBytes(b, off, n);
            return n;
        }

        @Override
        public int available() {
            return buf.readableBytes();
        }
    }
}
