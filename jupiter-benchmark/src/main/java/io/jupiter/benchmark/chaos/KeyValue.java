package io.jupiter.benchmark.chaos;

import io.jupiter.rpc.ServiceProvider;

/** The service the chaos scenario calls: one idempotent read. */
@ServiceProvider(group = "chaos", name = "kv")
public interface KeyValue {

    /** The value of {@code key}; answered at once. */
    String get(String key);
}
