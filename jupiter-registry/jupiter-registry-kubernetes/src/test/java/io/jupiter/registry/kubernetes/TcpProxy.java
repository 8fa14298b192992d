package io.jupiter.registry.kubernetes;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on 127.0.0.1 in front of the API server, to inject faults on the real path: {@link #cut()} breaks every
 * open connection (a watch closed under the client), {@link #stop()} also stops listening (the API server is down)
 * and {@link #start()} listens again on the same port.
 */
final class TcpProxy implements AutoCloseable {

    private final InetSocketAddress target;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile int port;
    private volatile ServerSocket listener;

    TcpProxy(InetSocketAddress target) {
        this.target = target;
    }

    /** Listens (again) on the proxy's port, a new ephemeral one the first time. */
    synchronized TcpProxy start() throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
        port = socket.getLocalPort();
        listener = socket;
        Thread acceptor = new Thread(() -> accept(socket), "test-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        return this;
    }

    int port() {
        return port;
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    /** Breaks every connection through the proxy; new ones are still accepted. */
    synchronized void cut() {
        for (Socket socket : open) {
            closeQuietly(socket);
        }
        open.clear();
    }

    /** Stops listening and breaks every connection. */
    synchronized void stop() {
        ServerSocket socket = listener;
        listener = null;
        if (socket != null) {
            closeQuietly(socket);
        }
        cut();
    }

    @Override
    public void close() {
        stop();
    }

    private void accept(ServerSocket socket) {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                Socket server = new Socket();
                try {
                    server.connect(target, 2000);
                } catch (IOException e) {
                    closeQuietly(client);
                    closeQuietly(server);
                    continue;
                }
                synchronized (this) {
                    // A connection accepted just before stop() must not outlive it.
                    if (listener != socket) {
                        closeQuietly(client);
                        closeQuietly(server);
                        return;
                    }
                    open.add(client);
                    open.add(server);
                }
                pump(client, server);
                pump(server, client);
            } catch (IOException e) {
                return; // listener closed
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException e) {
                // either side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "test-proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // closing anyway
        }
    }
}
