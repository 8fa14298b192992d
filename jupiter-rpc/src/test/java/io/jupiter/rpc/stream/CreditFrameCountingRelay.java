package io.jupiter.rpc.stream;

import io.jupiter.transport.ProtocolHeader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay on 127.0.0.1 in front of a server that counts the stream credit frames its clients send (it reads the
 * 16-byte header of every frame from the client: sign, status, id, body size), and relays every byte unchanged.
 */
final class CreditFrameCountingRelay implements AutoCloseable {

    private final ServerSocket listener;
    private final int target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicLong creditFrames = new AtomicLong();

    CreditFrameCountingRelay(int target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "test-credit-relay-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Credit frames the clients sent so far. */
    long creditFrames() {
        return creditFrames.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
                sockets.add(client);
                sockets.add(server);
                pump(client, server, true);
                pump(server, client, false);
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pump(Socket from, Socket to, boolean count) {
        Thread pump = new Thread(() -> {
            byte[] chunk = new byte[8192];
            FrameCounter counter = new FrameCounter();
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(chunk)) >= 0) {
                    if (count) {
                        counter.read(chunk, n);
                    }
                    out.write(chunk, 0, n);
                }
            } catch (IOException e) {
                // closed
            } finally {
                close(from);
                close(to);
            }
        }, "test-credit-relay-pump");
        pump.setDaemon(true);
        pump.start();
    }

    /** Follows the frames of one direction across reads: a header, then its body skipped. */
    private final class FrameCounter {
        private final byte[] header = new byte[ProtocolHeader.HEADER_SIZE];
        private int headerRead;
        private long bodyLeft;

        void read(byte[] bytes, int length) {
            int i = 0;
            while (i < length) {
                if (bodyLeft > 0) {
                    int skip = (int) Math.min(bodyLeft, length - i);
                    bodyLeft -= skip;
                    i += skip;
                    continue;
                }
                header[headerRead++] = bytes[i++];
                if (headerRead == header.length) {
                    headerRead = 0;
                    if ((header[2] & 0x0f) == ProtocolHeader.STREAM_CREDIT) {
                        creditFrames.incrementAndGet();
                    }
                    bodyLeft = ((header[12] & 0xffL) << 24) | ((header[13] & 0xff) << 16)
                            | ((header[14] & 0xff) << 8) | (header[15] & 0xff);
                }
            }
        }
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        sockets.forEach(CreditFrameCountingRelay::close);
    }
}
