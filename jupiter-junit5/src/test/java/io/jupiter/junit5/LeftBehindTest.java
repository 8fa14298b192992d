package io.jupiter.junit5;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.JupiterClient;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;

/** What the extension finds when a test leaves something behind (its start and stop called directly). */
class LeftBehindTest {

    @Test
    void aCleanTestPasses() {
        JupiterServerExtension extension = JupiterServerExtension.builder().service(new Greeter.Impl()).build();
        extension.start();
        assertThat(extension.proxy(Greeter.class).build().greet("x")).isEqualTo("hello, x");
        extension.stop();
    }

    @Test
    void aClientLeftOpenFailsTheTest() {
        JupiterServerExtension extension = JupiterServerExtension.builder().service(new Greeter.Impl()).build();
        extension.start();
        JupiterClient forgotten = JupiterClient.builder().appName("forgotten").build();
        try {
            forgotten.proxy(Greeter.class).address(extension.address()).build().greet("x");
            assertThatThrownBy(extension::stop).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("1 connection(s) to the server still open")
                    .hasMessageContaining("threads still alive").hasMessageContaining("jupiter-inprocess-");
        } finally {
            forgotten.close();
        }
    }

    @Test
    void aLeakedBufferFailsTheTest() {
        JupiterServerExtension extension = JupiterServerExtension.builder().service(new Greeter.Impl()).build();
        extension.start();
        System.err.println("LeftBehindTest leaks one buffer on purpose: the LEAK report that follows is expected");
        leakOne();
        assertThatThrownBy(extension::stop).isInstanceOf(AssertionError.class)
                .hasMessageContaining("1 leaked buffer(s)").hasMessageContaining("LEAK:");
    }

    @Test
    void usingItOutsideATestSaysSo() {
        JupiterServerExtension extension = JupiterServerExtension.builder().build();
        assertThatThrownBy(extension::client).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not running");
    }

    private static void leakOne() {
        ByteBuf leaked = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        leaked.writeLong(42);
    }
}
