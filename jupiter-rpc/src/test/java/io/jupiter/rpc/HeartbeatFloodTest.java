package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.testkit.OwnThreads;
import io.jupiter.transport.ProtocolHeader;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Issue #36's heartbeat flood against a live provider: 20 connections each write pings as fast as the socket takes
 * them while a well-behaved client calls on its own connection. Every flooding connection is closed (at the
 * transport's {@code maxHeartbeatsPerSecond}), and every good call succeeds, during the flood and after.
 */
class HeartbeatFloodTest {

    private static final int FLOODERS = 20;

    @Test
    void floodingConnectionsAreClosedAndEveryGoodCallSucceeds() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(new EchoServiceImpl());
            int port = server.start().getPort();
            EchoService echo = client.proxy(EchoService.class).address("127.0.0.1", port).timeoutMillis(10_000)
                    .build();
            assertThat(echo.hello("before")).isEqualTo("hello, before");

            AtomicBoolean flooding = new AtomicBoolean(true);
            AtomicInteger goodCalls = new AtomicInteger();
            CompletableFuture<Void> goodClient = CompletableFuture.runAsync(() -> {
                while (flooding.get()) {
                    assertThat(echo.add(goodCalls.get(), 1)).isEqualTo(goodCalls.get() + 1);
                    goodCalls.incrementAndGet();
                }
            }, OwnThreads.EXECUTOR);

            CountDownLatch closed = new CountDownLatch(FLOODERS);
            byte[] burst = pings();
            List<Socket> sockets = new ArrayList<>();
            try {
                for (int i = 0; i < FLOODERS; i++) {
                    Socket socket = new Socket("127.0.0.1", port);
                    sockets.add(socket);
                    Thread flooder = new Thread(() -> flood(socket, burst, closed), "flooder-" + i);
                    flooder.setDaemon(true);
                    flooder.start();
                }
                assertThat(closed.await(30, TimeUnit.SECONDS)).as("every flooding connection closed").isTrue();
            } finally {
                flooding.set(false);
                for (Socket socket : sockets) {
                    socket.close();
                }
            }
            goodClient.get(30, TimeUnit.SECONDS); // rethrows the first failed call, if any
            assertThat(echo.hello("after")).isEqualTo("hello, after");
        }
    }

    /** Writes {@code burst} until the provider closes the connection (or 30 s pass). */
    private static void flood(Socket socket, byte[] burst, CountDownLatch closed) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try {
            OutputStream out = socket.getOutputStream();
            while (System.nanoTime() - end < 0) {
                out.write(burst);
            }
        } catch (IOException closedByTheProvider) {
            closed.countDown();
        }
    }

    /** 4,096 pings (heartbeats with an id), 64 KiB. */
    private static byte[] pings() {
        ByteBuffer frames = ByteBuffer.allocate(4_096 * ProtocolHeader.HEADER_SIZE);
        for (int i = 0; i < 4_096; i++) {
            frames.putShort(ProtocolHeader.MAGIC).put(ProtocolHeader.HEARTBEAT).put((byte) 0).putLong(i + 1)
                    .putInt(0);
        }
        return frames.array();
    }
}
