package io.jupiter.rpc;

import java.util.concurrent.TimeUnit;

/** Lets tests in other packages use the package-private {@link GateService.Impl}. */
public final class GateServiceAccess {

    public static final ServiceKey KEY = ServiceKey.of(GateService.class, ServiceKey.DEFAULT_VERSION);

    private final GateService.Impl impl;
    public String address;

    public GateServiceAccess(int expectedEntries) {
        this.impl = new GateService.Impl(expectedEntries);
    }

    public void register(JupiterServer server) {
        server.register(impl, GateService.class, KEY);
    }

    public void awaitEntered() throws InterruptedException {
        if (!impl.entered.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError("the calls did not reach the provider within 10 s");
        }
    }

    public void open() {
        impl.gate.countDown();
    }

    public Gate proxy(JupiterClient client, InvokeType type) {
        GateService service = client.proxy(GateService.class).address(address).invokeType(type)
                .timeoutMillis(10_000).build();
        return service::pass;
    }

    /** The gate service's one method, visible outside the package. */
    public interface Gate {
        String pass(String id);
    }
}
