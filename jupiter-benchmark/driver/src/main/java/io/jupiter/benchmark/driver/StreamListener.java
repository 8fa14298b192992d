package io.jupiter.benchmark.driver;

/**
 * Receives one server stream opened by {@link TargetClient#openStream}. Called by the target's delivery thread, one
 * signal at a time per stream; different streams may call at once.
 */
public interface StreamListener {

    /**
     * One message arrived.
     *
     * @param sentNanos the server's {@link System#nanoTime()} when it made the message (the same monotonic clock as
     *                  the client's on one host), or {@code 0} if the target does not carry it
     */
    void onMessage(long sentNanos);

    /** The stream ended: {@code error} is {@code null} if the server completed it. */
    void onEnd(Throwable error);
}
