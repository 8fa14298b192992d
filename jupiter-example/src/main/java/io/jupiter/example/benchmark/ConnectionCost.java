package io.jupiter.example.benchmark;

import com.sun.management.UnixOperatingSystemMXBean;
import io.jupiter.benchmark.driver.Flags;
import io.jupiter.benchmark.driver.Payloads;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.transport.Acceptor;
import io.jupiter.transport.Connection;
import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.Connector;
import io.jupiter.transport.Frame;
import io.jupiter.transport.FrameHandler;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportFactory;
import io.netty.buffer.ByteBuf;
import io.netty.util.internal.PlatformDependent;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * {@code connection-cost}: heap and direct memory per idle connection, on the client and on the server. Starts a
 * server JVM of the target (ours with its defaults, or the raw echo), then opens connections from this JVM in steps
 * up to each of {@code --counts}, makes one {@code hello} call on every new connection, and at each step reports both
 * sides' heap after a full GC and Netty's direct memory, in totals and per new connection (the growth since the
 * previous step divided by the connections added since: from 1,000 to 10,000 it is the cost of one more idle
 * connection, with the first connection's one-off costs, such as a pool's first chunk, left behind).
 * <pre>
 * java -jar jupiter-example.jar connection-cost --target jupiter|raw [--counts 1,10,100,1000,10000] [--io-threads 2]
 *      [--server-jvm-options "-Xms1g -Xmx1g"] [--timeout 300]
 * </pre>
 * The client side is our transport's connector in both cases (the connections a {@code JupiterClient} opens), sending
 * the exact request bytes our RPC client sends; the server is our {@link JupiterServer} or the raw echo. Each JVM
 * holds one file descriptor per connection (plus about a hundred of its own), so the largest count must stay below
 * {@code ulimit -n}; the tool checks that first. The whole run stops with an error after {@code --timeout} seconds.
 */
public final class ConnectionCost {

    private static final Set<String> FLAGS = Set.of("target", "counts", "io-threads", "server-jvm-options", "timeout");
    /** File descriptors a JVM uses besides its connections (jars, epoll, pipes), with room to spare. */
    private static final int SPARE_DESCRIPTORS = 200;
    /** Connections asked for at once: the connector dials a group's connections together. */
    private static final int STEP = 500;

    private ConnectionCost() {
    }

    /** The client side and the report; see the class comment. */
    public static int run(String[] argv) throws Exception {
        return run(argv, System.out);
    }

    /** {@link #run(String[])}, printing the report to {@code report}. */
    static int run(String[] argv, PrintStream report) throws Exception {
        Flags args = new Flags(argv, 1, FLAGS);
        String target = args.oneOf("target", "jupiter", "jupiter", "raw");
        int[] counts = counts(args.get("counts", "1,10,100,1000,10000"));
        int ioThreads = args.getInt("io-threads", 2, 1, 256);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(args.getInt("timeout", 300, 10, 3600));
        int most = counts[counts.length - 1];
        long descriptors = maxFileDescriptors();
        if (descriptors > 0 && descriptors < most + SPARE_DESCRIPTORS) {
            throw new IllegalArgumentException(most + " connections need " + (most + SPARE_DESCRIPTORS)
                    + " file descriptors in each JVM, but ulimit -n is " + descriptors);
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        String jvmOptions = args.get("server-jvm-options", "-Xms1g -Xmx1g").trim();
        if (!jvmOptions.isEmpty()) {
            command.addAll(List.of(jvmOptions.split("\\s+")));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.jupiter.example.Main",
                "connection-cost-server", "--target", target, "--io-threads", Integer.toString(ioThreads)));
        boolean ok;
        Process server = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader fromServer = new BufferedReader(new InputStreamReader(server.getInputStream(),
                StandardCharsets.UTF_8));
             PrintWriter toServer = new PrintWriter(server.getOutputStream(), true, StandardCharsets.UTF_8)) {
            String ready = fromServer.readLine();
            if (ready == null || !ready.startsWith("ready ")) {
                throw new IllegalStateException("the server did not start: " + ready);
            }
            int port = Integer.parseInt(ready.substring("ready ".length()).trim());
            ok = measureSteps(target, counts, ioThreads, new InetSocketAddress("127.0.0.1", port), deadline,
                    () -> ask(toServer, fromServer), report);
            toServer.println("quit");
        } finally {
            server.destroy();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
        return ok ? 0 : 1;
    }

    /** Opens the connections step by step and prints a row per step; {@code false} if a reply was not OK. */
    private static boolean measureSteps(String target, int[] counts, int ioThreads, InetSocketAddress address,
                                     long deadline, ServerMemory serverMemory, PrintStream out)
            throws Exception {
        Replies replies = new Replies();
        byte[] body = RawEchoCalls.helloRequestBody(SerializerType.PROTOSTUFF, Payloads.of("small"));
        byte sign = ProtocolHeader.toSign(SerializerType.PROTOSTUFF.code(), ProtocolHeader.REQUEST);
        TransportConfig config = TransportConfig.builder().threadNamePrefix("connection-cost").ioThreads(ioThreads)
                .readerIdleMillis(0).build();
        Connector connector = TransportFactory.load().newConnector(config, replies);
        List<ConnectionGroup> groups = new ArrayList<>();
        try {
            Memory clientZero = Memory.now();
            Memory serverZero = serverMemory.get();
            out.printf("%s: %d IO threads per side, one hello call on each connection, then idle; per "
                    + "new connection = growth since the previous row / connections added since%n%n", target,
                    ioThreads);
            out.println("| connections | client heap | client direct (Netty) | server heap | server direct "
                    + "(Netty) | client heap / new conn | client direct / new conn | server heap / new conn | "
                    + "server direct / new conn |");
            out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
            out.printf("| 0 | %s | %s | %s | %s | | | | |%n", kib(clientZero.heap), kib(clientZero.direct),
                    kib(serverZero.heap), kib(serverZero.direct));
            Memory clientBefore = clientZero;
            Memory serverBefore = serverZero;
            int open = 0;
            long id = 0;
            for (int count : counts) {
                int before = open;
                while (open < count) {
                    int more = Math.min(STEP, count - open);
                    ConnectionGroup group = connector.connect(address, more);
                    groups.add(group);
                    awaitUntil(() -> group.activeConnections().size() == more, deadline,
                            "connecting " + more + " more after " + open);
                    for (Connection connection : group.activeConnections()) {
                        ByteBuf frame = Frames.newFrame(connection.alloc(), body.length);
                        frame.writeBytes(body);
                        Frames.fillHeader(frame, sign, (byte) 0, ++id);
                        connection.write(frame);
                    }
                    long sent = id;
                    awaitUntil(() -> replies.count.get() >= sent, deadline, "the replies of " + sent + " calls");
                    open += more;
                }
                Memory client = Memory.now();
                Memory server = serverMemory.get();
                int added = count - before;
                out.printf("| %,d | %s | %s | %s | %s | %s | %s | %s | %s |%n", count, kib(client.heap),
                        kib(client.direct), kib(server.heap), kib(server.direct),
                        perConnection(client.heap - clientBefore.heap, added),
                        perConnection(client.direct - clientBefore.direct, added),
                        perConnection(server.heap - serverBefore.heap, added),
                        perConnection(server.direct - serverBefore.direct, added));
                clientBefore = client;
                serverBefore = server;
            }
            if (replies.failures.get() > 0) {
                out.println("\n" + replies.failures.get() + " replies were not OK");
                return false;
            }
            return true;
        } finally {
            groups.forEach(ConnectionGroup::close);
            connector.close();
        }
    }

    /** {@code connection-cost-server}: serves the target, answers {@code measure} on stdin with its memory. */
    public static int serve(String[] argv) throws Exception {
        Flags args = new Flags(argv, 1, Set.of("target", "io-threads"));
        String target = args.oneOf("target", "jupiter", "jupiter", "raw");
        TransportConfig config = TransportConfig.builder().ioThreads(args.getInt("io-threads", 2, 1, 256))
                .maxConnections(Integer.MAX_VALUE, Integer.MAX_VALUE).writerIdleMillis(0).build();
        AutoCloseable server;
        int port;
        if (target.equals("raw")) {
            Acceptor acceptor = TransportFactory.load().newAcceptor(config, new InetSocketAddress("127.0.0.1", 0),
                    new RawEchoServer.EchoHandler());
            acceptor.start();
            server = acceptor;
            port = ((InetSocketAddress) acceptor.localAddress()).getPort();
        } else {
            JupiterServer jupiter = JupiterServer.builder().host("127.0.0.1").port(0).transportConfig(config)
                    .build();
            jupiter.register(new BenchmarkServiceImpl());
            port = jupiter.start().getPort();
            server = jupiter;
        }
        try (server; BufferedReader in = new BufferedReader(new InputStreamReader(System.in,
                StandardCharsets.UTF_8))) {
            System.out.println("ready " + port);
            System.out.flush();
            for (String line = in.readLine(); line != null && !line.equals("quit"); line = in.readLine()) {
                Memory memory = Memory.now();
                System.out.println("memory " + memory.heap + " " + memory.direct);
                System.out.flush();
            }
        }
        return 0;
    }

    private static Memory ask(PrintWriter toServer, BufferedReader fromServer) throws IOException {
        toServer.println("measure");
        String line = fromServer.readLine();
        if (line == null || !line.startsWith("memory ")) {
            throw new IllegalStateException("the server answered " + line);
        }
        String[] parts = line.split(" ");
        return new Memory(Long.parseLong(parts[1]), Long.parseLong(parts[2]));
    }

    static int[] counts(String text) {
        int[] counts;
        try {
            counts = Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                    .mapToInt(Integer::parseInt).toArray();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--counts " + text + " (expected: ascending numbers, e.g. 1,10,100)",
                    e);
        }
        if (counts.length == 0 || counts[0] < 1) {
            throw new IllegalArgumentException("--counts " + text + " (expected: ascending numbers from 1)");
        }
        for (int i = 1; i < counts.length; i++) {
            if (counts[i] <= counts[i - 1]) {
                throw new IllegalArgumentException("--counts " + text + " must ascend");
            }
        }
        return counts;
    }

    private static long maxFileDescriptors() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof UnixOperatingSystemMXBean unix ? unix.getMaxFileDescriptorCount() : -1;
    }

    private static void awaitUntil(BooleanSupplier done, long deadline, String what) throws InterruptedException {
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out waiting for " + what);
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    private static String kib(long bytes) {
        return String.format("%,d KiB", bytes / 1024);
    }

    private static String perConnection(long bytes, int connections) {
        return String.format("%,d B", bytes / connections);
    }

    /** The server's memory, asked over its stdin. */
    @FunctionalInterface
    private interface ServerMemory {
        Memory get() throws IOException;
    }

    /** Counts the replies; the calls are fire-and-forget, one per connection. */
    private static final class Replies implements FrameHandler {
        private final AtomicLong count = new AtomicLong();
        private final AtomicLong failures = new AtomicLong();

        @Override
        public void frameReceived(Connection connection, Frame frame) {
            try {
                if (frame.status() != Status.OK.value()) {
                    failures.incrementAndGet();
                }
            } finally {
                frame.release();
                count.incrementAndGet();
            }
        }
    }

    /**
     * Heap used after a full collection, and the direct memory Netty holds (its own count when it allocates without
     * cleaners, else the JDK's direct buffer pool).
     */
    private record Memory(long heap, long direct) {

        static Memory now() {
            System.gc();
            System.gc();
            long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            long direct = PlatformDependent.usedDirectMemory();
            if (direct < 0) {
                direct = 0;
                for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
                    if (pool.getName().equals("direct")) {
                        direct = pool.getMemoryUsed();
                    }
                }
            }
            return new Memory(heap, direct);
        }
    }
}
