package io.jupiter.rpc.internal.stream;

import io.jupiter.rpc.metrics.StreamMetrics;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.serialization.Serializer;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import java.util.concurrent.Flow;

/**
 * The provider's request pipeline as a stream's open needs it: reads the open frame's body as a request, finds the
 * service and the stream method, checks the serializer and the caller's authorization (from the envelope, before
 * any argument is read), runs the interceptors' {@code beforeInvoke}, then calls the method for its publisher.
 */
public interface StreamOpener {

    /**
     * Opens one stream.
     *
     * @param streamId the stream's id on its connection (the open frame's invoke id)
     * @param inbound  the consumer's messages, for a method that takes them (a {@link Flow.Publisher} parameter)
     * @throws Refused when the open is refused: the receiver gets an end frame with its status and message
     */
    Opened open(Connection connection, long streamId, CallerIdentity caller, byte serializerCode, ByteBuf body,
                long receivedNanos, Inbound inbound);

    /**
     * The provider refused an open before asking this opener ({@code SERVER_BUSY}: too many streams), for the
     * metrics; on the IO thread.
     */
    default void refused(Connection connection, Status status) {
    }

    /** The consumer's messages of the stream being opened (client streaming, bidirectional). */
    @FunctionalInterface
    interface Inbound {
        /**
         * The publisher of the consumer's messages, read with {@code serializer} as {@code messageType}; to pass to
         * the method. Called at most once, before the method runs.
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

    /** An open refused with a status. */
    final class Refused extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private final transient Status status;

        public Refused(Status status, String message) {
            super(message, null, false, false);
            this.status = status;
        }

        public Status status() {
            return status;
        }
    }
}
