package compat.legacy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jupiter.rpc.DefaultClient;
import org.jupiter.rpc.InvokeType;
import org.jupiter.rpc.JClient;
import org.jupiter.rpc.consumer.ProxyFactory;
import org.jupiter.rpc.consumer.future.InvokeFuture;
import org.jupiter.rpc.consumer.future.InvokeFutureContext;
import org.jupiter.serialization.SerializerType;
import org.jupiter.transport.JConnection;
import org.jupiter.transport.UnresolvedAddress;
import org.jupiter.transport.UnresolvedSocketAddress;
import org.jupiter.transport.netty.JNettyTcpConnector;

/**
 * A 1.3.1 consumer driving {@link BenchmarkService} like our {@code benchmark-client}: same flags
 * ({@code --host --port --mode sync|future --threads --warmup --seconds --payload small|1k --serializer
 * --connections}), same report ({@code Request count: N, time: S second, qps: Q} and latency percentiles in µs),
 * exit status 1 if any call failed. In future mode each thread keeps 80 calls in flight and waits for the batch.
 */
public final class LegacyBenchmarkClient {

    private static final int IN_FLIGHT = 80;

    private LegacyBenchmarkClient() {
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new HashMap<String, String>();
        for (int i = 0; i + 1 < argv.length; i += 2) {
            args.put(argv[i].substring(2), argv[i + 1]);
        }
        String host = get(args, "host", "127.0.0.1");
        int port = Integer.parseInt(get(args, "port", "18099"));
        final boolean future = get(args, "mode", "sync").equals("future");
        int threads = Integer.parseInt(get(args, "threads", "32"));
        int warmup = Integer.parseInt(get(args, "warmup", "5"));
        int seconds = Integer.parseInt(get(args, "seconds", "30"));
        final String payload = get(args, "payload", "small").equals("1k") ? repeat('j', 1024) : "jupiter";
        SerializerType serializer = SerializerType.valueOf(get(args, "serializer", "protostuff").toUpperCase()
                .replace("PROTOSTUFF", "PROTO_STUFF"));
        int connections = Integer.parseInt(get(args, "connections", "1"));
        System.out.printf("legacy-benchmark-client (Jupiter 1.3.1): %s:%d mode=%s threads=%d payload=%s "
                        + "serializer=%s connections=%d warmup=%ds seconds=%ds cores=%d%n", host, port,
                future ? "future" : "sync", threads, get(args, "payload", "small"), serializer, connections, warmup,
                seconds, Runtime.getRuntime().availableProcessors());

        JClient client = new DefaultClient("benchmark").withConnector(new JNettyTcpConnector());
        UnresolvedAddress address = new UnresolvedSocketAddress(host, port);
        for (int i = 0; i < connections; i++) {
            JConnection connection = client.connector().connect(address);
            client.connector().connectionManager().manage(connection);
        }
        // The channel joins its group once active, a moment after connect returns: calls wait for it.
        if (!client.connector().group(address).waitForAvailable(10000)) {
            throw new IllegalStateException("no channel to " + address + " became available within 10 s");
        }
        final BenchmarkService service = ProxyFactory.factory(BenchmarkService.class).version("1.0.0")
                .client(client).serializerType(serializer).timeoutMillis(3000)
                .invokeType(future ? InvokeType.ASYNC : InvokeType.AUTO).addProviderAddress(address)
                .newProxyInstance();

        final Run run = new Run();
        List<Thread> workers = new ArrayList<Thread>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(new Runnable() {
                @Override
                public void run() {
                    Latencies latencies = run.latenciesOfThisThread();
                    while (!run.stopped) {
                        if (future) {
                            futureBatch(service, payload, run, latencies);
                        } else {
                            long start = System.nanoTime();
                            try {
                                if (service.hello(payload).length() != payload.length()) {
                                    throw new IllegalStateException("wrong reply");
                                }
                                run.completed(start, latencies);
                            } catch (Throwable e) {
                                run.failed(e);
                            }
                        }
                    }
                }
            }, "legacy-benchmark-" + t);
            worker.setDaemon(true);
            workers.add(worker);
            worker.start();
        }
        TimeUnit.SECONDS.sleep(warmup);
        run.measuring = true;
        long start = System.nanoTime();
        TimeUnit.SECONDS.sleep(seconds);
        run.measuring = false;
        double elapsed = (System.nanoTime() - start) / 1e9;
        long count = run.count.get();
        run.stopped = true;
        for (Thread worker : workers) {
            worker.join(30000);
        }
        long[] all = run.allLatencies();
        System.out.printf("Request count: %d, time: %d second, qps: %d%n", count, Math.round(elapsed),
                Math.round(count / elapsed));
        System.out.printf("Latency (us): p50=%d, p99=%d, p999=%d, max=%d%n", percentile(all, 50),
                percentile(all, 99), percentile(all, 99.9), all.length == 0 ? 0 : all[all.length - 1] / 1000);
        if (run.failures.get() > 0) {
            System.out.println("Failed calls: " + run.failures.get() + ", first: " + run.firstFailure.get());
        }
        System.out.flush();
        System.exit(run.failures.get() == 0 ? 0 : 1);
    }

    private static void futureBatch(BenchmarkService service, String payload, final Run run,
                                    final Latencies latencies) {
        CompletableFuture<?>[] batch = new CompletableFuture<?>[IN_FLIGHT];
        for (int i = 0; i < IN_FLIGHT; i++) {
            final long start = System.nanoTime();
            try {
                service.hello(payload);
                InvokeFuture<String> future = InvokeFutureContext.future(String.class);
                batch[i] = future.toCompletableFuture().whenComplete((value, error) -> {
                    if (error == null) {
                        run.completed(start, latencies);
                    } else {
                        run.failed(error);
                    }
                });
            } catch (Throwable e) {
                run.failed(e);
                batch[i] = CompletableFuture.completedFuture(null);
            }
        }
        try {
            CompletableFuture.allOf(batch).get(60, TimeUnit.SECONDS);
        } catch (Exception counted) {
            // each failure was counted by its own callback
        }
    }

    /** Shared state of one run. */
    static final class Run {
        volatile boolean measuring;
        volatile boolean stopped;
        final AtomicLong count = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        final AtomicReference<Throwable> firstFailure = new AtomicReference<Throwable>();
        private final List<Latencies> all = new ArrayList<Latencies>();

        synchronized Latencies latenciesOfThisThread() {
            Latencies latencies = new Latencies();
            all.add(latencies);
            return latencies;
        }

        void completed(long start, Latencies latencies) {
            if (measuring) {
                latencies.add(System.nanoTime() - start);
                count.incrementAndGet();
            }
        }

        void failed(Throwable e) {
            failures.incrementAndGet();
            firstFailure.compareAndSet(null, e);
        }

        synchronized long[] allLatencies() {
            int size = 0;
            for (Latencies l : all) {
                size += l.size();
            }
            long[] merged = new long[size];
            int at = 0;
            for (Latencies l : all) {
                at = l.copyTo(merged, at);
            }
            Arrays.sort(merged);
            return merged;
        }
    }

    /** Latency samples of one thread (future callbacks may add from other threads, hence synchronized). */
    static final class Latencies {
        private static final int MAX = 2000000;
        private long[] values = new long[1024];
        private int size;

        synchronized void add(long nanos) {
            if (size == values.length) {
                if (size >= MAX) {
                    return;
                }
                values = Arrays.copyOf(values, Math.min(MAX, size * 2));
            }
            values[size++] = nanos;
        }

        synchronized int size() {
            return size;
        }

        synchronized int copyTo(long[] target, int at) {
            System.arraycopy(values, 0, target, at, size);
            return at + size;
        }
    }

    private static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int index = (int) Math.min(sorted.length - 1, Math.ceil(p / 100.0 * sorted.length) - 1);
        return sorted[Math.max(0, index)] / 1000;
    }

    private static String get(Map<String, String> args, String name, String defaultValue) {
        String value = args.get(name);
        return value == null ? defaultValue : value;
    }

    private static String repeat(char c, int n) {
        char[] chars = new char[n];
        Arrays.fill(chars, c);
        return new String(chars);
    }
}
