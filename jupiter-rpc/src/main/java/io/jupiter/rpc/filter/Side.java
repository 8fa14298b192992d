package io.jupiter.rpc.filter;

/** Where a {@link Filter} runs: on the calling side, on the serving side, or on both. */
public enum Side {
    /** In the client proxy, around every call it makes. */
    CONSUMER,
    /** In the server, around every request it serves. */
    PROVIDER,
    /** On both sides. */
    BOTH;

    /** Whether a filter declared for this side runs on {@code side} ({@link #CONSUMER} or {@link #PROVIDER}). */
    public boolean includes(Side side) {
        return this == BOTH || this == side;
    }
}
