package io.jupiter.rpc.stream;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A TCP relay on 127.0.0.1 in front of a server: {@link #cut()} drops every connection through it at once. */
final class TcpRelay implements AutoCloseable {

    private final ServerSocket listener;
    private final int target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    TcpRelay(int target) throws IOException {
        this.target = target;
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
                pump(client, server);
                pump(server, client);
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void pump(Socket from, Socket to) {
        Thread pump = new Thread(() -> {
            byte[] chunk = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(chunk)) >= 0) {
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
