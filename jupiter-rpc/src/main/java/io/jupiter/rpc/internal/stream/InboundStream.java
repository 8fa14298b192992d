package io.jupiter.rpc.internal.stream;

import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.metrics.StreamMetrics;
import io.jupiter.serialization.Serializer;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The receiving half of one stream, on either side: the consumer reading a provider's messages, or the provider
 * reading a consumer's (client streaming, bidirectional). It is the {@link Flow.Publisher} its one subscriber reads
 * and the {@link Flow.Subscription} that subscriber holds: {@code request(n)} turns into credit frames, at most
 * {@code window} messages ahead of what was delivered, and no more than its {@link CreditWindow} lets in at the
 * size its messages have had (so a stream of small messages runs a whole message window ahead, one of large
 * messages only as many as its bytes allow); {@code cancel()} into a cancel frame. Message and end frames arrive on
 * the IO thread and are queued; one delivery task at a time reads and hands them to the subscriber, in order, on its
 * delivery executor (a delivery thread; the IO thread itself only where the user said so). A message beyond the credit
 * granted is a protocol violation its {@link Owner} handles.
 *
 * @param <T> the message type
 */
public final class InboundStream<T> implements Flow.Publisher<T>, Flow.Subscription {

    /** What the side that holds this half does when it ends or misbehaves. */
    interface Owner {
        /** The subscriber cancelled: a cancel frame is due (already marked here). */
        void inboundCancelled(String reason);

        /** The sender sent a message beyond the credit granted; this half fails with {@code error} right after. */
        void inboundViolated(StreamException error);

        /** The sender's end frame arrived: nothing more comes this way. */
        void inboundEnded(Status status);
    }

    @SuppressWarnings("rawtypes")
    private static final AtomicIntegerFieldUpdater<InboundStream> WIP =
            AtomicIntegerFieldUpdater.newUpdater(InboundStream.class, "wip");

    private static final Flow.Subscription NOTHING = new Flow.Subscription() {
        @Override
        public void request(long n) {
        }

        @Override
        public void cancel() {
        }
    };

    private final long id;
    private final Connection connection;
    /** What messages are read with; set with the type when the provider learns it. */
    private volatile Serializer serializer;
    private final String name;
    private final int window;
    /** Guarded by this: the bytes this stream lets in, and the sizes its messages have had. */
    private final CreditWindow bytes;
    /** The bytes the receiving streams of this stream's connection hold together. */
    private final ConnectionCreditWindow shared;
    /** Guarded by this: registered with {@link #shared} to grant again once it has room. */
    private boolean awaitingRoom;
    private final Executor delivery;
    private final Owner owner;
    /** What messages are read as; set when the subscriber's type is known (before any credit is sent). */
    private volatile Class<T> type;
    /** Message frames, end frames and local errors, in arrival order. */
    private final ConcurrentLinkedQueue<Object> inbound = new ConcurrentLinkedQueue<>();
    /** Delivery passes asked for and not yet done: one task delivers at a time (a field, not an object: heap). */
    private volatile int wip;
    /** Guarded by this: requested and not delivered. */
    private long demand;
    /** Guarded by this: credit on the wire, not yet used by a message. */
    private long granted;
    /** Guarded by this: messages arrived and not yet delivered. */
    private long queued;
    /** Guarded by this: the one subscriber. */
    private Flow.Subscriber<? super T> subscriber;
    private volatile boolean subscribed;
    /** Set once the subscriber cancelled: frames still arriving are dropped. */
    private volatile boolean cancelled;
    /** Set once nothing more is accepted from the wire: the end arrived, or the stream ended here. */
    private volatile boolean closed;
    /** Set once the subscriber got its last signal; read and written by the delivery task only. */
    private boolean terminated;
    /** The stream's metrics; {@code null}: none installed, nothing recorded. */
    private volatile StreamMetrics metrics;
    /** Set when the subscriber holds what it is delivered until it is taken ({@link #holdsDelivered}). */
    private volatile boolean holding;
    /** The body bytes of the message being delivered now; read and written on the delivery task only. */
    private int deliveringBytes;

    InboundStream(long id, Connection connection, Serializer serializer, Class<T> type, String name, int window,
                  ConnectionCreditWindow shared, Executor delivery, Owner owner) {
        this.id = id;
        this.connection = connection;
        this.serializer = serializer;
        this.type = type;
        this.name = name;
        this.window = window;
        this.shared = shared;
        this.bytes = new CreditWindow(shared.streamLimit(), shared);
        this.delivery = delivery;
        this.owner = owner;
    }

    long id() {
        return id;
    }

    Connection connection() {
        return connection;
    }

    String name() {
        return name;
    }

    /** Records this half's messages in {@code recorder} ({@code null}: nowhere). */
    void metrics(StreamMetrics recorder) {
        this.metrics = recorder;
    }

    /**
     * Sets how messages are read (the provider learns it from the open and the method, after the open was read, and
     * before the method can subscribe).
     */
    @SuppressWarnings("unchecked")
    void bind(Serializer messageSerializer, Class<?> messageType) {
        this.serializer = messageSerializer;
        this.type = (Class<T>) messageType;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super T> s) {
        boolean first;
        synchronized (this) {
            first = subscriber == null;
            if (first) {
                subscriber = s;
            }
        }
        if (!first) {
            s.onSubscribe(NOTHING);
            s.onError(new IllegalStateException("stream " + name + ": its inbound messages take one subscriber"));
            return;
        }
        s.onSubscribe(this);
        subscribed = true;
        drain();
    }

    @Override
    public void request(long n) {
        if (cancelled || closed) {
            return;
        }
        if (n <= 0) {
            inbound.add(new IllegalArgumentException("request: " + n + " (expected: > 0)"));
            cancel("the subscriber asked for " + n + " messages");
            return;
        }
        int credit;
        synchronized (this) {
            demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
            credit = creditDue();
        }
        sendCredit(credit);
    }

    /** Credit to send now, counted as granted; 0 when none is due. Called holding this. */
    private int creditDue() {
        if (cancelled || closed) {
            return 0;
        }
        int due = creditWithin();
        if (due == 0 && granted + queued == 0 && demand > 0 && !awaitingRoom) {
            // Held back by the connection with nothing on its way: no arrival will look again, a release will.
            awaitingRoom = true;
            shared.await(this::grantAgain);
            due = creditWithin(); // a release between the first look and the registration
        }
        return due;
    }

    /** Credit due within this stream's and its connection's room, counted as granted. Holding this. */
    private int creditWithin() {
        long inFlight = granted + queued;
        long cap = Math.min(window, bytes.messages(queued, granted));
        long due = Math.min(demand, cap) - inFlight;
        // Credit goes in batches: none while more than half the window is still on its way or queued.
        if (due <= 0 || inFlight > askAgainAt(cap)) {
            return 0;
        }
        granted += due;
        bytes.granted(due);
        return (int) due;
    }

    /**
     * What may still be on its way or queued when credit is granted again: half of {@code cap}; when the stream's
     * share of its connection's window holds it, between a quarter and a half, by the stream's id. Streams that got
     * their shares in the same burst (a topic's subscribers) and read at the same pace would otherwise all ask again
     * in the same later burst, a credit frame each; asking at different points spreads them over bursts.
     */
    private long askAgainAt(long cap) {
        long half = cap / 2;
        return bytes.shareBound() ? half - Math.floorMod(id, half / 2 + 1) : half;
    }

    /** The connection has room again: grants what is due (called holding no stream's lock). */
    void grantAgain() {
        int credit;
        synchronized (this) {
            awaitingRoom = false;
            credit = creditDue();
        }
        sendCredit(credit);
    }

    private void sendCredit(int credit) {
        if (credit > 0) {
            connection.write(StreamFrames.credit(connection.alloc(), id, credit));
        }
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
        closeWindow();
        if (!closed) {
            owner.inboundCancelled(reason);
        }
        drain(); // releases what is queued
    }

    /**
     * A message or end frame of this stream, on the IO thread; takes ownership. Returns {@code false} if a message
     * came beyond the credit granted (the owner was told, the frame released).
     */
    boolean arrived(Frame frame) {
        if (cancelled || closed) {
            frame.release(); // late: the stream ended or was cancelled here
            return true;
        }
        if (frame.messageCode() == ProtocolHeader.STREAM_MESSAGE) {
            boolean beyond;
            boolean tooManyBytes;
            long credit;
            int size = frame.body().readableBytes();
            synchronized (this) {
                credit = granted;
                beyond = granted == 0;
                tooManyBytes = !beyond && bytes.beyondCeiling(size);
                if (!beyond && !tooManyBytes) {
                    bytes.arrived(size, granted);
                    granted--;
                    queued++;
                }
            }
            if (beyond || tooManyBytes) {
                frame.release();
                StreamException error = new StreamException(StatusTable.BAD_REQUEST.status(), "stream " + name + ": "
                        + connection.remoteAddress() + (beyond ? " sent a message beyond the credit it was given ("
                        + credit + " left)" : " sent more than " + CreditWindow.CEILING_WINDOWS + " byte windows "
                        + "that its reader has not read (credit granted at smaller sizes used for large messages)"));
                closed = true;
                closeWindow();
                // The owner ends the stream first: the subscriber, told next, must not get to answer before that.
                owner.inboundViolated(error);
                inbound.add(error);
                drain();
                return false;
            }
            StreamMetrics recorder = metrics;
            if (recorder != null) {
                recorder.received(frame.body().readableBytes());
            }
            inbound.add(frame);
            drain();
            return true;
        }
        closed = true;
        closeWindow();
        Status status = Status.fromByte(frame.status());
        String reason = StreamFrames.reasonOf(frame.body());
        frame.release();
        inbound.add(status == Status.OK ? Status.OK : StatusTable.streamEnd(status, "stream " + name + " ended by "
                + connection.remoteAddress() + " (" + status + "): " + reason));
        drain();
        owner.inboundEnded(status);
        return true;
    }

    /**
     * The stream ended here (cancelled by the peer, connection lost, answered): the subscriber gets {@code error},
     * unless the sender's end arrived first or the subscriber cancelled.
     */
    void fail(Throwable error) {
        if (cancelled || closed) {
            return;
        }
        closed = true;
        closeWindow();
        inbound.add(error);
        drain();
    }

    /**
     * The messages this stream lets be on their way or queued now: its message window, or fewer when its messages
     * are large enough that the window's bytes come first. A reader that holds what it was delivered (the blocking
     * iterator) asks for no more than this, so it holds about the same bytes.
     */
    synchronized int messagesWithinWindow() {
        return (int) Math.min(window, bytes.messages(queued, granted));
    }

    /**
     * The subscriber holds the messages it is delivered until its reader takes them (the blocking iterator): they
     * count towards the byte ceiling until it reports them with {@link #taken}, so a sender cannot fill the holder
     * with credit earned at small sizes. Called from {@code onSubscribe}.
     */
    void holdsDelivered() {
        holding = true;
    }

    /** The body bytes of the message being delivered: for a holding subscriber, read within its {@code onNext}. */
    int deliveringBytes() {
        return deliveringBytes;
    }

    /** A holding subscriber's reader took messages of {@code frames} bytes of frames in all that it was delivered. */
    synchronized void taken(long frames) {
        bytes.taken(frames);
    }

    /** Nothing more comes: the credit still on the wire is given back to the connection, which may let others grant. */
    private void closeWindow() {
        synchronized (this) {
            bytes.closed();
        }
        shared.wakeWaiting();
    }

    /** Whether nothing more is read: ended, failed or cancelled. */
    boolean isClosed() {
        return closed || cancelled;
    }

    private void drain() {
        if (!subscribed) {
            return; // subscribing drains what came before
        }
        if (WIP.getAndIncrement(this) != 0) {
            return;
        }
        try {
            delivery.execute(this::deliver);
        } catch (RejectedExecutionException e) {
            deliver(); // the executor is closing: deliver (and release) on this thread
        }
    }

    private void deliver() {
        int missed = 1;
        while (true) {
            Object next;
            while ((next = inbound.poll()) != null) {
                deliverOne(next);
            }
            missed = WIP.addAndGet(this, -missed);
            if (missed == 0) {
                return;
            }
        }
    }

    private void deliverOne(Object next) {
        if (next instanceof Frame frame) {
            T value;
            int size = frame.body().readableBytes();
            try {
                if (cancelled || terminated) {
                    return;
                }
                try {
                    value = serializer.read(frame.body(), type);
                } catch (RuntimeException e) {
                    cancel("a message could not be read");
                    finish(new StreamException(StatusTable.DESERIALIZATION_FAIL.status(), "stream " + name
                            + ": a message could not be read: " + e.getMessage(), e));
                    return;
                }
            } finally {
                frame.release();
                // Its bytes leave the connection's count here, read or dropped; the other streams may grant again.
                shared.released(CreditWindow.frameBytes(size));
                shared.wakeWaiting();
            }
            deliveringBytes = size;
            subscriber.onNext(value);
            int credit;
            synchronized (this) {
                demand--;
                queued--;
                bytes.delivered(size, holding);
                credit = creditDue();
            }
            sendCredit(credit);
        } else if (terminated) {
            return;
        } else if (next == Status.OK) {
            terminated = true;
            subscriber.onComplete();
        } else {
            finish((Throwable) next);
        }
    }

    private void finish(Throwable error) {
        terminated = true;
        subscriber.onError(error);
    }

    @Override
    public String toString() {
        return "InboundStream{" + name + ", id=" + id + '}';
    }
}
