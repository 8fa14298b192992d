package io.jupiter.rpc.internal.stream;

import io.jupiter.common.NamedThreadFactory;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.VirtualThreads;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.rpc.metrics.StreamMetrics;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.ProtocolHeader;
import java.util.ArrayList;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The client's streams: which connections lead to a provider that announced streams, the open streams by id, and
 * the delivery of their frames, routed here from the client's frame handler on the IO thread. Messages are read and
 * handed to subscribers on delivery threads (virtual where the JDK has them; the streams of one connection that become
 * deliverable in one turn of its IO thread are handed over together, {@link BatchedDelivery}), never on the IO thread
 * unless the client runs its callbacks there ({@link #deliverOnIoThreads}).
 */
public final class ConsumerStreams implements AutoCloseable {

    /**
     * How long after a connection opened its provider's announcement may still be on its way. A provider that serves
     * streams announces it with the first bytes it writes, so within one round trip on a healthy link; the first
     * bytes may come later from a provider that holds them for a client of another protocol to speak first (half a
     * second with HTTP or gRPC on its port), or from a JVM short of CPU (10,000 stream opens on a busy 2-core machine
     * all failed at one second). After this, a connection that brought none leads to a provider without streams
     * (Jupiter 1.3.1, or one that serves no stream method), and a stream opened on it at once is refused.
     */
    public static final long ANNOUNCEMENT_GRACE_MILLIS = 3000;

    /** One open stream of the client, as the routing of frames sees it. */
    interface Routed {
        /** The stream id, on its connection. */
        long id();

        Connection connection();

        /** A stream frame from the provider, on the IO thread; takes ownership. */
        void arrived(Frame frame);

        /** The connection closed before the stream ended. */
        void connectionLost();
    }

    private final ConcurrentHashMap<Long, Routed> streams = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Connection, Peer> peers = new ConcurrentHashMap<>();
    private final ExecutorService delivery = VirtualThreads.available()
            ? VirtualThreads.newThreadPerTaskExecutor("jupiter-stream-delivery-")
            : Executors.newCachedThreadPool(new NamedThreadFactory("jupiter-stream-delivery", true));
    /** Runs each stream's deliveries: {@link #delivery}, or the IO thread the frames arrive on. */
    private volatile Executor messages = delivery;
    /** The client's metrics; {@code null}: none. */
    private volatile RpcMetrics metrics;
    /** The byte windows of the providers' streams, per stream and per connection. */
    private volatile StreamWindows windows = StreamWindows.fromSettings();

    /** Sets the byte windows of the providers' streams, for the connections that open next. */
    public void windows(StreamWindows bytes) {
        this.windows = bytes;
    }

    /** Records the streams opened from now on in {@code clientMetrics} (their listeners', if any). */
    public void metrics(RpcMetrics clientMetrics) {
        this.metrics = clientMetrics;
    }

    /** A stream of {@code method} of {@code key} opens: its recorder, or {@code null} when nothing records it. */
    StreamMetrics streamOpened(ServiceKey key, String method) {
        RpcMetrics current = metrics;
        return current == null || key == null ? null : current.streamOpened(key, method);
    }

    /** A connection opened (before any of its frames arrives). */
    public void connected(Connection connection) {
        peers.put(connection, new Peer(new ConnectionCreditWindow(windows),
                BatchedDelivery.of(connection.ioExecutor(), delivery)));
    }

    /**
     * A frame arrived, on the IO thread; returns whether it was a stream's (or an announcement) and is taken here.
     */
    public boolean received(Connection connection, Frame frame) {
        byte code = frame.messageCode();
        if (code == ProtocolHeader.HEARTBEAT) {
            if ((frame.status() & ProtocolHeader.STREAMS_ANNOUNCED) != 0) {
                Peer peer = peers.get(connection);
                if (peer != null) {
                    peer.announced();
                }
            }
            frame.release();
            return true;
        }
        if (code == ProtocolHeader.STREAM_OPEN || !ProtocolHeader.isStreamFrame(code)) {
            return false;
        }
        Routed stream = streams.get(frame.id());
        if (stream == null || stream.connection() != connection) {
            frame.release(); // cancelled, or ended: late frames are dropped
            return true;
        }
        stream.arrived(frame);
        return true;
    }

    /** The connection closed: each of its streams ends with {@code CLIENT_ERROR}. */
    public void disconnected(Connection connection) {
        peers.remove(connection);
        for (Routed stream : new ArrayList<>(streams.values())) {
            if (stream.connection() == connection) {
                stream.connectionLost();
            }
        }
    }

    /**
     * Returns once the provider behind {@code connection} announced streams; throws at once if it will not have (its
     * grace since the connection opened passed), else waits for the rest of that grace.
     */
    public void awaitStreams(Connection connection, String what) {
        Peer peer = peers.get(connection);
        if (peer == null) {
            throw new StreamException(StatusTable.CLIENT_ERROR.status(), "stream " + what + ": the connection to "
                    + connection.remoteAddress() + " closed; not sent");
        }
        long left = TimeUnit.MILLISECONDS.toNanos(ANNOUNCEMENT_GRACE_MILLIS) - (System.nanoTime() - peer.since);
        try {
            if (peer.announcement.getCount() == 0 || (left > 0 && peer.announcement.await(left,
                    TimeUnit.NANOSECONDS))) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StreamException(StatusTable.CLIENT_ERROR.status(), "stream " + what
                    + ": interrupted; not sent", e);
        }
        throw new StreamException(StatusTable.CLIENT_ERROR.status(), "stream " + what + ": the provider at "
                + connection.remoteAddress() + " does not speak streams (it did not announce them when the"
                + " connection opened: Jupiter 1.3.1, or a provider that serves no stream method); not sent");
    }

    void register(Routed stream) {
        streams.put(stream.id(), stream);
    }

    void forget(Routed stream) {
        streams.remove(stream.id(), stream);
    }

    /** {@code connection}'s receive window; a fresh one when it closed meanwhile (its streams end unread). */
    ConnectionCreditWindow receiveWindow(Connection connection) {
        Peer peer = peers.get(connection);
        return peer != null ? peer.receiveWindow
                : new ConnectionCreditWindow(windows);
    }

    ExecutorService delivery() {
        return delivery;
    }

    /**
     * Where the messages of the streams opened next on {@code connection} are read and handed to their subscribers:
     * the delivery threads, the streams that become deliverable in one turn of the connection's IO thread handed to
     * them together ({@link BatchedDelivery}); or the IO thread.
     */
    Executor messageDelivery(Connection connection) {
        Executor current = messages;
        if (current != delivery) {
            return current;
        }
        Peer peer = peers.get(connection);
        return peer != null ? peer.delivery : delivery;
    }

    /**
     * The client runs callbacks on its IO threads ({@code consumerThreads(0)}): the streams opened next read their
     * messages and call their subscribers there too, without a hand-off per message. A subscriber that blocks then
     * blocks its connection's reads.
     */
    public void deliverOnIoThreads() {
        this.messages = Runnable::run;
    }

    /** Streams open now. */
    public int openStreams() {
        return streams.size();
    }

    /** Ends every stream ({@code CLIENT_ERROR}: the client closed) and stops the delivery threads. */
    @Override
    public void close() {
        for (Routed stream : new ArrayList<>(streams.values())) {
            stream.connectionLost();
        }
        delivery.shutdown();
        try {
            if (!delivery.awaitTermination(2, TimeUnit.SECONDS)) {
                delivery.shutdownNow();
            }
        } catch (InterruptedException e) {
            delivery.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** What a client knows of one connection's provider. */
    private static final class Peer {
        final long since = System.nanoTime();
        final CountDownLatch announcement = new CountDownLatch(1);
        /** The bytes the streams read from this connection hold, arrived and not yet read. */
        final ConnectionCreditWindow receiveWindow;
        /** Where its streams' messages are delivered, batched per turn of its IO thread. */
        final Executor delivery;

        Peer(ConnectionCreditWindow receiveWindow, Executor delivery) {
            this.receiveWindow = receiveWindow;
            this.delivery = delivery;
        }

        void announced() {
            announcement.countDown();
        }
    }
}
