package io.jupiter.rpc.discovery;

import io.jupiter.rpc.ServiceProvider;

@ServiceProvider(group = "test", name = "who")
public interface WhoService {

    /** The name of the provider that answered. */
    String who();

    /** Sleeps, then answers the provider's name. */
    String slow(long millis) throws InterruptedException;

    /** Throws a business exception. */
    String fail();

    int count();
}
