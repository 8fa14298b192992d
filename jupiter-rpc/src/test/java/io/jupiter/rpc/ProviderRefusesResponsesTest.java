package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.transport.ProtocolHeader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** A provider only reads requests: a peer that sends it a response frame is closed, and nobody else notices. */
class ProviderRefusesResponsesTest {

    @Test
    void aResponseFrameClosesOnlyItsConnection() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(new EchoServiceImpl());
            InetSocketAddress address = server.start();
            EchoService echo = client.proxy(EchoService.class).address("127.0.0.1", address.getPort()).build();
            assertThat(echo.hello("before")).isEqualTo("hello, before");

            try (Socket socket = new Socket()) {
                socket.connect(address, 5_000);
                socket.setSoTimeout(5_000);
                // A well-formed header of a response (sign: protostuff, RESPONSE; status OK) with an empty body.
                socket.getOutputStream().write(ByteBuffer.allocate(ProtocolHeader.HEADER_SIZE)
                        .putShort(ProtocolHeader.MAGIC).put(ProtocolHeader.toSign(1, ProtocolHeader.RESPONSE))
                        .put((byte) 0x20).putLong(1).putInt(0).array());
                assertThat(socket.getInputStream().read()).isEqualTo(-1);
            }

            assertThat(echo.hello("after")).isEqualTo("hello, after");
        }
    }
}
