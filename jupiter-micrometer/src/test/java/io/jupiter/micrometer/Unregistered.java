package io.jupiter.micrometer;

import io.jupiter.rpc.ServiceProvider;

/** A service no server of these tests provides: calling it is refused (SERVICE_NOT_FOUND). */
@ServiceProvider(group = "test", name = "unregistered")
public interface Unregistered {
    String anything(String value);
}
