package io.jupiter.registry.kubernetes;

import io.jupiter.rpc.ServiceProvider;

/** The service of the end-to-end tests: its key is shop/greeter/1.0.0. */
@ServiceProvider(group = "shop", name = "greeter")
public interface Greeter {

    /** Answers {@code provider-name:who}. */
    String greet(String who);
}
