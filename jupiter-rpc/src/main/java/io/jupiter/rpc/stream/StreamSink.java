package io.jupiter.rpc.stream;

/**
 * Where a provider writes the messages of one stream ({@link Streams#produce}). One producer thread writes; the
 * calls are blocking and suit a virtual thread: {@link #send} waits for the receiver's demand under
 * {@link SlowConsumerPolicy#WAIT}.
 *
 * @param <T> the message type
 */
public interface StreamSink<T> {

    /**
     * Sends one message: written at once when the receiver has credit, else buffered, else handled by the stream's
     * {@link SlowConsumerPolicy} (wait, drop or fail).
     *
     * @return {@code false} if the message was dropped by a drop policy, else {@code true}
     * @throws io.jupiter.rpc.exception.StreamException if the stream is over: cancelled by the receiver, its
     *         connection closed, the server shutting down, or ended by {@link SlowConsumerPolicy#FAIL}
     * @throws InterruptedException if the thread was interrupted while waiting for credit
     */
    boolean send(T message) throws InterruptedException;

    /** Ends the stream normally once the messages already sent or buffered reach the receiver. Idempotent. */
    void complete();

    /**
     * Ends the stream with an error now; buffered messages are dropped. The receiver gets a
     * {@link io.jupiter.rpc.exception.StreamException} with status {@code SERVICE_UNEXPECTED_ERROR} and the message
     * of {@code error} (not its stack trace).
     */
    void fail(Throwable error);

    /** Whether the stream is still open: not cancelled, not ended. */
    boolean isOpen();
}
