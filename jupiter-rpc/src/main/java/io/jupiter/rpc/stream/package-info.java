/**
 * Streams (issue #28): a service method returning {@link java.util.concurrent.Flow.Publisher} is a server stream.
 * Providers write with a blocking {@link io.jupiter.rpc.stream.StreamSink}
 * ({@link io.jupiter.rpc.stream.Streams#produce}),
 * any publisher, or a {@link io.jupiter.rpc.stream.Topic}; consumers read with {@code Flow} or a blocking
 * {@link io.jupiter.rpc.stream.StreamIterator}. Flow control is by credit from the reader's demand; each stream has a
 * bounded buffer and a {@link io.jupiter.rpc.stream.SlowConsumerPolicy}. See docs/streams.md.
 */
package io.jupiter.rpc.stream;
