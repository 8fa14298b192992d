package io.jupiter.rpc.internal.stream;

import io.jupiter.common.LogText;
import io.jupiter.common.NamedThreadFactory;
import io.jupiter.common.config.JupiterSettings;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.RefusalLog;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.VirtualThreads;
import io.jupiter.rpc.metrics.StreamMetrics;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.rpc.stream.StreamOptions;
import io.jupiter.serialization.Serializer;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The provider's streams: routes the stream frames of every connection (on its IO thread) to the stream they name,
 * opens streams off the IO thread through the {@link StreamOpener}, ends every stream of a connection that closes,
 * and every stream with {@code SHUTTING_DOWN} when the server shuts down.
 */
public final class ProviderStreams implements AutoCloseable {

    /** Streams one connection may have open at once; an open beyond is ended {@code SERVER_BUSY}. */
    public static final int MAX_STREAMS_PER_CONNECTION = 10_000;

    private final StreamOpener opener;
    /** A peer may make opens fail at will: the server's refusal lines. */
    private final RefusalLog failedOpens;
    /** Opens streams and runs sink-driven producers: a virtual thread each where the JDK has them. */
    private final ExecutorService threads;
    /** {@link #threads} with the provider-wide bound on the streams that hold one (opens, producers). */
    private final StreamThreads streamThreads;
    private final ConcurrentHashMap<Connection, Map<Long, Entry>> byConnection = new ConcurrentHashMap<>();
    /** Fires the deadlines the consumers sent with their opens; the tasks hand the end to {@link #threads}. */
    private final ScheduledThreadPoolExecutor deadlines;
    private volatile boolean shuttingDown;
    /** Messages of a consumer's stream taken ahead of what the method read. */
    private volatile int inboundWindow = JupiterSettings.STREAM_INBOUND_WINDOW.get();
    /** Bytes the streams of one connection may hold together: buffered, or waiting for the IO thread. */
    private volatile long connectionBufferBytes = JupiterSettings.STREAM_CONNECTION_BUFFER_BYTES.get();
    /** The byte windows of the consumers' streams, per stream and per connection. */
    private volatile StreamWindows windows = StreamWindows.fromSettings();
    /** Each connection's writer and cap across its streams, from its first stream until it closes. */
    private final ConcurrentHashMap<Connection, StreamWriter> writers = new ConcurrentHashMap<>();
    /** Per connection with streams: the bytes its consumers' messages hold here, arrived and not yet read. */
    private final ConcurrentHashMap<Connection, ConnectionCreditWindow> receiveWindows = new ConcurrentHashMap<>();

    public ProviderStreams(StreamOpener opener, RefusalLog failedOpens) {
        this.opener = opener;
        this.failedOpens = failedOpens;
        this.threads = VirtualThreads.available() ? VirtualThreads.newThreadPerTaskExecutor("jupiter-stream-")
                : Executors.newCachedThreadPool(new NamedThreadFactory("jupiter-stream", true));
        this.deadlines = new ScheduledThreadPoolExecutor(1, new NamedThreadFactory("jupiter-stream-deadline", true));
        this.deadlines.setRemoveOnCancelPolicy(true);
        this.streamThreads = new StreamThreads(threads, VirtualThreads.available() ? null
                : Executors.newSingleThreadExecutor(new NamedThreadFactory("jupiter-stream-starter", true)),
                deadlines, JupiterSettings.STREAM_THREADS.get(), JupiterSettings.STREAM_OPEN_WAIT_MILLIS.get());
    }

    /** Writes the announcement that this provider speaks streams; call first on every connection. */
    public static void announce(Connection connection) {
        connection.write(Frames.announcement(connection.alloc(), ProtocolHeader.STREAMS_ANNOUNCED));
    }

    /** One stream frame, on the connection's IO thread. Takes ownership of the frame. */
    public void received(Connection connection, CallerIdentity caller, Frame frame) {
        byte code = frame.messageCode();
        if (code == ProtocolHeader.STREAM_MESSAGE || code == ProtocolHeader.STREAM_END) {
            // The consumer's own messages (client streaming, bidirectional) and its end of them.
            Entry entry = entry(connection, frame.id());
            if (entry == null) {
                frame.release(); // the stream ended meanwhile
            } else {
                entry.fromConsumer(frame);
            }
            return;
        }
        try {
            switch (code) {
                case ProtocolHeader.STREAM_OPEN -> opened(connection, caller, frame);
                case ProtocolHeader.STREAM_CREDIT -> credited(connection, frame);
                default -> {
                    Entry entry = entry(connection, frame.id());
                    if (entry != null) {
                        entry.cancel(StreamFrames.reasonOf(frame.body()));
                    }
                }
            }
        } finally {
            frame.release();
        }
    }

    private void opened(Connection connection, CallerIdentity caller, Frame frame) {
        long id = frame.id();
        if (shuttingDown) {
            connection.write(StreamFrames.end(connection.alloc(), id, StatusTable.SHUTTING_DOWN.status(),
                    "the provider is shutting down"));
            return;
        }
        Map<Long, Entry> streams = byConnection.computeIfAbsent(connection, c -> new ConcurrentHashMap<>());
        if (streams.size() >= MAX_STREAMS_PER_CONNECTION) {
            opener.refused(connection, StatusTable.SERVER_BUSY.status());
            connection.write(StreamFrames.end(connection.alloc(), id, StatusTable.SERVER_BUSY.status(),
                    "provider busy: "
                    + MAX_STREAMS_PER_CONNECTION + " streams open on this connection"));
            return;
        }
        // Made here, on the IO thread, so that it never outlives the connection's close (which runs there too).
        writers.computeIfAbsent(connection,
                c -> new StreamWriter(c, new ConnectionStreamBudget(connectionBufferBytes)));
        receiveWindows.computeIfAbsent(connection,
                c -> new ConnectionCreditWindow(windows));
        Entry entry = new Entry(connection, id);
        if (streams.putIfAbsent(id, entry) != null) {
            connection.write(StreamFrames.end(connection.alloc(), id, StatusTable.BAD_REQUEST.status(),
                    "stream id " + id
                    + " is already open on this connection"));
            return;
        }
        // The method may hold its thread as long as the stream lasts (a blocking iterator): threads are the
        // provider's, so the streams holding one are bounded across every connection; an open beyond waits a while.
        // The body is read on the stream's own thread: it may be large, and the IO thread serves everyone.
        frame.body().retain();
        byte serializerCode = frame.serializerCode();
        long receivedNanos = frame.receivedNanos();
        ByteBuf body = frame.body();
        streamThreads.open(() -> open(entry, caller, serializerCode, body, receivedNanos), body.readableBytes(),
                () -> {
                    body.release();
                    if (!entry.endedBeforeStart()) {
                        opener.refused(connection, StatusTable.SERVER_BUSY.status());
                        entry.refused(StatusTable.SERVER_BUSY.status(), "provider busy: " + streamThreads.limit()
                                + " streams hold a thread");
                    }
                }, () -> {
                    body.release();
                    entry.refused(StatusTable.SHUTTING_DOWN.status(), "the provider is shutting down");
                });
    }

    private void open(Entry entry, CallerIdentity caller, byte serializerCode, ByteBuf body,
                      long receivedNanos) {
        if (entry.endedBeforeStart()) {
            // Cancelled, or its connection closed, while the open waited for its thread: the method never runs.
            body.release();
            return;
        }
        try {
            opener.open(entry.connection, entry.id, caller, serializerCode, body, receivedNanos, entry);
        } catch (RuntimeException | Error e) {
            failedOpens.refused(entry.connection, RefusalLog.Cause.OPEN_FAILED,
                    "stream {} from {}: open failed: {}", entry.id, entry.connection.remoteAddress(),
                    LogText.of(e.toString()));
            entry.refused(StatusTable.SERVER_ERROR.status(), "the provider could not open the stream: " + e);
            return;
        } finally {
            body.release();
        }
        StreamOpener.Opened opened = entry.opened();
        if (opened == null) {
            if (!entry.endedBeforeStart()) {
                // A safety net: the opener neither opened nor refused it.
                entry.refused(StatusTable.SERVER_ERROR.status(), "the provider could not open the stream");
            }
            return; // refused (or ended meanwhile): the receiver was told
        }
        Flow.Publisher<?> publisher = opened.publisher();
        if (publisher == null) {
            entry.refused(StatusTable.SERVICE_UNEXPECTED_ERROR.status(), opened.name() + " returned no publisher");
            opened.onEnd().ended(StatusTable.SERVICE_UNEXPECTED_ERROR.status(), "no publisher");
            return;
        }
        if (!entry.takesInbound() && entry.hasInbound()) {
            // The consumer sent messages (or their end) to a method that takes none.
            entry.end(StatusTable.BAD_REQUEST.status(), opened.name()
                    + " takes no messages from the consumer: it is a server"
                    + " stream");
        }
        StreamOptions options = publisher instanceof StreamSource source ? source.options() : StreamOptions.DEFAULTS;
        StreamWriter writer = writers.get(entry.connection);
        if (writer == null) {
            // The connection closed meanwhile: the stream ends unsent once started (its entry noted the loss).
            writer = new StreamWriter(entry.connection, new ConnectionStreamBudget(connectionBufferBytes));
        }
        OutboundStream stream = new OutboundStream(entry.id, entry.connection, opened.serializer(), options, writer);
        stream.silence(entry.producerSilence());
        StreamMetrics metrics = entry.metrics();
        if (metrics != null) {
            stream.metrics(metrics);
            stream.onEnd((status, reason) -> metrics.ended(status));
        }
        stream.onEnd(opened.onEnd());
        stream.onEnd((status, reason) -> {
            forget(entry);
            entry.endInbound(status, reason);
        });
        if (publisher instanceof StreamSource source) {
            source.start(stream, streamThreads.holding());
        } else {
            PublisherBridge.subscribe(publisher, stream, StatusTable.SERVICE_UNEXPECTED_ERROR.status());
        }
        entry.started(stream);
    }

    private void credited(Connection connection, Frame frame) {
        Entry entry = entry(connection, frame.id());
        if (entry == null) {
            return; // the stream ended meanwhile
        }
        int messages = StreamFrames.creditOf(frame.body());
        if (messages < 0) {
            entry.end(StatusTable.BAD_REQUEST.status(), "a credit frame must carry a positive 4-byte count");
            return;
        }
        entry.credit(messages);
    }

    private Entry entry(Connection connection, long id) {
        Map<Long, Entry> streams = byConnection.get(connection);
        return streams == null ? null : streams.get(id);
    }

    private void forget(Entry entry) {
        entry.disarm();
        Map<Long, Entry> streams = byConnection.get(entry.connection);
        if (streams != null) {
            streams.remove(entry.id, entry);
        }
    }

    /**
     * Sets how many streams may hold a thread at once, across every connection (opens and producers), and how long an
     * open beyond waits for one.
     */
    public void streamThreads(int streams, long openWaitMillis) {
        streamThreads.limit(JupiterSettings.STREAM_THREADS.check(streams));
        streamThreads.openWait(JupiterSettings.STREAM_OPEN_WAIT_MILLIS.check(openWaitMillis));
    }

    /** Opens waiting for a thread now. */
    public int opensWaitingForAThread() {
        return streamThreads.waiting();
    }

    /** Streams holding a thread now: opens running their method, sink-driven producers. */
    public int streamsHoldingAThread() {
        return streamThreads.held();
    }

    /** Sets the messages of a consumer's stream taken ahead of what the method read, for the streams opened next. */
    public void inboundWindow(int messages) {
        this.inboundWindow = JupiterSettings.STREAM_INBOUND_WINDOW.check(messages);
    }

    /**
     * Sets the bytes the streams of one connection may buffer together beyond their receivers' credit, for the
     * connections whose first stream opens next.
     */
    public void connectionBufferBytes(long bytes) {
        this.connectionBufferBytes = JupiterSettings.STREAM_CONNECTION_BUFFER_BYTES.check(bytes);
    }

    /** Sets the byte windows of the consumers' streams, for the connections whose first stream opens next. */
    public void windows(StreamWindows bytes) {
        this.windows = bytes;
    }

    /** Bytes buffered now beyond their receivers' credit, by all the streams of all connections. */
    public long bufferedBytes() {
        long bytes = 0;
        for (StreamWriter writer : writers.values()) {
            bytes += writer.budget().buffered();
        }
        return bytes;
    }

    /**
     * The most bytes the streams of any one connection hold now: buffered beyond their receivers' credit, and sent
     * but not yet handed to the connection (what the transport holds beyond is its own, up to its
     * {@code maxPendingWriteBytes}).
     */
    public long mostHeldByOneConnection() {
        long most = 0;
        for (StreamWriter writer : writers.values()) {
            most = Math.max(most, writer.budget().held());
        }
        return most;
    }

    /** Producers waiting now for room under their connection's cap, across all connections. */
    public int producersWaitingForTheCap() {
        int waiting = 0;
        for (StreamWriter writer : writers.values()) {
            waiting += writer.budget().waiting();
        }
        return waiting;
    }

    /** Connections with a stream budget now: those that opened a stream and did not close. */
    public int budgetedConnections() {
        return writers.size();
    }

    /** Streams open now, on every connection. */
    public int openStreams() {
        int open = 0;
        for (Map<Long, Entry> streams : byConnection.values()) {
            open += streams.size();
        }
        return open;
    }

    /** The connection closed: each of its streams ends, its producer learns it, its buffer is freed. */
    public void disconnected(Connection connection) {
        Map<Long, Entry> streams = byConnection.remove(connection);
        writers.remove(connection);
        receiveWindows.remove(connection);
        if (streams != null) {
            for (Entry entry : new ArrayList<>(streams.values())) {
                entry.connectionLost();
            }
        }
    }

    /**
     * The server shuts down: new opens are refused and every open stream ends with {@code SHUTTING_DOWN}, its
     * receiver told. Returns the connections that had streams.
     */
    public List<Connection> shutDown() {
        shuttingDown = true;
        List<Connection> told = new ArrayList<>();
        for (Map.Entry<Connection, Map<Long, Entry>> e : byConnection.entrySet()) {
            if (!e.getValue().isEmpty()) {
                told.add(e.getKey());
            }
            for (Entry entry : new ArrayList<>(e.getValue().values())) {
                entry.end(StatusTable.SHUTTING_DOWN.status(), "the provider is shutting down");
            }
        }
        return told;
    }

    @Override
    public void close() {
        shutDown();
        deadlines.shutdownNow();
        threads.shutdown();
        streamThreads.shutDown();
        try {
            if (!threads.awaitTermination(2, TimeUnit.SECONDS)) {
                threads.shutdownNow();
            }
        } catch (InterruptedException e) {
            threads.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** {@code connection}'s receive window; a fresh one when it closed meanwhile (its streams end unread). */
    private ConnectionCreditWindow receiveWindow(Connection connection) {
        ConnectionCreditWindow window = receiveWindows.get(connection);
        return window != null ? window : new ConnectionCreditWindow(windows);
    }

    /** One stream from its open frame on: what arrived before its producer started, then the stream itself. */
    private final class Entry implements InboundStream.Owner, StreamOpener.Opening {
        final Connection connection;
        final long id;
        private OutboundStream stream;
        /** The consumer's messages: made when the method takes them, or when the first of them arrives. */
        private InboundStream<Object> inbound;
        /** Whether the method takes the consumer's messages (a {@code Flow.Publisher} parameter). */
        private boolean takesInbound;
        private int pendingCredit;
        private Status pendingEnd;
        private String pendingReason;
        /** The deadline the consumer sent, armed; {@code null}: none, or disarmed. */
        private ScheduledFuture<?> deadline;
        /** The reader's first-message and idle deadlines on the provider's messages; {@code null}: none. */
        private SilenceDeadline producerSilence;
        /** The same on the consumer's messages (client and bidirectional streams); {@code null}: none. */
        private SilenceDeadline consumerSilence;
        /** {@code null}: no metrics installed. */
        private StreamMetrics metrics;
        /** What the method opened, until its stream starts; {@code null}: not (yet), or refused. */
        private StreamOpener.Opened opened;

        Entry(Connection connection, long id) {
            this.connection = connection;
            this.id = id;
        }

        @Override
        public void deadline(long deadlineNanos) {
            long millis = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
            Runnable expire = () -> end(StatusTable.SERVER_TIMEOUT.status(), "the stream's deadline passed (" + millis
                    + " ms from the open)");
            ScheduledFuture<?> armed;
            try {
                armed = deadlines.schedule(() -> threads.execute(expire), deadlineNanos - System.nanoTime(),
                        TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                return; // shutting down: the stream ends with SHUTTING_DOWN anyway
            }
            synchronized (this) {
                deadline = armed;
            }
            if (entry(connection, id) != this) {
                disarm(); // it ended while being armed
            }
        }

        @Override
        public void silenceDeadlines(long receivedNanos, long producerFirstMillis, long producerIdleMillis,
                                     long consumerFirstMillis, long consumerIdleMillis) {
            SilenceDeadline out = producerFirstMillis != 0 || producerIdleMillis != 0 ? new SilenceDeadline(
                    receivedNanos, producerFirstMillis, producerIdleMillis, "the provider's producer") : null;
            SilenceDeadline in = consumerFirstMillis != 0 || consumerIdleMillis != 0 ? new SilenceDeadline(
                    receivedNanos, consumerFirstMillis, consumerIdleMillis, "the consumer") : null;
            synchronized (this) {
                producerSilence = out;
                consumerSilence = in;
            }
            Consumer<String> expire = reason -> {
                try {
                    threads.execute(() -> end(StatusTable.SERVER_TIMEOUT.status(), reason));
                } catch (RejectedExecutionException e) {
                    // shutting down: the stream ends with SHUTTING_DOWN anyway
                }
            };
            if (out != null) {
                out.start(deadlines, expire);
            }
            if (in != null) {
                in.start(deadlines, expire);
            }
            if (entry(connection, id) != this) {
                disarm(); // it ended while being armed
            }
        }

        @Override
        public synchronized void opened(StreamOpener.Opened what) {
            opened = what;
        }

        /** What the method opened, once; {@code null} if the open was refused. */
        synchronized StreamOpener.Opened opened() {
            StreamOpener.Opened what = opened;
            opened = null;
            return what;
        }

        synchronized SilenceDeadline producerSilence() {
            return producerSilence;
        }

        /** The stream ended: its deadlines, if any, no longer fire. */
        void disarm() {
            ScheduledFuture<?> armed;
            SilenceDeadline out;
            SilenceDeadline in;
            synchronized (this) {
                armed = deadline;
                deadline = null;
                out = producerSilence;
                in = consumerSilence;
            }
            if (armed != null) {
                armed.cancel(false);
            }
            if (out != null) {
                out.stop();
            }
            if (in != null) {
                in.stop();
            }
        }

        @Override
        public synchronized void metrics(StreamMetrics recorder) {
            metrics = recorder;
            if (inbound != null) {
                inbound.metrics(recorder);
            }
        }

        synchronized StreamMetrics metrics() {
            return metrics;
        }

        /** The publisher of the consumer's messages handed to the method, on the stream's thread. */
        @Override
        public Flow.Publisher<?> publisher(Serializer serializer, Class<?> messageType) {
            InboundStream<Object> in = inbound();
            synchronized (this) {
                takesInbound = true;
            }
            in.bind(serializer, messageType);
            return in;
        }

        synchronized boolean takesInbound() {
            return takesInbound;
        }

        synchronized boolean hasInbound() {
            return inbound != null;
        }

        private InboundStream<Object> inbound() {
            InboundStream<Object> in;
            Status ended;
            String reason;
            synchronized (this) {
                if (inbound != null) {
                    return inbound;
                }
                inbound = new InboundStream<>(id, connection, null, null, String.valueOf(id),
                        inboundWindow, receiveWindow(connection), threads, this);
                inbound.metrics(metrics);
                in = inbound;
                ended = stream == null ? pendingEnd : null;
                reason = pendingReason;
            }
            if (ended != null) {
                endInbound(ended, reason); // it ended before its reader was made: the reader must not wait for ever
            }
            return in;
        }

        /** Whether the stream ended (cancelled, its connection lost) before its producer started. */
        synchronized boolean endedBeforeStart() {
            return stream == null && pendingEnd != null;
        }

        /** A message or end frame from the consumer, on the IO thread; takes ownership. */
        void fromConsumer(Frame frame) {
            boolean refuse;
            SilenceDeadline in;
            synchronized (this) {
                // Known to be a server stream once the method ran without taking the consumer's messages.
                refuse = stream != null && !takesInbound;
                in = consumerSilence;
            }
            if (in != null) {
                if (frame.messageCode() == ProtocolHeader.STREAM_END) {
                    in.stop(); // the consumer sent all it had: its silence from now on is expected
                } else {
                    in.touched();
                }
            }
            if (refuse) {
                frame.release();
                end(StatusTable.BAD_REQUEST.status(),
                        "this stream takes no messages from the consumer: it is a server stream");
                return;
            }
            inbound().arrived(frame);
        }

        @Override
        public void inboundCancelled(String reason) {
            // The method reads no more: the consumer stops sending; the stream itself goes on.
            connection.write(StreamFrames.cancel(connection.alloc(), id, reason));
        }

        @Override
        public void inboundViolated(StreamException error) {
            end(StatusTable.BAD_REQUEST.status(), error.getMessage());
        }

        @Override
        public void inboundEnded(Status status) {
            // The consumer sent all it had; the provider's side of the stream goes on.
        }

        /** The whole stream ended: a method still reading the consumer's messages learns it. */
        void endInbound(Status status, String reason) {
            InboundStream<Object> in;
            synchronized (this) {
                in = inbound;
            }
            if (in != null) {
                in.fail(new StreamException(status == Status.OK ? StatusTable.STREAM_CANCELLED.status() : status,
                        "stream " + id
                        + " ended (" + status + ")" + (reason == null || reason.isEmpty() ? "" : ": " + reason)));
            }
        }

        void started(OutboundStream started) {
            int credit;
            Status end;
            String reason;
            synchronized (this) {
                stream = started;
                credit = pendingCredit;
                end = pendingEnd;
                reason = pendingReason;
            }
            if (end != null) {
                // Ended before its producer started (cancelled, connection lost, refused): the receiver knows.
                started.closeSilently(end, reason);
            } else if (credit > 0) {
                started.credit(credit);
            }
        }

        @Override
        public void refused(Status status, String reason) {
            StreamMetrics recorder = metrics();
            if (recorder != null) {
                recorder.ended(status);
            }
            forget(this);
            endInbound(status, reason);
            boolean tell;
            synchronized (this) {
                tell = pendingEnd == null;
                pendingEnd = status;
            }
            if (tell) {
                connection.write(StreamFrames.end(connection.alloc(), id, status, reason));
            }
        }

        void credit(int messages) {
            OutboundStream s;
            synchronized (this) {
                s = stream;
                if (s == null) {
                    pendingCredit = (int) Math.min((long) pendingCredit + messages, Integer.MAX_VALUE);
                    return;
                }
            }
            s.credit(messages);
        }

        // The stream's own end comes first, then its reader's: a method told of the end must not get to answer
        // before the end is settled.
        void cancel(String reason) {
            OutboundStream s = pending(StatusTable.STREAM_CANCELLED.status(), reason);
            if (s != null) {
                s.cancelled(reason);
            } else {
                forget(this);
            }
            endInbound(StatusTable.STREAM_CANCELLED.status(), reason);
        }

        void end(Status status, String reason) {
            OutboundStream s = pending(status, reason);
            if (s != null) {
                s.end(status, reason);
            } else if (forgetIfFirstEnd(status)) {
                connection.write(StreamFrames.end(connection.alloc(), id, status, reason));
            }
            endInbound(status, reason);
        }

        void connectionLost() {
            disarm();
            OutboundStream s = pending(StatusTable.CLIENT_ERROR.status(), "connection closed");
            if (s != null) {
                s.connectionLost();
            }
            endInbound(StatusTable.CLIENT_ERROR.status(), "the connection closed");
        }

        /** Whether {@code status} is the end noted first (then this entry is forgotten). */
        private boolean forgetIfFirstEnd(Status status) {
            forget(this);
            synchronized (this) {
                return pendingEnd == status;
            }
        }

        /** The stream, or {@code null} after noting the end (the first one only) for when it starts. */
        private synchronized OutboundStream pending(Status status, String reason) {
            if (stream == null && pendingEnd == null) {
                pendingEnd = status;
                pendingReason = reason;
            }
            return stream;
        }
    }
}
