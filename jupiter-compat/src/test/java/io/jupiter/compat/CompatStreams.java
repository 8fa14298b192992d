package io.jupiter.compat;

import io.jupiter.rpc.ServiceProvider;
import java.util.concurrent.Flow;

/**
 * A service with a stream method. Registered beside {@link CompatService}, it makes our provider announce streams on
 * every connection (a heartbeat frame with status 0x01, docs/protocol.md), 1.3.1 consumers' connections included.
 */
@ServiceProvider(group = "compat", name = "streams")
public interface CompatStreams {

    /** 0, 1, ..., n - 1. */
    Flow.Publisher<Long> count(int n);
}
