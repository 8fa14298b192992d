package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterServer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #28, the stream frames byte by byte from a raw socket: the announcement a provider with stream methods
 * writes first, then open, credit, message and end as docs/streams.md draws them, and a cancel that ends the stream.
 */
@Timeout(30)
class StreamWireTest {

    private static JupiterServer server;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        server.register(new TickServiceImpl());
        server.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", server.localAddress().getPort());
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static byte[] header(int sign, int status, long id, int bodySize) {
        return ByteBuffer.allocate(16).putShort(ProtocolHeader.MAGIC).put((byte) sign).put((byte) status)
                .putLong(id).putInt(bodySize).array();
    }

    private static byte[] openBody(String method, Object... args) {
        MessageWrapper message = new MessageWrapper("raw", new ServiceMetadata("test", "ticks", "1.0.0"), method,
                args, null);
        ByteBuf body = Unpooled.buffer();
        try {
            Serializers.get(SerializerType.PROTOSTUFF).write(body, message);
            return ByteBufUtil.getBytes(body);
        } finally {
            body.release();
        }
    }

    /** One frame: its 16 header bytes and its body. */
    private record Read(byte[] header, byte[] body) {
        int code() {
            return header[2] & 0x0f;
        }

        int status() {
            return header[3] & 0xff;
        }

        long id() {
            return ByteBuffer.wrap(header, 4, 8).getLong();
        }

        String hex() {
            return ByteBufUtil.hexDump(header) + " | " + ByteBufUtil.hexDump(body);
        }
    }

    private static Read read(DataInputStream in) throws IOException {
        byte[] header = new byte[16];
        in.readFully(header);
        byte[] body = new byte[ByteBuffer.wrap(header, 12, 4).getInt()];
        in.readFully(body);
        return new Read(header, body);
    }

    @Test
    void theFramesOfAStreamByteByByte() throws IOException {
        try (Socket socket = connect()) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            Read announcement = read(in);
            assertThat(announcement.hex()).isEqualTo("babe0f01000000000000000000000000 | ");

            byte[] open = openBody("count", 3);
            out.write(header(0x1a, 0, 7, open.length));
            out.write(open);
            out.write(header(0x0c, 0, 7, 4));
            out.writeInt(32);
            out.flush();

            for (long i = 0; i < 3; i++) {
                Read message = read(in);
                // protostuff writes a Long as field 1, varint: 08 0i
                assertThat(message.hex()).isEqualTo("babe1b20000000000000000700000002 | 080" + i);
                assertThat(message.header[2]).isEqualTo((byte) 0x1b);
                assertThat(message.status()).isEqualTo(Status.OK.value() & 0xff);
                assertThat(message.id()).isEqualTo(7);
                ByteBuf body = Unpooled.wrappedBuffer(message.body);
                assertThat(Serializers.get(SerializerType.PROTOSTUFF).read(body, Long.class)).isEqualTo(i);
            }
            Read end = read(in);
            assertThat(end.hex()).isEqualTo("babe0d20000000000000000700000000 | ");
        }
    }

    @Test
    void aCancelEndsTheStreamAndAnUnknownMethodIsRefusedWithItsReason() throws IOException {
        try (Socket socket = connect()) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            assertThat(read(in).code()).isEqualTo(ProtocolHeader.HEARTBEAT);

            byte[] open = openBody("endless", "WAIT", 4);
            out.write(header(0x1a, 0, 9, open.length));
            out.write(open);
            out.write(header(0x0c, 0, 9, 4));
            out.writeInt(2);
            out.flush();
            assertThat(read(in).id()).isEqualTo(9);
            assertThat(read(in).id()).isEqualTo(9);
            out.write(header(0x0e, 0, 9, 0));

            byte[] hello = openBody("hello", "x");
            out.write(header(0x1a, 0, 10, hello.length));
            out.write(hello);
            out.flush();
            Read refused = read(in);
            assertThat(refused.code()).isEqualTo(ProtocolHeader.STREAM_END);
            assertThat(refused.id()).isEqualTo(10);
            assertThat(refused.status()).isEqualTo(Status.BAD_REQUEST.value() & 0xff);
            assertThat(new String(refused.body, StandardCharsets.UTF_8))
                    .endsWith(".hello is not a stream method");
            // The cancelled stream sent nothing more: the refusal was the next frame, and nothing follows it.
            socket.setSoTimeout(300);
            assertThat(readsNothing(in)).isTrue();
        }
    }

    private static boolean readsNothing(DataInputStream in) throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return true;
        }
    }
}
