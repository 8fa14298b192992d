package io.jupiter.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.junit5.JupiterServerExtension;
import io.jupiter.rpc.ServiceProvider;
import io.jupiter.rpc.ServiceProviderImpl;
import io.jupiter.serialization.SerializerType;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A 1.3.1 benchmark consumer (the original's {@code BenchmarkClient} style: many threads, sync or 80 async calls in
 * flight each) runs unchanged against our provider of the benchmark service {@code test/service/1.0.0}, for a couple
 * of seconds per mode, with no failed call.
 */
class LegacyBenchmarkClientTest {

    /** The benchmark service as our {@code benchmark-server} serves it. */
    @ServiceProvider(group = "test", name = "service")
    public interface BenchmarkService {
        String hello(String arg);
    }

    @ServiceProviderImpl(version = "1.0.0")
    public static final class BenchmarkServiceImpl implements BenchmarkService {
        @Override
        public String hello(String arg) {
            return arg;
        }
    }

    @RegisterExtension
    static final JupiterServerExtension server = JupiterServerExtension.builder()
            .service(new BenchmarkServiceImpl())
            .tcp()
            .server(b -> b.serializers(SerializerType.values()))
            .build();

    @ParameterizedTest
    @CsvSource({"sync, protostuff, small", "future, protostuff, small", "sync, hessian, 1k", "future, java, small"})
    void originalBenchmarkClientRunsAgainstOurProvider(String mode, String serializer, String payload)
            throws Exception {
        try (LegacyJvm client = LegacyJvm.start("LegacyBenchmarkClient",
                "--port", String.valueOf(server.server().localAddress().getPort()), "--mode",
                mode, "--threads", "4", "--warmup", "1", "--seconds", "2", "--serializer", serializer, "--payload",
                payload, "--connections", "2")) {
            String report = client.awaitLine("Request count: ", 90);
            assertThat(report).matches("Request count: [1-9][0-9]*, time: 2 second, qps: [1-9][0-9]*");
            assertThat(client.awaitExit(60)).as("exit status (1 = some call failed)").isZero();
        }
    }
}
