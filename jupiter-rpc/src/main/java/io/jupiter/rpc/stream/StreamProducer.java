package io.jupiter.rpc.stream;

/**
 * The body of a server stream, run on a thread of its own (virtual where the JDK has them) once the stream is open
 * and authorized. Returning normally completes the stream (unless it already ended); throwing ends it with the
 * error.
 *
 * @param <T> the message type
 */
@FunctionalInterface
public interface StreamProducer<T> {

    void produce(StreamSink<T> sink) throws Exception;
}
