package io.jupiter.protocol.http.client;

import io.jupiter.transport.Connection;
import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.TransportException;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.util.AttributeKey;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The HTTP/2 connections to one gRPC server, kept open: a connection that closes or fails to open is opened again
 * after a back-off (100 ms, doubling to 2 s), until the group closes. A connection is in use once its pipeline says
 * it is ready ({@link #ready}: connected, and with TLS once the handshake succeeded and the server selected
 * {@code h2}). The consumer's balancer sees the server as available while one connection is in use and not going
 * away; while none is, the last handshake failure ({@link #handshakeFailure()}) tells callers why at once.
 */
final class GrpcConnectionGroup implements ConnectionGroup {

    /** Adds the handlers of a new connection of {@code group} (HTTP/2, and TLS when configured). */
    interface PipelineSetup {
        void addHandlers(Channel channel, GrpcConnectionGroup group);
    }

    /** The slot a connection fills. */
    private static final AttributeKey<Integer> SLOT = AttributeKey.valueOf("jupiter.grpc.slot");
    /** Set on a connection that GOAWAY took out of use: its slot is already being filled again. */
    private static final AttributeKey<Boolean> REPLACED = AttributeKey.valueOf("jupiter.grpc.replaced");

    private static final long FIRST_BACKOFF_MILLIS = 100;
    private static final long MAX_BACKOFF_MILLIS = 2000;

    private final SocketAddress address;
    private final Bootstrap bootstrap;
    private final int maxStreams;
    private final int maxMessageBytes;
    private final AtomicReferenceArray<GrpcConnection> slots;
    private final long[] backoffMillis;
    private final AtomicInteger next = new AtomicInteger();
    private final Object lock = new Object();
    private volatile boolean everAvailable;
    private volatile TransportException handshakeFailure;
    private volatile boolean closed;

    /**
     * @param bootstrap connects a channel (its event loop and options); {@code setup} adds the handlers
     */
    GrpcConnectionGroup(SocketAddress address, Bootstrap bootstrap, PipelineSetup setup, int connections,
                        int maxStreams, int maxMessageBytes) {
        this.address = address;
        this.bootstrap = bootstrap.clone().handler(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel channel) {
                setup.addHandlers(channel, GrpcConnectionGroup.this);
            }
        });
        this.maxStreams = maxStreams;
        this.maxMessageBytes = maxMessageBytes;
        this.slots = new AtomicReferenceArray<>(connections);
        this.backoffMillis = new long[connections];
        for (int i = 0; i < connections; i++) {
            connect(i);
        }
    }

    private void connect(int slot) {
        if (closed) {
            return;
        }
        ChannelFuture connecting = bootstrap.clone().attr(SLOT, slot).connect(address);
        connecting.addListener(done -> {
            Channel channel = connecting.channel();
            if (!done.isSuccess()) {
                reconnectLater(slot, channel);
                return;
            }
            channel.closeFuture().addListener(c -> {
                synchronized (lock) {
                    GrpcConnection current = slots.get(slot);
                    if (current != null && current.channel() == channel) {
                        slots.set(slot, null);
                    } else if (Boolean.TRUE.equals(channel.attr(REPLACED).get())) {
                        return; // GOAWAY: a new connection is on its way
                    }
                }
                reconnectLater(slot, channel); // lost, or never ready (a failed TLS handshake, no h2)
            });
        });
    }

    /** {@code channel} is ready for calls (its pipeline says so): it takes its slot. */
    void ready(Channel channel) {
        Integer slot = channel.attr(SLOT).get();
        GrpcConnection connection = new GrpcConnection(channel, maxStreams, maxMessageBytes);
        synchronized (lock) {
            if (closed || slot == null) {
                channel.close();
                return;
            }
            slots.set(slot, connection);
            backoffMillis[slot] = 0;
            everAvailable = true;
            handshakeFailure = null;
            lock.notifyAll();
        }
    }

    /** A connection failed its TLS handshake (or chose no h2) for {@code reason}; it closes and is tried again. */
    void handshakeFailed(String reason, Throwable cause) {
        handshakeFailure = new TransportException("no gRPC connection to " + address + ": " + reason, cause);
    }

    /**
     * Why the last connection could not be used (a certificate that does not verify, a client certificate refused,
     * no h2 by ALPN), while no connection is in use; {@code null} otherwise.
     */
    @Override
    public TransportException handshakeFailure() {
        return isAvailable() ? null : handshakeFailure;
    }

    /** A connection in {@code slot} closed or could not open: tries again after the slot's back-off. */
    private void reconnectLater(int slot, Channel channel) {
        if (closed) {
            return;
        }
        long delay;
        synchronized (lock) {
            delay = backoffMillis[slot] == 0 ? FIRST_BACKOFF_MILLIS
                    : Math.min(MAX_BACKOFF_MILLIS, backoffMillis[slot] * 2);
            backoffMillis[slot] = delay;
        }
        channel.eventLoop().schedule(() -> connect(slot), delay, TimeUnit.MILLISECONDS);
    }

    /** The server sent GOAWAY on {@code channel}: its connection takes no new call, and a new one replaces it. */
    void goingAway(Channel channel) {
        synchronized (lock) {
            for (int i = 0; i < slots.length(); i++) {
                GrpcConnection connection = slots.get(i);
                if (connection != null && connection.channel() == channel) {
                    channel.attr(REPLACED).set(Boolean.TRUE);
                    connection.goingAway();
                    slots.set(i, null);
                    backoffMillis[i] = 0;
                    connect(i);
                }
            }
        }
    }

    @Override
    public SocketAddress address() {
        return address;
    }

    /** The next open connection in round-robin order, or {@code null} if none is open now. */
    @Override
    public GrpcConnection next() {
        int count = slots.length();
        int start = Math.floorMod(next.getAndIncrement(), count);
        for (int i = 0; i < count; i++) {
            GrpcConnection connection = slots.get((start + i) % count);
            if (connection != null && connection.isActive()) {
                return connection;
            }
        }
        return null;
    }

    @Override
    public List<Connection> activeConnections() {
        List<Connection> active = new ArrayList<>();
        for (int i = 0; i < slots.length(); i++) {
            GrpcConnection connection = slots.get(i);
            if (connection != null && connection.isActive()) {
                active.add(connection);
            }
        }
        return active;
    }

    @Override
    public boolean isAvailable() {
        return next() != null;
    }

    @Override
    public boolean everAvailable() {
        return everAvailable;
    }

    @Override
    public boolean awaitAvailable(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        synchronized (lock) {
            while (!isAvailable() && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(lock, left);
            }
        }
        return isAvailable();
    }

    @Override
    public void close() {
        List<GrpcConnection> open = new ArrayList<>();
        synchronized (lock) {
            closed = true;
            for (int i = 0; i < slots.length(); i++) {
                GrpcConnection connection = slots.getAndSet(i, null);
                if (connection != null) {
                    open.add(connection);
                }
            }
            lock.notifyAll();
        }
        for (GrpcConnection connection : open) {
            connection.close();
        }
    }

    @Override
    public String toString() {
        return "grpc://" + address;
    }
}
