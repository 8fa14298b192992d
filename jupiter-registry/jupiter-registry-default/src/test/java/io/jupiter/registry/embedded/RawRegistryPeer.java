package io.jupiter.registry.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.registry.embedded.internal.RegistryAuth;
import io.jupiter.registry.embedded.internal.RegistryCodec;
import io.jupiter.registry.embedded.internal.RegistryFrames;
import io.jupiter.registry.embedded.internal.RegistryMessage;
import io.jupiter.transport.ProtocolHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * A hand-driven registry peer on a plain socket: it writes exactly the frames a test gives it and reads what comes
 * back, so a test can play an attacker (or a 1.3.1 peer) the real client would never be.
 */
final class RawRegistryPeer implements AutoCloseable {

    /** One frame read from the socket. */
    record RawFrame(int messageCode, long id, byte[] body) {
        RegistryMessage message() {
            ByteBuf buf = Unpooled.wrappedBuffer(body);
            try {
                return RegistryCodec.decode(buf);
            } finally {
                buf.release();
            }
        }
    }

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private long nextSequence = 1000;

    RawRegistryPeer(InetSocketAddress registry) throws IOException {
        this.socket = new Socket(registry.getAddress(), registry.getPort());
        socket.setSoTimeout(10_000);
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Sends a message with a new sequence; returns the sequence. */
    long send(byte code, Object data) throws IOException {
        long sequence = nextSequence++;
        write(RegistryFrames.frame(UnpooledByteBufAllocator.DEFAULT,
                new RegistryMessage(sequence, RegistryFrames.PROTOSTUFF, code, 0, data)));
        return sequence;
    }

    void sendAuth(long step, byte[]... parts) throws IOException {
        write(RegistryAuth.frame(UnpooledByteBufAllocator.DEFAULT, step, parts));
    }

    void ack(long sequence) throws IOException {
        write(RegistryFrames.ackFrame(UnpooledByteBufAllocator.DEFAULT, sequence));
    }

    /** Writes bytes as they are (a frame a real peer could not encode). */
    void writeBytes(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    private void write(ByteBuf frame) throws IOException {
        try {
            byte[] bytes = new byte[frame.readableBytes()];
            frame.readBytes(bytes);
            out.write(bytes);
            out.flush();
        } finally {
            frame.release();
        }
    }

    /** The next frame; fails the test if none comes within 10 s or the connection closes. */
    RawFrame read() throws IOException {
        assertThat(in.readShort()).as("magic").isEqualTo(ProtocolHeader.MAGIC);
        int sign = in.readUnsignedByte();
        in.readByte();
        long id = in.readLong();
        int size = in.readInt();
        assertThat(size).isBetween(0, 1 << 20);
        byte[] body = new byte[size];
        in.readFully(body);
        return new RawFrame(sign & 0x0f, id, body);
    }

    /** Reads frames (acknowledging pushes) until the ACK of {@code sequence}; fails if another ACK comes first. */
    void awaitAckOf(long sequence) throws IOException {
        while (true) {
            RawFrame frame = read();
            if (frame.messageCode() == RegistryFrames.ACK) {
                assertThat(frame.id()).as("the first ACK").isEqualTo(sequence);
                return;
            }
            if (frame.messageCode() != RegistryFrames.OFFLINE_NOTICE) {
                ack(frame.message().sequence());
            }
        }
    }

    /** Waits (at most {@code timeout}) until the registry closes the connection, ignoring what it sends before. */
    void awaitClosed(Duration timeout) throws IOException {
        socket.setSoTimeout((int) timeout.toMillis());
        byte[] sink = new byte[4096];
        try {
            while (in.read(sink) >= 0) {
                // drain
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the registry did not close the connection within " + timeout, e);
        } catch (SocketException | EOFException e) {
            // reset by the peer: closed too
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
