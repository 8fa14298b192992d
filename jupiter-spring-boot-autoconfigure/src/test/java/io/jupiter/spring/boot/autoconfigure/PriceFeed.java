package io.jupiter.spring.boot.autoconfigure;

import io.jupiter.rpc.ServiceProvider;
import java.util.concurrent.Flow;

/** A service with a server stream, for the starter's stream test. */
@ServiceProvider(group = "test", name = "prices")
public interface PriceFeed {

    /** {@code count} prices of {@code symbol}: "SYMBOL 0", "SYMBOL 1", ..., then completes. */
    Flow.Publisher<String> prices(String symbol, int count);
}
