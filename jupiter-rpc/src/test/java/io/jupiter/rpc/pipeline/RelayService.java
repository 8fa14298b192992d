package io.jupiter.rpc.pipeline;

import io.jupiter.rpc.ServiceProvider;

/** Runs a test's scenario inside a provider method, so the calls it makes are calls made while serving a request. */
@ServiceProvider(group = "test", name = "relay")
public interface RelayService {

    /** Runs the scenario set on the provider; "ok", or "failed" with the failure kept on the provider. */
    String run();

    @FunctionalInterface
    interface Scenario {
        void run() throws Throwable;
    }

    final class Impl implements RelayService {
        volatile Scenario scenario;
        volatile Throwable failure;

        @Override
        public String run() {
            try {
                scenario.run();
                return "ok";
            } catch (Throwable t) {
                failure = t;
                return "failed";
            }
        }
    }
}
