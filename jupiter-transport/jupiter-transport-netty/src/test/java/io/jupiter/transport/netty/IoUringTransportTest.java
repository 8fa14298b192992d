package io.jupiter.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jupiter.testkit.suites.transport.EchoPeer;
import io.jupiter.testkit.suites.transport.TransportSuite;
import io.jupiter.transport.Acceptor;
import io.jupiter.transport.BufferAllocator;
import io.jupiter.transport.Connection;
import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.IoTransport;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.netty.internal.NettyConnection;
import io.jupiter.transport.netty.internal.Transports;
import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.channel.uring.IoUringSocketChannel;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shared transport suite over TCP on 127.0.0.1 with {@code transport(IO_URING)} on both sides, plus checks that
 * the channels really are io_uring's. Skipped, with Netty's reason, where the kernel does not allow io_uring.
 */
class IoUringTransportTest extends TransportSuite {

    @BeforeAll
    static void needsIoUring() {
        Throwable cause = Transports.ioUringUnavailabilityCause();
        assumeTrue(cause == null, () -> "io_uring is unavailable here, io_uring transport tests skipped: " + cause);
    }

    @Override
    protected SocketAddress newBindAddress() {
        return new InetSocketAddress("127.0.0.1", 0);
    }

    @Override
    protected TransportConfig.Builder config() {
        return super.config().transport(IoTransport.IO_URING);
    }

    @Test
    void bothEndsAreIoUringChannels() throws Exception {
        EchoPeer server = new EchoPeer();
        EchoPeer client = new EchoPeer();
        Acceptor acceptor = acceptor(config().build(), server);
        ConnectionGroup group = connector(config().build(), client).connect(acceptor.localAddress(), 1);
        assertThat(group.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();
        Connection connection = group.next();
        Connection accepted = server.connected.poll(10, TimeUnit.SECONDS);
        assertThat(accepted).isNotNull();

        assertThat(((NettyConnection) connection).channel()).isInstanceOf(IoUringSocketChannel.class);
        assertThat(((NettyConnection) accepted).channel()).isInstanceOf(IoUringSocketChannel.class);
        CountDownLatch answered = client.expect(1);
        connection.write(EchoPeer.request(connection.alloc(), 7, "over io_uring"));
        assertThat(answered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(client.responses).containsEntry(7L, "over io_uring");
    }

    @Test
    void theAdaptiveAllocatorIsUsedWhenAskedFor() throws Exception {
        TransportConfig config = config().allocator(BufferAllocator.ADAPTIVE).build();
        EchoPeer server = new EchoPeer();
        EchoPeer client = new EchoPeer();
        Acceptor acceptor = acceptor(config, server);
        ConnectionGroup group = connector(config, client).connect(acceptor.localAddress(), 1);
        assertThat(group.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();
        Connection connection = group.next();
        assertThat(connection.alloc()).isInstanceOf(AdaptiveByteBufAllocator.class);

        CountDownLatch answered = client.expect(20);
        for (int i = 1; i <= 20; i++) {
            connection.write(EchoPeer.request(connection.alloc(), i, "x".repeat(i * 1000)));
        }
        assertThat(answered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(client.responses).hasSize(20).containsEntry(20L, "x".repeat(20_000));
        Connection accepted = server.connected.poll(10, TimeUnit.SECONDS);
        assertThat(accepted).isNotNull();
        assertThat(accepted.alloc()).isInstanceOf(AdaptiveByteBufAllocator.class);
    }
}
