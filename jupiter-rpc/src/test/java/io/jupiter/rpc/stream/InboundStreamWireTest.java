package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.testkit.Await;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBufUtil;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #28, the consumer's side of a stream byte by byte from a raw socket: a client stream's open, the provider's
 * credit, the consumer's messages and end, the answer, as docs/streams.md draws them; a consumer that sends beyond
 * its credit gets a clear error on that stream while the connection stays up.
 */
@Timeout(30)
class InboundStreamWireTest {

    private static final IntakeServiceImpl impl = new IntakeServiceImpl();
    private static JupiterServer server;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        server.register(impl);
        server.register(new TickServiceImpl());
        server.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static byte[] header(int sign, int status, long id, int bodySize) {
        return ByteBuffer.allocate(16).putShort(ProtocolHeader.MAGIC).put((byte) sign).put((byte) status)
                .putLong(id).putInt(bodySize).array();
    }

    private static byte[] openBody(String service, String method, Object... args) {
        MessageWrapper message = new MessageWrapper("raw", new ServiceMetadata("test", service, "1.0.0"), method,
                args, null);
        return ProtostuffBytes.of(message);
    }

    private static void send(DataOutputStream out, int sign, int status, long id, byte[] body) throws IOException {
        out.write(header(sign, status, id, body.length));
        out.write(body);
    }

    private static void sendLong(DataOutputStream out, long id, long value) throws IOException {
        send(out, 0x1b, 0x20, id, ProtostuffBytes.of(value));
    }

    private static void sendCredit(DataOutputStream out, long id, int credit) throws IOException {
        send(out, 0x0c, 0, id, ByteBuffer.allocate(4).putInt(credit).array());
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

    /** The frames of stream {@code id} up to and with its end; frames of other streams are skipped. */
    private static List<Read> untilEnd(DataInputStream in, long id) throws IOException {
        List<Read> frames = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            Read frame = read(in);
            if (frame.id() != id) {
                continue;
            }
            frames.add(frame);
            if (frame.code() == ProtocolHeader.STREAM_END) {
                return frames;
            }
        }
        throw new AssertionError("no end of stream " + id + " in 100 frames: " + frames);
    }

    private static Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", server.localAddress().getPort());
        socket.setSoTimeout(10_000);
        return socket;
    }

    @Test
    void theFramesOfAClientStreamByteByByte() throws IOException {
        try (Socket socket = connect()) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            assertThat(read(in).hex()).isEqualTo("babe0f01000000000000000000000000 | ");

            byte[] open = openBody("intake", "sum"); // sum(Flow.Publisher<Long>): no other argument
            send(out, 0x1a, 0, 5, open);
            sendCredit(out, 5, 1); // room for the answer
            out.flush();
            // The method's iterator asks for 32: the provider's credit.
            assertThat(read(in).hex()).isEqualTo("babe0c00000000000000000500000004 | 00000020");
            sendLong(out, 5, 1);
            sendLong(out, 5, 2);
            sendLong(out, 5, 3);
            send(out, 0x0d, 0x20, 5, new byte[0]); // the consumer's end: all sent
            out.flush();
            Read next = read(in);
            if (next.code() == ProtocolHeader.STREAM_CREDIT) {
                // The first message told the stream its messages' size: the iterator asks for about the rest of its
                // 1,024 (how many depends on what it had read), unless the consumer's end reached it first.
                assertThat(next.hex()).as("credit").startsWith("babe0c00000000000000000500000004 | ");
                assertThat(ByteBuffer.wrap(next.body()).getInt()).as("credit").isBetween(1, 1024);
                next = read(in);
            }
            assertThat(next.hex()).as("the answer, 6L").isEqualTo("babe1b20000000000000000500000002 | 0806");
            assertThat(read(in).hex()).as("the end").isEqualTo("babe0d20000000000000000500000000 | ");
        }
    }

    @Test
    void aConsumerSendingBeyondItsCreditGetsAClearErrorAndTheConnectionStaysUp() throws Exception {
        try (Socket socket = connect()) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            assertThat(read(in).code()).isEqualTo(ProtocolHeader.HEARTBEAT);

            impl.latest.set(null);
            send(out, 0x1a, 0, 7, openBody("intake", "stall", 2)); // asks for exactly 2 messages
            sendCredit(out, 7, 1);
            out.flush();
            assertThat(read(in).hex()).isEqualTo("babe0c00000000000000000700000004 | 00000002");
            sendLong(out, 7, 0);
            sendLong(out, 7, 1);
            sendLong(out, 7, 2); // beyond the credit
            out.flush();
            List<Read> frames = untilEnd(in, 7);
            Read end = frames.get(frames.size() - 1);
            assertThat(end.status()).isEqualTo(Status.BAD_REQUEST.value() & 0xff);
            assertThat(new String(end.body, StandardCharsets.UTF_8))
                    .contains("sent a message beyond the credit it was given");
            Await.until("the method ran", Duration.ofSeconds(10), () -> impl.latest.get() != null);
            IntakeServiceImpl.Run run = impl.latest.get();
            assertThat(run.awaitInboundEnded()).isTrue();
            assertThat(run.reads.get()).as("the two credited messages reached the method").isEqualTo(2);
            assertThat(run.inboundEnd.get()).isInstanceOfSatisfying(StreamException.class,
                    e -> assertThat(e.status()).isEqualTo(Status.BAD_REQUEST));

            // The same connection serves the next stream.
            send(out, 0x1a, 0, 8, openBody("intake", "sum"));
            sendCredit(out, 8, 1);
            send(out, 0x0d, 0x20, 8, new byte[0]);
            out.flush();
            List<Read> next = untilEnd(in, 8);
            assertThat(next.get(next.size() - 1).status()).isEqualTo(Status.OK.value() & 0xff);
            assertThat(next).anySatisfy(frame -> assertThat(frame.hex())
                    .isEqualTo("babe1b20000000000000000800000002 | 0800"));
        }
    }

    @Test
    void aConsumerThatEarnsCreditWithSmallMessagesAndSendsLargeOnesIsStoppedAtTheByteCeiling() throws Exception {
        // A 16 KiB window: the first grant counts messages at 512 bytes (32 of them); the ceiling is 64 windows, 1 MiB.
        JupiterServer small = JupiterServer.builder().host("127.0.0.1").port(0).streamWindowBytes(16 * 1024).build();
        IntakeServiceImpl intake = new IntakeServiceImpl();
        small.register(intake);
        small.start();
        try (Socket socket = new Socket("127.0.0.1", small.localAddress().getPort())) {
            socket.setSoTimeout(10_000);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            assertThat(read(in).code()).isEqualTo(ProtocolHeader.HEARTBEAT);

            send(out, 0x1a, 0, 9, openBody("intake", "slowCount", 5_000)); // reads one message, then sleeps 5 s
            sendCredit(out, 9, 1);
            out.flush();
            Read credit = read(in);
            assertThat(credit.code()).as(credit.hex()).isEqualTo(0x0c);
            int granted = ByteBuffer.wrap(credit.body).getInt();
            assertThat(granted).as("the first grant, counted at the window's 32nd part").isEqualTo(32);
            sendLong(out, 9, 0);
            byte[] large = new byte[64 * 1024];
            for (int i = 1; i < granted; i++) { // within the credit, 31 x 64 KiB: about 2 MiB
                send(out, 0x1b, 0x20, 9, large);
            }
            out.flush();
            List<Read> frames = untilEnd(in, 9);
            Read end = frames.get(frames.size() - 1);
            assertThat(end.status()).isEqualTo(Status.BAD_REQUEST.value() & 0xff);
            assertThat(new String(end.body, StandardCharsets.UTF_8)).contains("sent more than 64 byte windows");

            // The connection stays up: the next stream is served.
            send(out, 0x1a, 0, 10, openBody("intake", "sum"));
            sendCredit(out, 10, 1);
            send(out, 0x0d, 0x20, 10, new byte[0]);
            out.flush();
            List<Read> next = untilEnd(in, 10);
            assertThat(next.get(next.size() - 1).status()).isEqualTo(Status.OK.value() & 0xff);
        } finally {
            small.close();
        }
    }

    @Test
    void aBidirectionalStreamsConsumerSendingBeyondItsCreditGetsAClearError() throws Exception {
        try (Socket socket = connect()) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            assertThat(read(in).code()).isEqualTo(ProtocolHeader.HEARTBEAT);

            impl.latest.set(null);
            send(out, 0x1a, 0, 11, openBody("intake", "both", 1)); // asks for 1 of the consumer's messages
            sendCredit(out, 11, 2); // and the consumer asks for 2 of the provider's
            out.flush();
            List<Read> before = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                before.add(read(in));
            }
            // Both directions at once: the provider's credit and its two messages, in either order.
            assertThat(before).extracting(Read::hex).containsExactlyInAnyOrder(
                    "babe0c00000000000000000b00000004 | 00000001",
                    "babe1b20000000000000000b00000002 | 0800",
                    "babe1b20000000000000000b00000002 | 0801");
            sendLong(out, 11, 0);
            sendLong(out, 11, 1); // beyond the credit of 1
            out.flush();
            List<Read> frames = untilEnd(in, 11);
            Read end = frames.get(frames.size() - 1);
            assertThat(end.status()).isEqualTo(Status.BAD_REQUEST.value() & 0xff);
            assertThat(new String(end.body, StandardCharsets.UTF_8))
                    .contains("sent a message beyond the credit it was given");
            Await.until("the method ran", Duration.ofSeconds(10), () -> impl.latest.get() != null);
            IntakeServiceImpl.Run run = impl.latest.get();
            assertThat(run.awaitProducerStopped()).as("the provider's producer stopped").isTrue();
            assertThat(run.producerEnd.get().status()).isEqualTo(Status.BAD_REQUEST);
            assertThat(run.awaitInboundEnded()).isTrue();
            assertThat(run.reads.get()).isEqualTo(1);
        }
    }

    @Test
    void aMessageToAServerStreamEndsThatStream() throws IOException {
        try (Socket socket = connect()) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            assertThat(read(in).code()).isEqualTo(ProtocolHeader.HEARTBEAT);
            send(out, 0x1a, 0, 9, openBody("ticks", "count", 1000));
            sendCredit(out, 9, 1);
            out.flush();
            assertThat(read(in).code()).isEqualTo(ProtocolHeader.STREAM_MESSAGE);
            sendLong(out, 9, 42);
            out.flush();
            List<Read> frames = untilEnd(in, 9);
            Read end = frames.get(frames.size() - 1);
            assertThat(end.status()).isEqualTo(Status.BAD_REQUEST.value() & 0xff);
            assertThat(new String(end.body, StandardCharsets.UTF_8)).contains("takes no messages from the consumer");
        }
    }
}
