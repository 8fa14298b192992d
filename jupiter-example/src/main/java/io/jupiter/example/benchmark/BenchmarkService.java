package io.jupiter.example.benchmark;

import io.jupiter.rpc.ServiceProvider;

/** The original Jupiter benchmark service: group "test", name "service", version 1.0.0. */
@ServiceProvider(group = "test", name = "service")
public interface BenchmarkService {

    String hello(String arg);
}
