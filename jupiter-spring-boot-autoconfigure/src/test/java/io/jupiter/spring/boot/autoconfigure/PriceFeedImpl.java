package io.jupiter.spring.boot.autoconfigure;

import io.jupiter.rpc.ServiceProviderImpl;
import io.jupiter.rpc.stream.Streams;
import java.util.concurrent.Flow;

/** Writes each price through a blocking sink. */
@ServiceProviderImpl(version = "1.0.0")
public class PriceFeedImpl implements PriceFeed {

    @Override
    public Flow.Publisher<String> prices(String symbol, int count) {
        return Streams.produce(sink -> {
            for (int i = 0; i < count; i++) {
                sink.send(symbol + " " + i);
            }
        });
    }
}
