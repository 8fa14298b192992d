package io.jupiter.rpc.stream;

/**
 * What a stream's sender does when its receiver reads too slowly: the receiver's credit is used up and the
 * stream's outbound buffer ({@link StreamOptions#bufferMessages()}, {@link StreamOptions#bufferBytes()}) is full.
 * Whatever the policy, the sender never holds more than that buffer for the stream.
 */
public enum SlowConsumerPolicy {
    /** The default: the producer waits ({@link StreamSink#send} blocks) until the receiver asks for more. */
    WAIT,
    /** The oldest buffered message is dropped to make room for the new one; the producer never waits. */
    DROP_OLDEST,
    /** The new message is dropped; the producer never waits. */
    DROP_NEWEST,
    /**
     * The stream ends with {@link io.jupiter.transport.Status#SLOW_CONSUMER}: the receiver hears it once it has read
     * the messages already on their way; the producer's next {@code send} throws.
     */
    FAIL
}
