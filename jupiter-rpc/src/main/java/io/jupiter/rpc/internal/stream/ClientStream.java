package io.jupiter.rpc.internal.stream;

import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.metrics.StreamMetrics;
import io.jupiter.rpc.stream.StreamOptions;
import io.jupiter.serialization.Serializer;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import java.util.concurrent.Flow;
import java.util.function.Consumer;

/**
 * One stream on the client: the provider's messages, read by an {@link InboundStream} (credit from the subscriber's
 * demand), and, for client streaming and bidirectional streams, the consumer's own messages, sent by an
 * {@link OutboundStream} against the provider's credit. The provider's end, the subscriber's cancel and the loss of
 * the connection end both directions; the consumer's end (its publisher completed) and the provider's cancel end only
 * the consumer's direction.
 *
 * @param <T> the type of the provider's messages
 */
public final class ClientStream<T> implements InboundStream.Owner, ConsumerStreams.Routed {

    private final ConsumerStreams streams;
    /** The provider's messages; also what this stream's id, connection and name are read from. */
    private final InboundStream<T> responses;
    /** The consumer's messages; {@code null} for a server stream. */
    private OutboundStream upload;
    /** {@code null}: no metrics installed. */
    private StreamMetrics metrics;

    private ClientStream(ConsumerStreams streams, long id, Connection connection, Serializer serializer,
                         Class<T> type, String name) {
        this.streams = streams;
        this.responses = new InboundStream<>(id, connection, serializer, type, name, Integer.MAX_VALUE,
                streams.receiveWindow(connection), streams.messageDelivery(connection), this);
    }

    /**
     * Opens a stream on {@code connection}: registers it, writes the open frame ({@code writeOpenBody} appends the
     * request body), starts sending {@code uploadSource}'s messages (unless it is {@code null}: a server stream),
     * then subscribes {@code subscriber} to the provider's messages.
     */
    public static <T> void open(ConsumerStreams streams, long id, Connection connection, Serializer serializer,
                                Class<T> type, String name, Consumer<ByteBuf> writeOpenBody,
                                Flow.Publisher<?> uploadSource, Flow.Subscriber<? super T> subscriber) {
        open(streams, id, connection, serializer, type, name, null, null, writeOpenBody, uploadSource, subscriber);
    }

    /**
     * {@link #open(ConsumerStreams, long, Connection, Serializer, Class, String, Consumer, Flow.Publisher,
     * Flow.Subscriber) open}, recording the stream in the client's metrics as one of {@code method} of {@code key}
     * ({@code null}: not recorded).
     */
    public static <T> void open(ConsumerStreams streams, long id, Connection connection, Serializer serializer,
                                Class<T> type, String name, ServiceKey key, String method,
                                Consumer<ByteBuf> writeOpenBody, Flow.Publisher<?> uploadSource,
                                Flow.Subscriber<? super T> subscriber) {
        ClientStream<T> stream = new ClientStream<>(streams, id, connection, serializer, type, name);
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
        if (uploadSource != null) {
            StreamOptions options = uploadSource instanceof StreamSource source ? source.options()
                    : StreamOptions.DEFAULTS;
            stream.upload = new OutboundStream(id, connection, serializer, options);
        }
        streams.register(stream);
        StreamMetrics recorder = streams.streamOpened(key, method);
        if (recorder != null) {
            stream.metrics = recorder;
            stream.responses.metrics(recorder);
            if (stream.upload != null) {
                stream.upload.metrics(recorder);
            }
        }
        connection.write(frame);
        if (uploadSource != null) {
            // Its frames are written on the IO thread after the open, which this thread queued first.
            if (uploadSource instanceof StreamSource source) {
                source.start(stream.upload, streams.delivery());
            } else {
                PublisherBridge.subscribe(uploadSource, stream.upload, StatusTable.CLIENT_ERROR.status());
            }
        }
        if (!connection.isActive()) {
            stream.connectionLost();
        }
        stream.responses.subscribe(subscriber);
    }

    @Override
    public long id() {
        return responses.id();
    }

    @Override
    public Connection connection() {
        return responses.connection();
    }

    /** A stream frame from the provider, on the IO thread; takes ownership. */
    @Override
    public void arrived(Frame frame) {
        byte code = frame.messageCode();
        if (code == ProtocolHeader.STREAM_MESSAGE || code == ProtocolHeader.STREAM_END) {
            responses.arrived(frame);
            return;
        }
        try {
            OutboundStream sending = upload;
            if (code == ProtocolHeader.STREAM_CREDIT) {
                int messages = StreamFrames.creditOf(frame.body());
                if (sending == null || messages < 0) {
                    failAndCancel(sending == null ? "credit for a stream that sends the provider nothing"
                            : "a credit frame must carry a positive 4-byte count");
                    return;
                }
                sending.credit(messages);
            } else if (code == ProtocolHeader.STREAM_CANCEL && sending != null) {
                // The provider reads no more: the consumer's messages stop, the provider's still come.
                String reason = StreamFrames.reasonOf(frame.body());
                sending.cancelled(reason.isEmpty() ? "the provider reads no more messages" : reason);
            }
        } finally {
            frame.release();
        }
    }

    private void failAndCancel(String violation) {
        StreamException error = new StreamException(StatusTable.BAD_REQUEST.status(), "stream " + responses.name()
                + ": the provider at " + connection().remoteAddress() + " broke the stream protocol: " + violation);
        responses.fail(error);
        inboundViolated(error);
    }

    @Override
    public void inboundCancelled(String reason) {
        ended(StatusTable.STREAM_CANCELLED.status());
        streams.forget(this);
        Connection connection = connection();
        connection.write(StreamFrames.cancel(connection.alloc(), id(), reason));
        stopUpload(StatusTable.STREAM_CANCELLED.status(), reason);
    }

    @Override
    public void inboundViolated(StreamException error) {
        inboundCancelled("the provider broke the stream protocol");
    }

    @Override
    public void inboundEnded(Status status) {
        ended(status);
        streams.forget(this);
        stopUpload(status == Status.OK ? StatusTable.STREAM_CANCELLED.status() : status,
                "the provider ended the stream ("
                + status + ")");
    }

    private void ended(Status status) {
        StreamMetrics recorder = metrics;
        if (recorder != null) {
            recorder.ended(status);
        }
    }

    private void stopUpload(Status status, String reason) {
        OutboundStream sending = upload;
        if (sending != null) {
            sending.closeSilently(status, reason);
        }
    }

    /** The connection closed before the stream ended. */
    @Override
    public void connectionLost() {
        ended(StatusTable.CLIENT_ERROR.status());
        streams.forget(this);
        responses.fail(new StreamException(StatusTable.CLIENT_ERROR.status(), "stream " + responses.name()
                + ": the connection to "
                + connection().remoteAddress() + " closed before the stream ended"));
        OutboundStream sending = upload;
        if (sending != null) {
            sending.connectionLost();
        }
    }

    @Override
    public String toString() {
        return "ClientStream{" + responses.name() + ", id=" + id() + '}';
    }
}
