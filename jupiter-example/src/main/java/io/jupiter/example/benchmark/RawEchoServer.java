package io.jupiter.example.benchmark;

import io.jupiter.benchmark.driver.Flags;
import io.jupiter.transport.Acceptor;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.FrameHandler;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportFactory;
import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * {@code raw-echo-server}: the ceiling for the benchmarks. Same 16-byte framing and the same transport, but no
 * RPC: each request frame's body is sent straight back as the response body, on the IO thread, with no
 * deserialization, no service lookup and no business thread.
 */
public final class RawEchoServer {

    private RawEchoServer() {
    }

    public static int run(String[] argv) throws InterruptedException {
        Flags args = new Flags(argv, 1, Set.of("port", "host", "io-threads"));
        Acceptor acceptor = start(args.get("host", "0.0.0.0"), args.getInt("port", 18098, 0, 65535),
                args.getInt("io-threads", Runtime.getRuntime().availableProcessors(), 1, 256));
        System.out.println("raw-echo-server listening on " + acceptor.localAddress());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            acceptor.close();
            stopped.countDown();
        }, "raw-echo-shutdown"));
        stopped.await();
        return 0;
    }

    /** Starts an echo server on {@code host:port}; closing the acceptor stops it. */
    static Acceptor start(String host, int port, int ioThreads) {
        TransportConfig config = TransportConfig.builder().threadNamePrefix("raw-echo").writerIdleMillis(0)
                .ioThreads(ioThreads).build();
        Acceptor acceptor = TransportFactory.load().newAcceptor(config, new InetSocketAddress(host, port),
                new EchoHandler());
        acceptor.start();
        return acceptor;
    }

    /** Answers every request with its own body. */
    public static final class EchoHandler implements FrameHandler {
        @Override
        public void frameReceived(Connection connection, Frame frame) {
            try {
                ByteBuf body = frame.body();
                ByteBuf response = Frames.newFrame(connection.alloc(), body.readableBytes());
                response.writeBytes(body, body.readerIndex(), body.readableBytes());
                Frames.fillHeader(response, ProtocolHeader.toSign(frame.serializerCode(), ProtocolHeader.RESPONSE),
                        Status.OK.value(), frame.id());
                connection.write(response);
            } finally {
                frame.release();
            }
        }
    }
}
