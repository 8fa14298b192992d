package io.jupiter.rpc.internal.stream;

import io.jupiter.rpc.stream.StreamOptions;
import java.util.concurrent.Executor;

/**
 * A publisher a provider's stream method returns that the stream feeds itself from, rather than by subscribing to it:
 * a sink-driven producer or a topic's subscription. Any other
 * {@link java.util.concurrent.Flow.Publisher} is subscribed to, with the receiver's credit as its demand.
 */
public interface StreamSource {

    /** The buffer and slow-consumer policy of the stream it feeds. */
    StreamOptions options();

    /** Starts feeding {@code stream}; a producer that runs long runs on {@code producers}, never on the caller. */
    void start(OutboundStream stream, Executor producers);
}
