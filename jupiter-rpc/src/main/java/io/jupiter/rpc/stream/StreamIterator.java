package io.jupiter.rpc.stream;

import java.util.Iterator;
import java.util.stream.Stream;

/**
 * A blocking view of a stream ({@link Streams#iterate}): {@link #hasNext()} waits for the next message, which suits
 * a virtual thread. It asks the sender for messages a few at a time as they are read, so it never holds more than
 * its prefetch. Close it to cancel a stream not read to its end.
 *
 * <p>A stream that ends with an error makes {@code hasNext()} throw that
 * {@link io.jupiter.rpc.exception.StreamException} once the messages before it were read.
 *
 * @param <T> the message type
 */
public interface StreamIterator<T> extends Iterator<T>, AutoCloseable {

    /** The remaining messages as a sequential {@link Stream}; closing it closes this iterator. */
    Stream<T> stream();

    /** Cancels the stream if it has not ended; idempotent. */
    @Override
    void close();
}
