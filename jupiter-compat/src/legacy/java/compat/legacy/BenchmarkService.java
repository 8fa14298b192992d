package compat.legacy;

import org.jupiter.rpc.ServiceProvider;

/** The original benchmark service, with 1.3.1's annotation: group "test", name "service", version 1.0.0. */
@ServiceProvider(group = "test", name = "service")
public interface BenchmarkService {

    String hello(String arg);
}
