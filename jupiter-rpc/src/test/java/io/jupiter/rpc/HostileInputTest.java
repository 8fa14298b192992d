package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.testkit.OwnThreads;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A seeded fuzzer throws broken and random frames at a live provider while a well-behaved client keeps calling it.
 * The provider must answer or close only the offending connection, never die, and serve the good client throughout.
 * Buffers leaked anywhere fail the class (leak detector at paranoid).
 */
class HostileInputTest {

    private static final long SEED = 0x5EED_0F_F022L;
    private static final int ATTACKS = 400;

    private static JupiterServer server;
    private static JupiterClient client;
    private static int port;
    private static byte[] validRequest;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        server.register(new EchoServiceImpl());
        port = server.start().getPort();
        client = JupiterClient.builder().build();
        validRequest = request(SerializerType.PROTOSTUFF.code(), 7L, "hello", "fuzz");
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    void providerSurvivesAnAttackAndKeepsServingGoodClients() throws Exception {
        EchoService echo = client.proxy(EchoService.class).address("127.0.0.1", port).timeoutMillis(10_000).build();
        assertThat(echo.hello("before")).isEqualTo("hello, before");
        AtomicBoolean attacking = new AtomicBoolean(true);
        AtomicInteger goodCalls = new AtomicInteger();
        CompletableFuture<Void> goodClient = CompletableFuture.runAsync(() -> {
            while (attacking.get()) {
                assertThat(echo.add(goodCalls.get(), 1)).isEqualTo(goodCalls.get() + 1);
                goodCalls.incrementAndGet();
            }
        }, OwnThreads.EXECUTOR);

        Random random = new Random(SEED);
        for (int i = 0; i < ATTACKS; i++) {
            Attack attack = Attack.values()[random.nextInt(Attack.values().length)];
            attack(attack, random);
        }
        attacking.set(false);
        goodClient.get(30, TimeUnit.SECONDS);
        assertThat(goodCalls.get()).isPositive();
        assertThat(echo.hello("after")).isEqualTo("hello, after");
    }

    @Test
    void aValidRequestSplitAtEveryByteIsAnswered() throws Exception {
        for (int split = 1; split < validRequest.length; split++) {
            try (Socket socket = connect()) {
                OutputStream out = socket.getOutputStream();
                out.write(validRequest, 0, split);
                out.flush();
                out.write(validRequest, split, validRequest.length - split);
                out.flush();
                Response response = readResponse(socket.getInputStream());
                assertThat(response.status).isEqualTo(Status.OK.value());
                assertThat(response.id).isEqualTo(7L);
            }
        }
    }

    private enum Attack {
        RANDOM_BYTES, BAD_MAGIC, UNKNOWN_MESSAGE_CODE, NEGATIVE_LENGTH, HUGE_LENGTH, UNKNOWN_SERIALIZER,
        GARBAGE_BODY, TRUNCATED, MUTATED_VALID, HEARTBEAT_THEN_VALID
    }

    private static void attack(Attack attack, Random random) throws IOException {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            switch (attack) {
                case RANDOM_BYTES -> {
                    byte[] junk = new byte[1 + random.nextInt(200)];
                    random.nextBytes(junk);
                    junk[0] = (byte) 0x00; // never a valid magic
                    out.write(junk);
                    assertClosedWithoutAnswer(in);
                }
                case BAD_MAGIC -> {
                    byte[] frame = validRequest.clone();
                    frame[0] = (byte) 0xca;
                    out.write(frame);
                    assertClosedWithoutAnswer(in);
                }
                case UNKNOWN_MESSAGE_CODE -> {
                    byte[] frame = validRequest.clone();
                    frame[2] = ProtocolHeader.toSign(1, 0x07 + random.nextInt(7));
                    out.write(frame);
                    assertClosedWithoutAnswer(in);
                }
                case NEGATIVE_LENGTH -> {
                    out.write(header(ProtocolHeader.toSign(1, ProtocolHeader.REQUEST), 1L, -1 - random.nextInt(1000)));
                    assertClosedWithoutAnswer(in);
                }
                case HUGE_LENGTH -> {
                    out.write(header(ProtocolHeader.toSign(1, ProtocolHeader.REQUEST), 1L,
                            5 * 1024 * 1024 + 1 + random.nextInt(Integer.MAX_VALUE - 6 * 1024 * 1024)));
                    assertClosedWithoutAnswer(in);
                }
                case UNKNOWN_SERIALIZER -> {
                    out.write(request((byte) (5 + random.nextInt(10)), 11L, "hello", "x"));
                    Response response = readResponse(in);
                    assertThat(response.status).isEqualTo(Status.BAD_REQUEST.value());
                    assertClosedWithoutAnswer(in);
                }
                case GARBAGE_BODY -> {
                    byte[] body = new byte[1 + random.nextInt(300)];
                    random.nextBytes(body);
                    body[0] = (byte) 0xff; // an invalid protostuff tag, so the body surely cannot be read
                    out.write(frame(ProtocolHeader.toSign(1, ProtocolHeader.REQUEST), 12L, body));
                    Response response = readResponse(in);
                    assertThat(response.status).isEqualTo(Status.BAD_REQUEST.value());
                    assertThat(response.id).isEqualTo(12L);
                    assertClosedWithoutAnswer(in);
                }
                case TRUNCATED -> {
                    out.write(validRequest, 0, 1 + random.nextInt(validRequest.length - 1));
                    out.flush();
                    // The provider waits for the rest; we hang up on it, which it must take in its stride.
                }
                case MUTATED_VALID -> {
                    byte[] frame = validRequest.clone();
                    int flips = 1 + random.nextInt(4);
                    for (int f = 0; f < flips; f++) {
                        int at = ProtocolHeader.HEADER_SIZE + random.nextInt(frame.length - ProtocolHeader.HEADER_SIZE);
                        frame[at] = (byte) random.nextInt(256);
                    }
                    out.write(frame);
                    // Either an answer of any status, or a closed connection: never a hang or a dead provider.
                    try {
                        readResponse(in);
                    } catch (EOFException closed) {
                        return;
                    }
                }
                case HEARTBEAT_THEN_VALID -> {
                    out.write(header(ProtocolHeader.HEARTBEAT, 0L, 0));
                    out.write(validRequest);
                    Response response = readResponse(in);
                    assertThat(response.status).isEqualTo(Status.OK.value());
                }
                default -> throw new AssertionError(attack);
            }
        }
    }

    private static Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        return socket;
    }

    private static void assertClosedWithoutAnswer(InputStream in) throws IOException {
        try {
            assertThat(in.read()).as("the provider should close the connection without answering").isEqualTo(-1);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the provider kept a broken connection open", e);
        } catch (IOException reset) {
            // A reset is a close too.
        }
    }

    private record Response(byte status, long id) {
    }

    private static Response readResponse(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        byte[] header = new byte[ProtocolHeader.HEADER_SIZE];
        data.readFully(header);
        ByteBuffer view = ByteBuffer.wrap(header);
        assertThat(view.getShort(0)).isEqualTo(ProtocolHeader.MAGIC);
        assertThat(ProtocolHeader.messageCode(view.get(2))).isEqualTo(ProtocolHeader.RESPONSE);
        int length = view.getInt(12);
        assertThat(length).isBetween(0, 5 * 1024 * 1024);
        data.readFully(new byte[length]);
        return new Response(view.get(3), view.getLong(4));
    }

    private static byte[] header(byte sign, long id, int length) {
        return ByteBuffer.allocate(ProtocolHeader.HEADER_SIZE).putShort(ProtocolHeader.MAGIC).put(sign).put((byte) 0)
                .putLong(id).putInt(length).array();
    }

    private static byte[] frame(byte sign, long id, byte[] body) {
        byte[] frame = new byte[ProtocolHeader.HEADER_SIZE + body.length];
        System.arraycopy(header(sign, id, body.length), 0, frame, 0, ProtocolHeader.HEADER_SIZE);
        System.arraycopy(body, 0, frame, ProtocolHeader.HEADER_SIZE, body.length);
        return frame;
    }

    private static byte[] request(byte serializerCode, long id, String method, String arg) {
        MessageWrapper message = new MessageWrapper("fuzz", new ServiceMetadata("test", "echo", "1.0.0"), method,
                new Object[] {arg}, null);
        ByteBuf body = Unpooled.buffer();
        try {
            Serializers.get(SerializerType.PROTOSTUFF).write(body, message);
            byte[] bytes = new byte[body.readableBytes()];
            body.readBytes(bytes);
            return frame(ProtocolHeader.toSign(serializerCode, ProtocolHeader.REQUEST), id, bytes);
        } finally {
            body.release();
        }
    }

}
