package io.jupiter.rpc;

import io.jupiter.rpc.stream.SlowConsumerPolicy;
import io.jupiter.rpc.stream.StreamOptions;
import io.jupiter.rpc.stream.Topic;
import java.util.concurrent.Flow;

/** Subscribes every stream opened to one topic, which the test publishes to. */
public final class QuoteFeedServiceImpl implements QuoteFeedService {

    final Topic<String> quotes = new Topic<>();

    @Override
    public Flow.Publisher<String> quotes(String policy) {
        return quotes.subscriber(StreamOptions.builder().policy(SlowConsumerPolicy.valueOf(policy)).build());
    }
}
