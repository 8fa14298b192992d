package io.jupiter.transport.netty;

import io.jupiter.testkit.suites.transport.EchoPeer;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.TransportConfig;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A measurement, run only when asked ({@code -Dflood.limit=N} in the test JVM, N the acceptor's
 * {@code maxHeartbeatsPerSecond}, 0 for none): a good caller's latency alone for 3 s, then for 5 s while 20
 * connections write pings as fast as the socket takes them, and when each flooding connection was closed. Prints one
 * {@code RESULT} line; asserts nothing (docs/security.md, "Transport: junk traffic and log floods", has the figures).
 */
@EnabledIfSystemProperty(named = "flood.limit", matches = "\\d+")
class FloodMeasureTest {

    @Test
    void measure() throws Exception {
        int limit = Integer.getInteger("flood.limit");
        NettyAcceptor acceptor = new NettyAcceptor(TransportConfig.builder().maxHeartbeatsPerSecond(limit)
                .threadNamePrefix("m").build(), new InetSocketAddress("127.0.0.1", 0), new EchoPeer());
        acceptor.start();
        try (Socket good = new Socket()) {
            good.connect(acceptor.localAddress());
            good.setTcpNoDelay(true);
            long[] base = calls(good, 3_000, 0);
            AtomicInteger closed = new AtomicInteger();
            long start = System.nanoTime();
            long[] closedAt = new long[20];
            List<Thread> floods = new ArrayList<>();
            List<Socket> sockets = new ArrayList<>();
            byte[] burst = burst();
            for (int i = 0; i < 20; i++) {
                Socket s = new Socket();
                s.connect(acceptor.localAddress());
                sockets.add(s);
                int n = i;
                Thread t = new Thread(() -> {
                    long end = System.nanoTime() + 8_000_000_000L;
                    try {
                        OutputStream out = s.getOutputStream();
                        while (System.nanoTime() < end) {
                            out.write(burst);
                        }
                    } catch (IOException e) {
                        closedAt[n] = System.nanoTime() - start;
                        closed.incrementAndGet();
                    }
                });
                t.setDaemon(true);
                t.start();
                floods.add(t);
            }
            long[] during = calls(good, 5_000, 1_000_000);
            long maxClose = Arrays.stream(closedAt).max().getAsLong();
            System.out.printf("RESULT limit=%d baseline n=%d p50=%.3f p99=%.3f ms | flood n=%d p50=%.3f p99=%.3f ms"
                            + " | closed %d/20, last after %.1f ms%n", limit, base.length, pct(base, 50),
                    pct(base, 99), during.length, pct(during, 50), pct(during, 99), closed.get(),
                    closed.get() == 20 ? maxClose / 1e6 : -1.0);
            for (Thread t : floods) {
                t.join(10_000);
            }
            for (Socket s : sockets) {
                s.close();
            }
        } finally {
            acceptor.close();
        }
    }

    private static byte[] burst() {
        ByteBuffer b = ByteBuffer.allocate(4096 * 16);
        for (int i = 0; i < 4096; i++) {
            b.putShort(ProtocolHeader.MAGIC).put(ProtocolHeader.HEARTBEAT).put((byte) 0).putLong(i + 1).putInt(0);
        }
        return b.array();
    }

    private static long[] calls(Socket s, long millis, long firstId) throws IOException {
        List<Long> lat = new ArrayList<>();
        long end = System.nanoTime() + millis * 1_000_000;
        long id = firstId;
        byte[] body = new byte[64];
        DataInputStream in = new DataInputStream(s.getInputStream());
        while (System.nanoTime() < end) {
            id++;
            long t0 = System.nanoTime();
            s.getOutputStream().write(ByteBuffer.allocate(16 + 64).putShort(ProtocolHeader.MAGIC)
                    .put(ProtocolHeader.toSign(EchoPeer.SERIALIZER, ProtocolHeader.REQUEST)).put((byte) 0)
                    .putLong(id).putInt(64).put(body).array());
            in.readFully(new byte[16 + 64]);
            lat.add(System.nanoTime() - t0);
        }
        return lat.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    private static double pct(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, sorted.length * p / 100)] / 1e6;
    }
}
