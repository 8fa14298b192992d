package io.jupiter.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jupiter.transport.IoTransport;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.netty.internal.Transports;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.epoll.Epoll;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Which transport {@code transport} and {@code nativeTransport} pick, and the error of a native transport asked for
 * where it does not load. Unavailability is real, not simulated in process: a child JVM with Netty's own switch
 * {@code -Dio.netty.transport.noNative=true}, under which neither epoll nor io_uring loads.
 */
class TransportChoiceTest {

    private static final long CHILD_TIMEOUT_SECONDS = 60;

    @Test
    void defaultsAreAutoAndThePooledAllocator() {
        TransportConfig config = TransportConfig.defaults();
        assertThat(config.transport()).isEqualTo(IoTransport.AUTO);
        assertThat(Transports.of(config).allocator()).isSameAs(PooledByteBufAllocator.DEFAULT);
    }

    @Test
    void autoIsEpollWhereItLoadsAndNioWithNativeTransportOff() {
        assertThat(Transports.of(TransportConfig.builder().nativeTransport(false).build()).kind())
                .isEqualTo(Transports.Kind.NIO);
        assertThat(Transports.of(TransportConfig.defaults()).kind())
                .isEqualTo(Epoll.isAvailable() ? Transports.Kind.EPOLL : Transports.Kind.NIO);
    }

    @Test
    void anExplicitTransportWinsOverNativeTransport() {
        TransportConfig.Builder off = TransportConfig.builder().nativeTransport(false);
        assertThat(Transports.of(off.transport(IoTransport.NIO).build()).kind()).isEqualTo(Transports.Kind.NIO);
        assumeTrue(Epoll.isAvailable(), () -> "native epoll is unavailable: " + Epoll.unavailabilityCause());
        assertThat(Transports.of(off.transport(IoTransport.EPOLL).build()).kind()).isEqualTo(Transports.Kind.EPOLL);
    }

    @Test
    void theSettingNamesEveryTransport() {
        assertThat(List.of(IoTransport.values())).extracting(IoTransport::settingName)
                .containsExactly("auto", "nio", "epoll", "io_uring");
        assertThat(IoTransport.fromSetting("io_uring")).isEqualTo(IoTransport.IO_URING);
    }

    @Test
    void aNativeTransportAskedForWhereItDoesNotLoadFailsNamingTheCause() throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dio.netty.transport.noNative=true", "-cp", System.getProperty("java.class.path"),
                UnavailableTransportMain.class.getName())
                .redirectErrorStream(true)
                .start();
        String output;
        try {
            assertThat(child.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("child JVM ended in time").isTrue();
            output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            child.destroyForcibly();
        }
        assertThat(child.exitValue()).as(output).isZero();
        assertThat(output)
                .contains("io_uring: transport io_uring was asked for")
                .contains("epoll: transport epoll was asked for")
                .contains("noNative")
                .contains("auto: NIO")
                .contains("started: false");
    }

    @Test
    void theSettingIsCheckedWhenRead() {
        assertThatThrownBy(() -> IoTransport.fromSetting("uring")).isInstanceOf(IllegalArgumentException.class);
    }
}
