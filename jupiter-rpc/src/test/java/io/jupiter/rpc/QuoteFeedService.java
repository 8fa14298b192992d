package io.jupiter.rpc;

import java.util.concurrent.Flow;

/** A service whose stream joins a topic, for the tests of topic subscribers a hostile peer opens. */
@ServiceProvider(group = "test", name = "quotefeed")
public interface QuoteFeedService {

    /** The quotes topic, subscribed under {@code policy} (a {@code SlowConsumerPolicy} name). */
    Flow.Publisher<String> quotes(String policy);
}
