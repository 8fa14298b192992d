package io.jupiter.rpc.internal.stream;

import io.jupiter.rpc.metrics.StreamMetrics;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.serialization.Serializer;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import java.util.concurrent.Flow;

/**
 * The provider's chain as a stream's open needs it: reads the open frame's body as a request, finds the service and
 * the stream method, checks the serializer and the caller's authorization (from the envelope, before any argument
 * is read), runs the interceptors' {@code beforeInvoke}, then calls the method for its publisher. The outcome goes to
 * the {@link Opening}: {@link Opening#opened} or {@link Opening#refused}.
 */
public interface StreamOpener {

    /**
     * Opens one stream, on the thread the stream holds; tells {@code opening} the outcome before it returns.
     *
     * @param streamId the stream's id on its connection (the open frame's invoke id)
     * @param body     the open frame's body; still the caller's (released by it once this returns)
     * @param opening  the stream being opened: its consumer's messages, deadlines, metrics, and the outcome
     */
    void open(Connection connection, long streamId, CallerIdentity caller, byte serializerCode, ByteBuf body,
              long receivedNanos, Opening opening);

    /**
     * The provider refused an open before asking this opener ({@code SERVER_BUSY}: too many streams), for the
     * metrics; on the IO thread.
     */
    default void refused(Connection connection, Status status) {
    }

    /** The stream being opened, as the opener sees it. */
    interface Opening {
        /**
         * The publisher of the consumer's messages (client streaming, bidirectional), read with {@code serializer}
         * as {@code messageType}; to pass to the method. Called at most once, before the method runs.
         */
        Flow.Publisher<?> publisher(Serializer serializer, Class<?> messageType);

        /**
         * The stream's deadline ({@link System#nanoTime()} based), from the open's deadline attachment; called before
         * the method runs, only when the open carries one. The provider ends the stream {@code SERVER_TIMEOUT} then.
         */
        default void deadline(long deadlineNanos) {
        }

        /**
         * The reader's first-message and idle deadlines, in milliseconds (0: none), from the open's attachments; called
         * before the method runs, only when the open carries one. {@code producer*}: for the provider's messages;
         * {@code consumer*}: for the consumer's (client and bidirectional streams). The provider ends the stream
         * {@code SERVER_TIMEOUT} when a direction stays silent beyond them, counted from {@code receivedNanos}.
         */
        default void silenceDeadlines(long receivedNanos, long producerFirstMillis, long producerIdleMillis,
                                      long consumerFirstMillis, long consumerIdleMillis) {
        }

        /**
         * The stream's metrics, once it was admitted (before the method runs); never called when none are installed.
         * The stream records its messages in them and ends them when it ends.
         */
        default void metrics(StreamMetrics metrics) {
        }

        /** The method returned its publisher: the stream starts once the opener returns. */
        void opened(Opened opened);

        /** The open was refused, or the method failed: the receiver gets a {@code STREAM_END} with this status. */
        void refused(Status status, String reason);
    }

    /**
     * A stream the method opened.
     *
     * @param publisher  what the method returned, or its one answer as a publisher of one message (client streaming)
     * @param serializer the serializer of the open frame, which the messages use too
     * @param name       service and method, for logs
     * @param onEnd      runs the interceptors' {@code afterInvoke} when the stream ends
     */
    record Opened(Flow.Publisher<?> publisher, Serializer serializer, String name, OutboundStream.EndListener onEnd) {
    }
}
