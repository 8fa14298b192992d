package io.jupiter.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.testkit.Await;
import io.jupiter.testkit.suites.transport.EchoPeer;
import io.jupiter.testkit.suites.transport.TransportSuite;
import io.jupiter.transport.Acceptor;
import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.Connector;
import io.jupiter.transport.InProcessAddress;
import io.jupiter.transport.TlsConfig;
import io.jupiter.transport.TransportException;
import io.jupiter.transport.TransportFactory;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The shared transport suite in process (Netty's local channel), plus what is particular to it. */
class InProcessTransportTest extends TransportSuite {

    private static final AtomicInteger names = new AtomicInteger();

    @Override
    protected SocketAddress newBindAddress() {
        return InProcessAddress.of("transport-test-" + names.incrementAndGet());
    }

    /** The acceptor's IO threads are the shared in-process ones, not named after the test. */
    @Override
    protected List<String> ioThreadNames() {
        return threadsNamed("jupiter-inprocess");
    }

    @Test
    void aNameServedTwiceFailsWithAClearError() throws Exception {
        Acceptor first = acceptor(config().build(), new EchoPeer());
        Acceptor second = TransportFactory.load().newAcceptor(config().build(), first.localAddress(), new EchoPeer());
        closeAfter(second);
        assertThatThrownBy(second::start).isInstanceOf(TransportException.class)
                .hasMessageContaining("cannot bind " + first.localAddress());
    }

    @Test
    void worksWithTheNioTransportToo() throws Exception {
        EchoPeer client = new EchoPeer();
        Acceptor acceptor = acceptor(config().nativeTransport(false).build(), new EchoPeer());
        ConnectionGroup group = connector(config().nativeTransport(false).build(), client)
                .connect(acceptor.localAddress(), 1);
        assertThat(group.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();
        var answered = client.expect(1);
        var connection = group.next();
        connection.write(EchoPeer.request(connection.alloc(), 3, "over NIO event loops"));
        assertThat(answered.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void connectingToANameNobodyServesRetriesQuietly() throws Exception {
        ConnectionGroup group = connector(config().build(), new EchoPeer()).connect(newBindAddress(), 1);
        assertThat(group.awaitAvailable(200, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(group.everAvailable()).isFalse();
    }

    @Test
    void theSharedEventLoopsStopWithTheirLastUser() throws Exception {
        Acceptor acceptor = TransportFactory.load().newAcceptor(config().build(), newBindAddress(), new EchoPeer());
        acceptor.start();
        Connector connector = TransportFactory.load().newConnector(config().build(), new EchoPeer());
        ConnectionGroup group = connector.connect(acceptor.localAddress(), 1);
        assertThat(group.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();
        assertThat(threadsNamed("jupiter-inprocess")).isNotEmpty();

        acceptor.close();
        assertThat(threadsNamed("jupiter-inprocess")).as("the connector still uses them").isNotEmpty();
        connector.close();
        Await.until("no in-process IO thread is alive (" + threadsNamed("jupiter-inprocess") + ")", TIMEOUT,
                () -> threadsNamed("jupiter-inprocess").isEmpty());
    }

    @Test
    void tlsIsRefusedWithAClearError() {
        TlsConfig tls = TlsConfig.builder().build();
        assertThatThrownBy(() -> TransportFactory.load().newAcceptor(config().tls(tls).build(), newBindAddress(),
                new EchoPeer())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("TLS is for TCP");
    }
}
