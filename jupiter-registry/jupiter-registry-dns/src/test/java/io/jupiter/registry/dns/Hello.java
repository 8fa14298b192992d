package io.jupiter.registry.dns;

import io.jupiter.rpc.ServiceProvider;

/** The service of the end-to-end test. */
@ServiceProvider(group = "dns", name = "hello")
public interface Hello {

    /** The address the provider listens on. */
    String where();
}
