package io.jupiter.transport;

/**
 * Netty's allocator for the buffers of a connection (the setting {@code allocator}, property
 * {@code jupiter.io.allocator}).
 *
 * <ul>
 * <li>{@link #POOLED} (default): Netty's pooled allocator, with a buffer cache per IO thread and per Jupiter pool
 *     thread, as Jupiter has always used (Netty 4.1's default).</li>
 * <li>{@link #ADAPTIVE}: Netty 4.2's adaptive allocator (its own default there), which sizes its chunks from what
 *     is allocated and may hold less memory idle; not yet measured against the pooled one here.</li>
 * </ul>
 */
public enum BufferAllocator {
    POOLED, ADAPTIVE
}
