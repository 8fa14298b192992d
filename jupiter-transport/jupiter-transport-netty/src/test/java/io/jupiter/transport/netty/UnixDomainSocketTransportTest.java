package io.jupiter.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jupiter.testkit.suites.transport.EchoPeer;
import io.jupiter.testkit.suites.transport.TransportSuite;
import io.jupiter.transport.Acceptor;
import io.jupiter.transport.Connector;
import io.jupiter.transport.TransportException;
import io.jupiter.transport.TransportFactory;
import io.netty.channel.epoll.Epoll;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared transport suite over Unix domain sockets (native epoll), plus the socket file's handling. */
class UnixDomainSocketTransportTest extends TransportSuite {

    private static final AtomicInteger files = new AtomicInteger();

    @TempDir
    static Path dir;

    @BeforeAll
    static void needsEpoll() {
        assumeTrue(Epoll.isAvailable(), () -> "native epoll is unavailable, Unix domain socket tests skipped: "
                + Epoll.unavailabilityCause());
    }

    @Override
    protected SocketAddress newBindAddress() {
        return UnixDomainSocketAddress.of(dir.resolve("t" + files.incrementAndGet() + ".sock"));
    }

    private static Path path(Acceptor acceptor) {
        return ((UnixDomainSocketAddress) acceptor.localAddress()).getPath();
    }

    @Test
    void socketFileIsOwnerOnlyAndDeletedOnClose() throws Exception {
        Acceptor acceptor = acceptor(config().build(), new EchoPeer());
        Path file = path(acceptor);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        acceptor.close();
        assertThat(file).doesNotExist();
    }

    @Test
    void staleSocketFileIsReplaced() throws Exception {
        UnixDomainSocketAddress address = (UnixDomainSocketAddress) newBindAddress();
        // A server that went away without deleting its file: the JDK leaves the file behind on close.
        try (ServerSocketChannel crashed = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            crashed.bind(address);
        }
        assertThat(address.getPath()).exists();

        Acceptor acceptor = TransportFactory.load().newAcceptor(config().build(), address, new EchoPeer());
        closeAfter(acceptor);
        assertThat(acceptor.start()).isEqualTo(address);
    }

    @Test
    void aFileThatIsNotASocketIsLeftAlone() throws Exception {
        UnixDomainSocketAddress address = (UnixDomainSocketAddress) newBindAddress();
        Files.writeString(address.getPath(), "precious");

        Acceptor acceptor = TransportFactory.load().newAcceptor(config().build(), address, new EchoPeer());
        closeAfter(acceptor);
        assertThatThrownBy(acceptor::start).isInstanceOf(TransportException.class)
                .hasMessageContaining("unix:" + address.getPath()).hasMessageContaining("not a socket");
        assertThat(address.getPath()).hasContent("precious");
    }

    @Test
    void aSocketInUseIsNotTaken() throws Exception {
        Acceptor first = acceptor(config().build(), new EchoPeer());
        Acceptor second = TransportFactory.load().newAcceptor(config().build(), first.localAddress(), new EchoPeer());
        closeAfter(second);
        assertThatThrownBy(second::start).isInstanceOf(TransportException.class)
                .hasMessageContaining("another process accepts connections on it");
        assertThat(path(first)).exists();
    }

    @Test
    void withoutEpollTheErrorNamesTheCause() throws Exception {
        Acceptor acceptor = TransportFactory.load().newAcceptor(config().nativeTransport(false).build(),
                newBindAddress(), new EchoPeer());
        closeAfter(acceptor);
        assertThatThrownBy(acceptor::start).isInstanceOf(TransportException.class)
                .hasMessageContaining("Unix domain sockets need native epoll")
                .hasMessageContaining("the native transport is turned off");

        Connector connector = connector(config().nativeTransport(false).build(), new EchoPeer());
        assertThatThrownBy(() -> connector.connect(newBindAddress(), 1)).isInstanceOf(TransportException.class)
                .hasMessageContaining("Unix domain sockets need native epoll");
    }
}
