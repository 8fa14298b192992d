package io.jupiter.spring.boot.autoconfigure;

import io.jupiter.rpc.ServiceProvider;

/** Answers the name of the provider that ran the call. */
@ServiceProvider(group = "test", name = "who")
public interface Who {
    String who();
}
