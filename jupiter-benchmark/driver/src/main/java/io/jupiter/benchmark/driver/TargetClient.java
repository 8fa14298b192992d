package io.jupiter.benchmark.driver;

import java.util.concurrent.CompletableFuture;

/**
 * A connected client of a {@link BenchmarkTarget}: one call, blocking or not, or one stream. Used by many
 * threads at once.
 */
public interface TargetClient extends AutoCloseable {

    /** One blocking call; checks the reply and throws if the call failed or the reply is wrong. */
    void call() throws Exception;

    /** One call that returns at once; the future completes with the reply, or exceptionally if the call failed. */
    CompletableFuture<?> callAsync();

    /**
     * Opens one server stream of small messages that the server sends as fast as the stream's flow control allows,
     * each message made of {@link ClientSettings#payload()} and the server's send time, until the result is closed
     * (which cancels the stream). Returns once the stream is asked for; messages arrive on {@code listener}.
     *
     * @throws UnsupportedOperationException if the target has no server stream (the default)
     */
    default AutoCloseable openStream(StreamListener listener) throws Exception {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no server stream");
    }

    /**
     * Subscribes one stream to the server's benchmark topic, to which the server publishes a small message with its
     * send time {@code publishesPerSecond} times a second while anyone is subscribed; closing the result cancels
     * the stream.
     *
     * @throws UnsupportedOperationException if the target has no topic (the default)
     */
    default AutoCloseable subscribe(int publishesPerSecond, StreamListener listener) throws Exception {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no topic (fan-out)");
    }

    /**
     * Opens one client stream over which this client sends small messages (each made of
     * {@link ClientSettings#payload()} and its send time) as fast as the stream's flow control allows, calling
     * {@code listener.onMessage(0)} for each message the stream took, until the result is closed, which completes
     * the stream (the server answers how many it read). Returns once the stream is asked for.
     *
     * @throws UnsupportedOperationException if the target has no client stream (the default)
     */
    default AutoCloseable openUpload(StreamListener listener) throws Exception {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no client stream (upload)");
    }

    /**
     * Opens one bidirectional stream over which this client sends small messages (each made of
     * {@link ClientSettings#payload()} and its send time) as fast as the stream's flow control allows while the server
     * sends each one back, calling {@code listener.onMessage(sentNanos)} for each echo that arrives (the send time it
     * carries), until the result is closed, which cancels the stream. Returns once the stream is asked for.
     *
     * @throws UnsupportedOperationException if the target has no bidirectional stream (the default)
     */
    default AutoCloseable openEcho(StreamListener listener) throws Exception {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no bidirectional stream (echo)");
    }

    /** Closes the client's connections and threads. */
    @Override
    void close();
}
