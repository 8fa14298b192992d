package io.jupiter.benchmark.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class CompareFlagsTest {

    private static final String[] CLASS_PATHS = {"--jupiter-classpath", "ours.jar", "--legacy-classpath", "legacy.jar"};

    @Test
    void transportGoesToEveryTargetOnOurTransportOnly() {
        List<TargetSpec> targets = Compare.fromFlags(flags("--targets", "raw,jupiter,jupiter-direct,legacy",
                "--transport", "io_uring")).targets();

        assertThat(targets).extracting(TargetSpec::name).containsExactly("raw", "jupiter", "jupiter-direct", "legacy");
        for (TargetSpec ours : targets.subList(0, 3)) {
            assertThat(ours.jvmOptions()).as(ours.name()).containsOnlyOnce("-Djupiter.io.transport=io_uring");
        }
        assertThat(targets.get(3).jvmOptions()).noneMatch(option -> option.startsWith("-Djupiter.io.transport"));
    }

    @Test
    void withoutTheFlagNoTargetIsToldATransport() {
        List<TargetSpec> targets = Compare.fromFlags(flags("--targets", "raw,jupiter")).targets();

        assertThat(targets).allSatisfy(target ->
                assertThat(target.jvmOptions()).noneMatch(option -> option.startsWith("-Djupiter.io.transport")));
    }

    @Test
    void anUnknownTransportIsRefused() {
        assertThatThrownBy(() -> Compare.fromFlags(flags("--targets", "raw", "--transport", "uring")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("transport");
    }

    @Test
    void grpcOnJupiterIsGrpcDirectsClientAgainstOurProviderOnItsOwnClassPath() {
        List<TargetSpec> targets = Compare.fromFlags(flags("--targets", "grpc-direct,grpc-on-jupiter",
                "--grpc-classpath", "grpc.jar", "--grpc-on-jupiter-classpath", "benchmark.jar")).targets();

        TargetSpec grpcDirect = targets.get(0);
        TargetSpec onJupiter = targets.get(1);
        assertThat(onJupiter.classPath()).isEqualTo("benchmark.jar");
        assertThat(onJupiter.adapter()).isEqualTo("io.jupiter.benchmark.interop.GrpcOnJupiterTarget");
        // Both sides as grpc-direct's: the client's directExecutor(), the provider's methods on its IO threads.
        assertThat(onJupiter.direct()).isEqualTo(grpcDirect.direct()).isTrue();
        assertThat(onJupiter.reference()).isFalse();
        assertThatThrownBy(() -> Compare.fromFlags(flags("--targets", "grpc-on-jupiter")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--grpc-on-jupiter-classpath");
    }

    private static String[] flags(String... more) {
        String[] all = new String[CLASS_PATHS.length + more.length];
        System.arraycopy(CLASS_PATHS, 0, all, 0, CLASS_PATHS.length);
        System.arraycopy(more, 0, all, CLASS_PATHS.length, more.length);
        return all;
    }
}
