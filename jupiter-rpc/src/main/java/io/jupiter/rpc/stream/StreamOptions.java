package io.jupiter.rpc.stream;

import io.jupiter.common.Requires;

/**
 * How a provider's stream buffers what its receiver has not asked for yet, and what it does when that buffer is
 * full. Immutable; build one with {@link #builder()}.
 *
 * <pre>
 * StreamOptions options = StreamOptions.builder().policy(SlowConsumerPolicy.DROP_OLDEST).bufferMessages(8).build();
 * </pre>
 */
public final class StreamOptions {

    /**
     * Messages a stream buffers beyond its receiver's credit by default: small messages fill this count, larger ones
     * {@link #DEFAULT_BUFFER_BYTES} first (1,024 of 1 KiB).
     */
    public static final int DEFAULT_BUFFER_MESSAGES = 1024;
    /** Bytes (frames with their headers) a stream buffers beyond its receiver's credit by default: 1 MiB. */
    public static final long DEFAULT_BUFFER_BYTES = 1 << 20;

    /** {@link SlowConsumerPolicy#WAIT}, {@value #DEFAULT_BUFFER_MESSAGES} messages, 1 MiB, whichever fills first. */
    public static final StreamOptions DEFAULTS = builder().build();

    private final SlowConsumerPolicy policy;
    private final int bufferMessages;
    private final long bufferBytes;

    private StreamOptions(Builder b) {
        this.policy = b.policy;
        this.bufferMessages = b.bufferMessages;
        this.bufferBytes = b.bufferBytes;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** What happens when the buffer is full; default {@link SlowConsumerPolicy#WAIT}. */
    public SlowConsumerPolicy policy() {
        return policy;
    }

    /** Messages held for the receiver beyond its credit; default {@value #DEFAULT_BUFFER_MESSAGES}. */
    public int bufferMessages() {
        return bufferMessages;
    }

    /**
     * Bytes held for the receiver beyond its credit (a message larger than this alone is still held, alone);
     * default 1 MiB.
     */
    public long bufferBytes() {
        return bufferBytes;
    }

    @Override
    public String toString() {
        return "StreamOptions{policy=" + policy + ", bufferMessages=" + bufferMessages + ", bufferBytes="
                + bufferBytes + '}';
    }

    /** Builds {@link StreamOptions}. */
    public static final class Builder {
        private SlowConsumerPolicy policy = SlowConsumerPolicy.WAIT;
        private int bufferMessages = DEFAULT_BUFFER_MESSAGES;
        private long bufferBytes = DEFAULT_BUFFER_BYTES;

        private Builder() {
        }

        public Builder policy(SlowConsumerPolicy policy) {
            this.policy = Requires.notNull(policy, "policy");
            return this;
        }

        /** At least 1. */
        public Builder bufferMessages(int messages) {
            Requires.positive(messages, "bufferMessages");
            this.bufferMessages = messages;
            return this;
        }

        /** At least 1. */
        public Builder bufferBytes(long bytes) {
            Requires.positive(bytes, "bufferBytes");
            this.bufferBytes = bytes;
            return this;
        }

        public StreamOptions build() {
            return new StreamOptions(this);
        }
    }
}
