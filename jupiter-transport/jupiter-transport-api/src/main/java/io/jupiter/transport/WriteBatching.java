package io.jupiter.transport;

/**
 * How a connection turns frames written by other threads into socket writes.
 *
 * <ul>
 * <li>{@link #DISABLE}: every frame is flushed on its own: lowest latency for a lone caller, one system call per frame
 *     under load.</li>
 * <li>{@link #ENABLE}: frames are held briefly ({@link TransportConfig#batchDelayMicros()}) so that more of them
 *     leave in one write, like Nagle's algorithm: best throughput under load, but a lone synchronous caller pays the
 *     delay on every call.</li>
 * <li>{@link #AUTO} (default): on a client's connection, where many calling threads write independently, the
 *     connection watches how many frames its recent writes carried. While frames come one at a time it flushes at
 *     once (as {@code DISABLE}); once they come in groups, concurrency is there to batch, and it holds flushes for
 *     the same brief delay (as {@code ENABLE}); it keeps adapting. On a connection a server accepted it never holds:
 *     responses come from provider threads that serve queued requests back to back, so the frames written while
 *     the IO thread wakes up already leave together, and a held flush would only cost the IO thread a second
 *     wake-up (its timer).</li>
 * </ul>
 * In every mode, frames that are already queued when the IO thread gets to them leave in one write.
 */
public enum WriteBatching {
    DISABLE, ENABLE, AUTO
}
