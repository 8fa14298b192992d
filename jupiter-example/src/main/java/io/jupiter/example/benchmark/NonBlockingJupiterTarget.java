package io.jupiter.example.benchmark;

/**
 * This framework with its defaults, serving the benchmark's services declared {@link io.jupiter.rpc.NonBlocking}:
 * the provider runs their methods on its IO threads and keeps its pool for methods that may block. This is what the
 * docs recommend for services that never block.
 */
public final class NonBlockingJupiterTarget extends JupiterTarget {

    public NonBlockingJupiterTarget() {
        super(true);
    }
}
