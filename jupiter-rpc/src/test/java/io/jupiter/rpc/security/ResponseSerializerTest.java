package io.jupiter.rpc.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.EchoService;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.exception.SerializationFailedException;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue #16 part 2: a consumer reads an answer only in the serializer its request was written with. A fake provider
 * on a raw socket answers a protostuff request with a valid {@code ResultWrapper} in another serializer (Java
 * serialization among them): the call fails with {@code DESERIALIZATION_FAIL} naming both, and nothing of the body
 * is read.
 */
class ResponseSerializerTest {

    @ParameterizedTest
    @EnumSource(value = SerializerType.class, names = {"HESSIAN", "KRYO", "JAVA"})
    void anAnswerInAnotherSerializerIsRefused(SerializerType answerType) throws Exception {
        try (ServerSocket provider = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             JupiterClient client = JupiterClient.builder().build()) {
            CompletableFuture<Void> fake = CompletableFuture.runAsync(() -> answerOnce(provider, answerType));
            EchoService echo = client.proxy(EchoService.class).address("127.0.0.1", provider.getLocalPort())
                    .serializer(SerializerType.PROTOSTUFF).timeoutMillis(10_000).build();

            assertThatThrownBy(() -> echo.hello("x")).isInstanceOfSatisfying(SerializationFailedException.class,
                    e -> assertThat(e.status()).isEqualTo(Status.DESERIALIZATION_FAIL))
                    .hasMessageContaining("written with serializer " + answerType.id()
                            + ", the request with protostuff (expected: the same)");
            fake.get(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Reads one request and answers it, status OK, with a body written by {@code type}. Heartbeats before it (the
     * client's keepalive probe) are skipped, as a provider that does not answer pings drops them.
     */
    private static void answerOnce(ServerSocket provider, SerializerType type) {
        try (Socket socket = provider.accept()) {
            socket.setSoTimeout(10_000);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] header = new byte[ProtocolHeader.HEADER_SIZE];
            ByteBuffer request;
            do {
                in.readFully(header);
                request = ByteBuffer.wrap(header);
                in.readFully(new byte[request.getInt(12)]);
            } while (ProtocolHeader.messageCode(request.get(ProtocolHeader.SIGN_OFFSET)) == ProtocolHeader.HEARTBEAT);

            ByteBuf body = Unpooled.buffer();
            try {
                Serializers.get(type).write(body, new ResultWrapper("hello from another serializer"));
                OutputStream out = socket.getOutputStream();
                out.write(ByteBuffer.allocate(ProtocolHeader.HEADER_SIZE).putShort(ProtocolHeader.MAGIC)
                        .put(ProtocolHeader.toSign(type.code(), ProtocolHeader.RESPONSE)).put(Status.OK.value())
                        .putLong(request.getLong(4)).putInt(body.readableBytes()).array());
                byte[] bytes = new byte[body.readableBytes()];
                body.readBytes(bytes);
                out.write(bytes);
                out.flush();
            } finally {
                body.release();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
