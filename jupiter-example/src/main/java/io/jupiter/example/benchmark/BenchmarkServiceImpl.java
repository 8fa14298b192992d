package io.jupiter.example.benchmark;

import io.jupiter.rpc.NonBlocking;
import io.jupiter.rpc.ServiceProviderImpl;

/** Returns its argument, like the original benchmark provider. */
@ServiceProviderImpl(version = "1.0.0")
public class BenchmarkServiceImpl implements BenchmarkService {

    @Override
    public String hello(String arg) {
        return arg;
    }

    /** The same service, declared to never block: the provider runs it on its IO threads. */
    @NonBlocking
    @ServiceProviderImpl(version = "1.0.0")
    public static final class NonBlockingBenchmarkService extends BenchmarkServiceImpl {
    }
}
