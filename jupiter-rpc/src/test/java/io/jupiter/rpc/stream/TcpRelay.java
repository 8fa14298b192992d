package io.jupiter.rpc.stream;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * A TCP relay on 127.0.0.1 in front of a server: relays every byte unchanged, lets a {@link Tap} see what the clients
 * send, and {@link #cut()} drops every connection through it at once.
 */
final class TcpRelay implements AutoCloseable {

    /** Sees the bytes one client sends, in order, as they pass. */
    interface Tap {
        void read(byte[] bytes, int length);
    }

    private static final Tap NONE = (bytes, length) -> { };

    private final ServerSocket listener;
    private final int target;
    private final Supplier<Tap> taps;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    TcpRelay(int target) throws IOException {
        this(target, () -> NONE);
    }

    /** @param taps a tap for each connection's client-to-server bytes */
    TcpRelay(int target, Supplier<Tap> taps) throws IOException {
        this.target = target;
        this.taps = taps;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "test-relay-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
                sockets.add(client);
                sockets.add(server);
                pump(client, server, taps.get());
                pump(server, client, NONE);
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void pump(Socket from, Socket to, Tap tap) {
        Thread pump = new Thread(() -> {
            byte[] chunk = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(chunk)) >= 0) {
                    tap.read(chunk, n);
                    out.write(chunk, 0, n);
                }
            } catch (IOException e) {
                // cut, or the peer closed
            } finally {
                close(from);
                close(to);
            }
        }, "test-relay-pump");
        pump.setDaemon(true);
        pump.start();
    }

    /** Closes every relayed connection (both ends), as a failed link would. */
    void cut() {
        sockets.forEach(TcpRelay::close);
        sockets.clear();
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
        cut();
    }
}
