package io.jupiter.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.testkit.Await;
import io.jupiter.testkit.suites.transport.EchoPeer;
import io.jupiter.transport.Acceptor;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.TransportConfig;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What one peer can hold of an acceptor: connections (in total and per address), a partial frame (its body has a
 * deadline), and frames it has no business sending. Raw sockets on 127.0.0.1 against a real acceptor.
 */
class AcceptorLimitsTest {

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    @Test
    void aSlowBodyIsClosedAtItsDeadline() throws Exception {
        Acceptor acceptor = acceptor(config().bodyTimeoutMillis(300).readerIdleMillis(60_000));
        try (Socket socket = socket(acceptor)) {
            OutputStream out = socket.getOutputStream();
            out.write(header(ProtocolHeader.REQUEST, 1, 100));
            out.write(new byte[10]);
            out.flush();
            long start = System.nanoTime();
            // A byte now and then would keep the reader idle timer from firing; the body deadline does not move.
            // Closed shows as end of stream, or as a reset once a byte was written after the close.
            socket.setSoTimeout(100);
            boolean closed = false;
            while (!closed && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10)) {
                try {
                    closed = socket.getInputStream().read() == -1;
                } catch (SocketTimeoutException stillOpen) {
                    try {
                        out.write(0);
                        out.flush();
                    } catch (SocketException closedMeanwhile) {
                        closed = true;
                    }
                } catch (SocketException reset) {
                    closed = true;
                }
            }
            assertThat(closed).isTrue();
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(elapsedMillis).isBetween(200L, 5_000L);
        }
    }

    @Test
    void aBodyInPartsWithinItsDeadlineIsServed() throws Exception {
        Acceptor acceptor = acceptor(config().bodyTimeoutMillis(2_000));
        try (Socket socket = socket(acceptor)) {
            OutputStream out = socket.getOutputStream();
            out.write(header(ProtocolHeader.REQUEST, 7, 4));
            out.write("ab".getBytes(StandardCharsets.UTF_8));
            out.flush();
            // Half a body gets no answer: the decoder waits for the rest.
            socket.setSoTimeout(100);
            assertThatThrownBy(() -> socket.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            socket.setSoTimeout(5_000);
            out.write("cd".getBytes(StandardCharsets.UTF_8));
            out.flush();
            assertThat(readResponseBody(socket, 7)).isEqualTo("abcd");
        }
    }

    @Test
    void aResponseFrameIsRefusedWhereOnlyRequestsAreAccepted() throws Exception {
        Acceptor acceptor = acceptor(config().acceptedMessageCodes(ProtocolHeader.PROVIDER_MESSAGE_CODES));
        try (Socket socket = socket(acceptor)) {
            socket.getOutputStream().write(header(ProtocolHeader.RESPONSE, 1, 0));
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
        }
        try (Socket socket = socket(acceptor)) {
            socket.getOutputStream().write(request(2, "ok"));
            assertThat(readResponseBody(socket, 2)).isEqualTo("ok");
        }
    }

    @Test
    void connectionsBeyondThePerAddressLimitAreClosedAndTheirSlotsComeBack() throws Exception {
        assertLimitHolds(config().maxConnections(100, 2));
    }

    @Test
    void connectionsBeyondTheTotalLimitAreClosedAndTheirSlotsComeBack() throws Exception {
        assertLimitHolds(config().maxConnections(2, 100));
    }

    private void assertLimitHolds(TransportConfig.Builder config) throws Exception {
        Acceptor acceptor = acceptor(config);
        Socket first = socket(acceptor);
        Socket second = socket(acceptor);
        Await.until("both admitted connections are open", Duration.ofSeconds(10),
                () -> acceptor.connectionCount() == 2);
        try (Socket third = socket(acceptor)) {
            assertThat(third.getInputStream().read()).isEqualTo(-1);
        }
        first.getOutputStream().write(request(1, "one"));
        second.getOutputStream().write(request(2, "two"));
        assertThat(readResponseBody(first, 1)).isEqualTo("one");
        assertThat(readResponseBody(second, 2)).isEqualTo("two");

        first.close();
        Await.until("the closed connection's slot is free", Duration.ofSeconds(10),
                () -> acceptor.connectionCount() == 1);
        try (Socket again = socket(acceptor)) {
            again.getOutputStream().write(request(3, "three"));
            assertThat(readResponseBody(again, 3)).isEqualTo("three");
        }
    }

    private TransportConfig.Builder config() {
        return TransportConfig.builder().ioThreads(1).threadNamePrefix("limits");
    }

    private Acceptor acceptor(TransportConfig.Builder config) {
        NettyAcceptor acceptor = new NettyAcceptor(config.build(), new InetSocketAddress("127.0.0.1", 0),
                new EchoPeer());
        toClose.add(acceptor);
        acceptor.start();
        return acceptor;
    }

    private Socket socket(Acceptor acceptor) throws IOException {
        Socket socket = new Socket();
        toClose.add(socket);
        socket.connect(acceptor.localAddress(), 5_000);
        socket.setSoTimeout(5_000);
        return socket;
    }

    private static byte[] header(byte messageCode, long id, int bodySize) {
        return ByteBuffer.allocate(ProtocolHeader.HEADER_SIZE).putShort(ProtocolHeader.MAGIC)
                .put(ProtocolHeader.toSign(EchoPeer.SERIALIZER, messageCode)).put((byte) 0).putLong(id)
                .putInt(bodySize).array();
    }

    private static byte[] request(long id, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(ProtocolHeader.HEADER_SIZE + bytes.length)
                .put(header(ProtocolHeader.REQUEST, id, bytes.length)).put(bytes).array();
    }

    /** Reads one response frame; checks its id and returns its body. */
    private static String readResponseBody(Socket socket, long id) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        assertThat(in.readShort()).isEqualTo(ProtocolHeader.MAGIC);
        assertThat(ProtocolHeader.messageCode(in.readByte())).isEqualTo(ProtocolHeader.RESPONSE);
        in.readByte();
        assertThat(in.readLong()).isEqualTo(id);
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        return new String(body, StandardCharsets.UTF_8);
    }
}
