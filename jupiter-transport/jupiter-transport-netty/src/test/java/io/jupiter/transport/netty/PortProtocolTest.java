package io.jupiter.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.transport.Acceptor;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.FrameHandler;
import io.jupiter.transport.Frames;
import io.jupiter.transport.PortProtocol;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.jupiter.transport.TransportConfig;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.LineBasedFrameDecoder;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Other protocols on an acceptor's port ({@link TransportConfig#protocols()}): the first bytes choose, a 1.3.1 peer
 * is served as before even one byte at a time, a protocol's requests reach the frame handler as frames of the
 * connection and its answers go back in its own syntax, and without the setting nothing but 1.3.1 is read. Raw
 * sockets on 127.0.0.1 against a real acceptor.
 */
class PortProtocolTest {

    private static final byte SERIALIZER = 1;

    /** A toy protocol: lines {@code LINE <id> <text>}, answered {@code OK <id> <body>}. */
    private static final class LineProtocol implements NettyPortProtocol {
        private static final byte[] PREFIX = "LINE ".getBytes(StandardCharsets.US_ASCII);

        @Override
        public String name() {
            return "line";
        }

        @Override
        public Detection detect(ByteBuf firstBytes) {
            int n = Math.min(firstBytes.readableBytes(), PREFIX.length);
            for (int i = 0; i < n; i++) {
                if (firstBytes.getByte(firstBytes.readerIndex() + i) != PREFIX[i]) {
                    return Detection.NO_MATCH;
                }
            }
            return n == PREFIX.length ? Detection.MATCH : Detection.NEED_MORE;
        }

        @Override
        public void install(ChannelPipeline pipeline, String beforeName, TransportConfig config, ByteBuf firstBytes,
                            Connection connection) {
            pipeline.addBefore(beforeName, "lines", new LineBasedFrameDecoder(1024));
            pipeline.addBefore(beforeName, "line-frames", new ChannelDuplexHandler() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    ByteBuf line = (ByteBuf) msg;
                    String[] parts = line.toString(StandardCharsets.US_ASCII).split(" ", 3);
                    line.release();
                    ByteBuf body = Unpooled.copiedBuffer(parts[2], StandardCharsets.UTF_8);
                    ctx.fireChannelRead(new Frame(ProtocolHeader.REQUEST, SERIALIZER, (byte) 0,
                            Long.parseLong(parts[1]), body, System.nanoTime()));
                }

                @Override
                public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                    ByteBuf frame = (ByteBuf) msg;
                    byte sign = frame.getByte(frame.readerIndex() + ProtocolHeader.SIGN_OFFSET);
                    if (ProtocolHeader.messageCode(sign) != ProtocolHeader.RESPONSE) {
                        frame.release(); // an announcement: nothing this protocol says
                        promise.setSuccess();
                        return;
                    }
                    long id = frame.getLong(frame.readerIndex() + ProtocolHeader.ID_OFFSET);
                    String body = frame.toString(frame.readerIndex() + ProtocolHeader.HEADER_SIZE,
                            frame.readableBytes() - ProtocolHeader.HEADER_SIZE, StandardCharsets.UTF_8);
                    frame.release();
                    ctx.write(Unpooled.copiedBuffer("OK " + id + " " + body + "\n", StandardCharsets.UTF_8),
                            promise);
                }
            });
        }
    }

    /** Answers each request with its own body, from the connection it came on. */
    private static final FrameHandler ECHO = (connection, frame) -> {
        ByteBuf response = Frames.newFrame(connection.alloc(), frame.body().readableBytes());
        response.writeBytes(frame.body());
        frame.release();
        connection.write(Frames.fillHeader(response, ProtocolHeader.toSign(SERIALIZER, ProtocolHeader.RESPONSE),
                Status.OK.value(), frame.id()));
    };

    /** {@link #ECHO}, writing a streams announcement first on each connection, as a provider with streams does. */
    private static final FrameHandler ANNOUNCING_ECHO = new FrameHandler() {
        @Override
        public void frameReceived(Connection connection, Frame frame) {
            ECHO.frameReceived(connection, frame);
        }

        @Override
        public void connected(Connection connection) {
            connection.write(Frames.announcement(connection.alloc(), ProtocolHeader.STREAMS_ANNOUNCED));
        }
    };

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    @Test
    void aLegacyPeerIsServedAsBeforeEvenOneByteAtATime() throws Exception {
        Acceptor acceptor = acceptor(List.of(new LineProtocol()));
        Socket socket = socket(acceptor);
        OutputStream out = socket.getOutputStream();
        for (byte b : request(42, "hello")) {
            out.write(b);
            out.flush();
        }
        assertThat(readResponseBody(socket, 42)).isEqualTo("hello");
        out.write(request(43, "again"));
        assertThat(readResponseBody(socket, 43)).isEqualTo("again");
    }

    @Test
    void anotherProtocolsRequestsReachTheFrameHandlerAndItsAnswersGoBackInItsSyntax() throws Exception {
        Acceptor acceptor = acceptor(List.of(new LineProtocol()));
        Socket socket = socket(acceptor);
        OutputStream out = socket.getOutputStream();
        out.write("LI".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        out.write("NE 7 hi there\nLINE 8 second\n".getBytes(StandardCharsets.US_ASCII));
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        assertThat(in.readLine()).isEqualTo("OK 7 hi there");
        assertThat(in.readLine()).isEqualTo("OK 8 second");
    }

    @Test
    void bytesNoProtocolClaimsAreRefusedAsAnyBadFrame() throws Exception {
        Acceptor acceptor = acceptor(List.of(new LineProtocol()));
        Socket socket = socket(acceptor);
        socket.getOutputStream().write("JUNK JUNK JUNK JUNK\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(socket.getInputStream().read()).as("closed").isEqualTo(-1);
    }

    @Test
    void withoutTheSettingOnlyTheLegacyProtocolIsRead() throws Exception {
        Acceptor acceptor = acceptor(List.of());
        Socket legacy = socket(acceptor);
        legacy.getOutputStream().write(request(1, "x"));
        assertThat(readResponseBody(legacy, 1)).isEqualTo("x");
        Socket line = socket(acceptor);
        line.getOutputStream().write("LINE 7 hi\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(line.getInputStream().read()).as("closed").isEqualTo(-1);
    }

    /**
     * What the server writes as a connection opens waits for its protocol: another protocol's peer, which speaks
     * first, never reads it (its handlers drop it); a 1.3.1 peer reads it before its answer; a peer that sends
     * nothing gets it after the hold.
     */
    @Test
    void whatTheServerWritesFirstWaitsUntilTheProtocolIsKnown() throws Exception {
        Acceptor acceptor = acceptor(List.of(new LineProtocol()), ANNOUNCING_ECHO);
        Socket line = socket(acceptor);
        // A slow peer: its first bytes, then nothing for twice the hold (500 ms), then the rest.
        line.getOutputStream().write("LI".getBytes(StandardCharsets.US_ASCII));
        Thread.sleep(1_000);
        line.getOutputStream().write("NE 7 hi\n".getBytes(StandardCharsets.US_ASCII));
        BufferedReader in = new BufferedReader(new InputStreamReader(line.getInputStream(), StandardCharsets.UTF_8));
        assertThat(in.readLine()).as("the line peer's first bytes").isEqualTo("OK 7 hi");

        Socket legacy = socket(acceptor);
        legacy.getOutputStream().write(request(3, "x"));
        readAnnouncement(legacy);
        assertThat(readResponseBody(legacy, 3)).isEqualTo("x");

        Socket silent = socket(acceptor); // sends nothing: taken for 1.3.1 once the hold is over
        readAnnouncement(silent);
    }

    private static void readAnnouncement(Socket socket) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        assertThat(in.readShort()).isEqualTo(ProtocolHeader.MAGIC);
        assertThat(ProtocolHeader.messageCode(in.readByte())).isEqualTo(ProtocolHeader.HEARTBEAT);
        assertThat(in.readByte()).isEqualTo(ProtocolHeader.STREAMS_ANNOUNCED);
        assertThat(in.readLong()).isZero();
        assertThat(in.readInt()).isZero();
    }

    private Acceptor acceptor(List<PortProtocol> protocols) {
        return acceptor(protocols, ECHO);
    }

    private Acceptor acceptor(List<PortProtocol> protocols, FrameHandler handler) {
        TransportConfig config = TransportConfig.builder().ioThreads(1).threadNamePrefix("port-protocol")
                .acceptedMessageCodes(ProtocolHeader.PROVIDER_MESSAGE_CODES).protocols(protocols).build();
        NettyAcceptor acceptor = new NettyAcceptor(config, new InetSocketAddress("127.0.0.1", 0), handler);
        toClose.add(acceptor);
        acceptor.start();
        return acceptor;
    }

    private Socket socket(Acceptor acceptor) throws IOException {
        Socket socket = new Socket();
        toClose.add(socket);
        socket.connect(acceptor.localAddress(), 5_000);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        return socket;
    }

    private static byte[] request(long id, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(ProtocolHeader.HEADER_SIZE + bytes.length).putShort(ProtocolHeader.MAGIC)
                .put(ProtocolHeader.toSign(SERIALIZER, ProtocolHeader.REQUEST)).put((byte) 0).putLong(id)
                .putInt(bytes.length).put(bytes).array();
    }

    private static String readResponseBody(Socket socket, long id) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        assertThat(in.readShort()).isEqualTo(ProtocolHeader.MAGIC);
        assertThat(ProtocolHeader.messageCode(in.readByte())).isEqualTo(ProtocolHeader.RESPONSE);
        assertThat(in.readByte()).isEqualTo(Status.OK.value());
        assertThat(in.readLong()).isEqualTo(id);
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        return new String(body, StandardCharsets.UTF_8);
    }
}
