package io.jupiter.example.benchmark;

import io.jupiter.rpc.ServiceProviderImpl;

/** Returns its argument, like the original benchmark provider. */
@ServiceProviderImpl(version = "1.0.0")
public final class BenchmarkServiceImpl implements BenchmarkService {

    @Override
    public String hello(String arg) {
        return arg;
    }
}
