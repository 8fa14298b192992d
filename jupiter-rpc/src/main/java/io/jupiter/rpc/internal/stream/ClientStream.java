package io.jupiter.rpc.internal.stream;

import io.jupiter.rpc.exception.StreamException;
import io.jupiter.serialization.Serializer;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The receiving side of one server stream on the client, and the {@link Flow.Subscription} its subscriber holds:
 * {@code request(n)} sends credit, {@code cancel()} a cancel frame. Frames arrive on the IO thread and are queued;
 * one delivery task at a time reads and hands them to the subscriber, in order, on a delivery thread. The provider
 * may send only what was asked for, so the queue never holds more than the subscriber requested; a provider sending
 * more ends the stream.
 *
 * @param <T> the message type
 */
public final class ClientStream<T> implements Flow.Subscription {

    private final ConsumerStreams streams;
    private final long id;
    private final Connection connection;
    private final Serializer serializer;
    private final Class<T> type;
    private final String name;
    private final Flow.Subscriber<? super T> subscriber;
    /** Frames and the local end, in arrival order. */
    private final ConcurrentLinkedQueue<Object> inbound = new ConcurrentLinkedQueue<>();
    private final AtomicInteger wip = new AtomicInteger();
    /** Messages asked for and not received yet (guarded by this). */
    private long outstanding;
    private volatile boolean subscribed;
    /** Set once the stream was cancelled here: frames still arriving are dropped. */
    private volatile boolean cancelled;
    /** Set once the subscriber got its last signal; read and written by the delivery task only. */
    private boolean terminated;

    private ClientStream(ConsumerStreams streams, long id, Connection connection, Serializer serializer,
                         Class<T> type, String name, Flow.Subscriber<? super T> subscriber) {
        this.streams = streams;
        this.id = id;
        this.connection = connection;
        this.serializer = serializer;
        this.type = type;
        this.name = name;
        this.subscriber = subscriber;
    }

    /**
     * Opens a stream on {@code connection}: registers it, writes the open frame ({@code writeOpenBody} appends the
     * request body), then subscribes {@code subscriber}.
     */
    public static <T> void open(ConsumerStreams streams, long id, Connection connection, Serializer serializer,
                                Class<T> type, String name, Consumer<ByteBuf> writeOpenBody,
                                Flow.Subscriber<? super T> subscriber) {
        ClientStream<T> stream = new ClientStream<>(streams, id, connection, serializer, type, name, subscriber);
        ByteBuf frame = Frames.newFrameOnCallingThread(connection.alloc(), 128);
        try {
            writeOpenBody.accept(frame);
            StreamFrames.checkSize(connection, frame.readableBytes() - ProtocolHeader.HEADER_SIZE, frame);
        } catch (RuntimeException e) {
            if (frame.refCnt() > 0) {
                frame.release();
            }
            throw e;
        }
        Frames.fillHeader(frame, ProtocolHeader.toSign(serializer.type().code(), ProtocolHeader.STREAM_OPEN),
                (byte) 0, id);
        streams.register(stream);
        connection.write(frame);
        if (!connection.isActive()) {
            stream.connectionLost();
        }
        subscriber.onSubscribe(stream);
        stream.subscribed = true;
        stream.drain();
    }

    long id() {
        return id;
    }

    Connection connection() {
        return connection;
    }

    @Override
    public void request(long n) {
        if (cancelled) {
            return;
        }
        if (n <= 0) {
            cancel("the subscriber asked for " + n + " messages");
            failLocally(new IllegalArgumentException("request: " + n + " (expected: > 0)"));
            return;
        }
        int messages = (int) Math.min(n, Integer.MAX_VALUE);
        synchronized (this) {
            outstanding += messages;
        }
        connection.write(StreamFrames.credit(connection.alloc(), id, messages));
    }

    @Override
    public void cancel() {
        cancel("cancelled by the subscriber");
    }

    private void cancel(String reason) {
        if (cancelled) {
            return;
        }
        cancelled = true;
        streams.forget(this);
        connection.write(StreamFrames.cancel(connection.alloc(), id, reason));
        drain(); // releases what is queued
    }

    /** A message or end frame, on the IO thread. */
    void arrived(Frame frame) {
        if (frame.messageCode() == ProtocolHeader.STREAM_MESSAGE) {
            boolean tooMany;
            synchronized (this) {
                tooMany = outstanding == 0;
                if (!tooMany) {
                    outstanding--;
                }
            }
            if (tooMany) {
                frame.release();
                cancel("more messages than credit");
                failLocally(new StreamException(Status.BAD_REQUEST, "stream " + name + ": the provider at "
                        + connection.remoteAddress() + " sent more messages than were asked for"));
                return;
            }
        } else {
            streams.forget(this);
        }
        inbound.add(frame);
        drain();
    }

    /** The connection closed before the stream ended. */
    void connectionLost() {
        streams.forget(this);
        inbound.add(new StreamException(Status.CLIENT_ERROR, "stream " + name + ": the connection to "
                + connection.remoteAddress() + " closed before the stream ended"));
        drain();
    }

    /** Ends the subscriber with {@code error} after what is queued (used when the stream is already cancelled). */
    private void failLocally(Throwable error) {
        inbound.add(error);
        drain();
    }

    private void drain() {
        if (!subscribed) {
            return; // subscribing drains what came before
        }
        if (wip.getAndIncrement() != 0) {
            return;
        }
        try {
            streams.delivery().execute(this::deliver);
        } catch (RejectedExecutionException e) {
            deliver(); // the client is closing: release on this thread
        }
    }

    private void deliver() {
        int missed = 1;
        while (true) {
            Object next;
            while ((next = inbound.poll()) != null) {
                deliverOne(next);
            }
            missed = wip.addAndGet(-missed);
            if (missed == 0) {
                return;
            }
        }
    }

    private void deliverOne(Object next) {
        if (next instanceof Frame frame) {
            try {
                if (cancelled || terminated) {
                    return;
                }
                if (frame.messageCode() == ProtocolHeader.STREAM_MESSAGE) {
                    T value;
                    try {
                        value = serializer.read(frame.body(), type);
                    } catch (RuntimeException e) {
                        cancel("the message could not be read");
                        finish(new StreamException(Status.DESERIALIZATION_FAIL, "stream " + name
                                + ": a message could not be read: " + e.getMessage(), e));
                        return;
                    }
                    subscriber.onNext(value);
                } else {
                    Status status = Status.fromByte(frame.status());
                    if (status == Status.OK) {
                        terminated = true;
                        subscriber.onComplete();
                    } else {
                        finish(new StreamException(status, "stream " + name + " ended by the provider ("
                                + status + "): " + StreamFrames.reasonOf(frame.body())));
                    }
                }
            } finally {
                frame.release();
            }
        } else if (!terminated) {
            finish((Throwable) next);
        }
    }

    private void finish(Throwable error) {
        terminated = true;
        subscriber.onError(error);
    }

    @Override
    public String toString() {
        return "ClientStream{" + name + ", id=" + id + '}';
    }
}
