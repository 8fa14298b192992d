/**
 * Streams (issue #28): a service method returning {@link java.util.concurrent.Flow.Publisher} is a server stream; one
 * taking a {@code Flow.Publisher} reads the consumer's stream and answers once (client streaming), or, returning a
 * {@code Flow.Publisher} too, has both directions at once (bidirectional), each flow-controlled on its own.
 * Providers write with a blocking {@link io.jupiter.rpc.stream.StreamSink}
 * ({@link io.jupiter.rpc.stream.Streams#produce}),
 * any publisher, or a {@link io.jupiter.rpc.stream.Topic}; consumers read with {@code Flow} or a blocking
 * {@link io.jupiter.rpc.stream.StreamIterator}. Flow control is by credit from the reader's demand; each stream has a
 * bounded buffer and a {@link io.jupiter.rpc.stream.SlowConsumerPolicy}. See docs/streams.md.
 */
package io.jupiter.rpc.stream;
