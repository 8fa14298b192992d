package io.jupiter.rpc.stream;

import io.jupiter.common.Requires;
import java.time.Duration;

/**
 * How long a reader waits on a stream ({@link Streams#withDeadlines}): for its first message, between two messages,
 * and for the whole stream, each counted from when the stream is subscribed to (the first two re-armed by every
 * message). A deadline that passes cancels the stream (the provider hears it) and ends the reader with a
 * {@link io.jupiter.rpc.exception.StreamException} of status {@code SERVER_TIMEOUT}. Unset deadlines do not apply.
 *
 * <pre>
 * StreamDeadlines deadlines = StreamDeadlines.builder().firstMessage(Duration.ofSeconds(2))
 *         .idle(Duration.ofSeconds(30)).build();
 * </pre>
 */
public final class StreamDeadlines {

    private final Duration firstMessage;
    private final Duration idle;
    private final Duration whole;

    private StreamDeadlines(Builder b) {
        this.firstMessage = b.firstMessage;
        this.idle = b.idle;
        this.whole = b.whole;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Until the first message arrives, or {@code null}: no limit. */
    public Duration firstMessage() {
        return firstMessage;
    }

    /** Between two messages (and before the first), or {@code null}: no limit. */
    public Duration idle() {
        return idle;
    }

    /** Until the stream ends, or {@code null}: no limit. */
    public Duration whole() {
        return whole;
    }

    @Override
    public String toString() {
        return "StreamDeadlines{firstMessage=" + firstMessage + ", idle=" + idle + ", whole=" + whole + '}';
    }

    /** Builds {@link StreamDeadlines}; every deadline must be positive. */
    public static final class Builder {
        private Duration firstMessage;
        private Duration idle;
        private Duration whole;

        private Builder() {
        }

        public Builder firstMessage(Duration deadline) {
            this.firstMessage = positive(deadline, "firstMessage");
            return this;
        }

        public Builder idle(Duration deadline) {
            this.idle = positive(deadline, "idle");
            return this;
        }

        public Builder whole(Duration deadline) {
            this.whole = positive(deadline, "whole");
            return this;
        }

        private static Duration positive(Duration deadline, String name) {
            Requires.notNull(deadline, name);
            Requires.argument(!deadline.isNegative() && !deadline.isZero(), name + ": " + deadline
                    + " (expected: > 0)");
            return deadline;
        }

        public StreamDeadlines build() {
            return new StreamDeadlines(this);
        }
    }
}
