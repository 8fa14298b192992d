package io.jupiter.rpc.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceProvider;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Adaptive dispatch on a real server and client on 127.0.0.1: with it switched on, an undeclared method starts on the
 * provider pool, moves to the IO threads once a window of its calls was fast, and goes back when a call stalls its IO
 * thread; slow methods, methods that wait for synchronous calls and methods declared {@code @NonBlocking(false)} stay
 * on the pool. With the default (off), every undeclared method stays on the pool and only {@code @NonBlocking} ones
 * run on the IO threads. The methods answer with the name of their thread.
 */
class AdaptiveDispatchTest {

    private static final String IO = "jupiter-acceptor-worker-";
    private static final String POOL = "jupiter-provider-";
    /** The first window is 1,000 calls; a window failed by a stray slow call makes the next one 10,000. */
    private static final int MAX_CALLS_TO_LEARN = 12_000;
    private static final long LEARN_DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(60);

    @Test
    void aFastMethodMovesToTheIoThreadsAfterItsFirstWindowAndStaysThere() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).adaptiveDispatch(true)
                     .build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(new ThreadServiceImpl());
            ThreadService threads = proxy(client, server.start());

            for (int i = 0; i < 900; i++) {
                assertThat(threads.plain()).as("call %d", i).startsWith(POOL);
            }
            int calls = callsUntilOnIoThread(() -> threads.plain());

            assertThat(calls).isGreaterThanOrEqualTo(100);
            // A garbage collection of 2 ms or more during a call would send it back for one window: allow for one.
            int onIoThread = 0;
            for (int i = 0; i < 200; i++) {
                onIoThread += threads.plain().startsWith(IO) ? 1 : 0;
            }
            assertThat(onIoThread).isGreaterThanOrEqualTo(190);
        }
    }

    @Test
    void aCallThatStallsItsIoThreadSendsTheMethodBackToThePool() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).adaptiveDispatch(true)
                     .build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(new ThreadServiceImpl());
            ThreadService threads = proxy(client, server.start());
            callsUntilOnIoThread(() -> threads.sleepy(0));
            // A method sent back before a window's worth of calls on the IO threads gets a longer window; after
            // that many it starts again from the first. Make that many (the window was at most 10,000).
            int onIoThread = 0;
            long deadline = System.nanoTime() + LEARN_DEADLINE_NANOS;
            while (onIoThread < MAX_CALLS_TO_LEARN && System.nanoTime() < deadline) {
                onIoThread += threads.sleepy(0).startsWith(IO) ? 1 : 0;
            }
            assertThat(onIoThread).isEqualTo(MAX_CALLS_TO_LEARN);
            callsUntilOnIoThread(() -> threads.sleepy(0));

            // 60 ms: longer than a busy core or a pause holds up a call (a stall of 2 ms is tolerated once in 500).
            assertThat(threads.sleepy(60_000)).startsWith(IO);

            // The method moves back as the stalled call ends, which may come a moment after its answer: so
            // another connection's next call may still have run on its IO thread.
            assertThat(Stream.generate(() -> threads.sleepy(0)).limit(3)).anyMatch(thread -> thread.startsWith(POOL));
            // Back on the pool, it proves itself again over a window and returns.
            callsUntilOnIoThread(() -> threads.sleepy(0));
        }
    }

    @Test
    void aSlowMethodStaysOnThePool() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).adaptiveDispatch(true)
                     .build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(new ThreadServiceImpl());
            ThreadService threads = proxy(client, server.start());

            for (int i = 0; i < 1_300; i++) {
                assertThat(threads.sleepy(300)).as("call %d", i).startsWith(POOL);
            }
        }
    }

    @Test
    void aMethodThatWaitsForASynchronousCallStaysOnThePool() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).adaptiveDispatch(true)
                     .build();
             JupiterClient client = JupiterClient.builder().build();
             JupiterClient inner = JupiterClient.builder().build()) {
            server.register(new ThreadServiceImpl());
            InetSocketAddress address = server.start();
            ThreadService threads = proxy(inner, address);
            server.register(new RelayImpl(threads));
            Relay relay = client.proxy(Relay.class).address("127.0.0.1", address.getPort()).build();

            for (int i = 0; i < 1_300; i++) {
                String[] where = relay.relay().split("/");
                assertThat(where[0]).as("call %d", i).startsWith(POOL);
            }
        }
    }

    @Test
    void aMethodDeclaredBlockingStaysOnThePool() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).adaptiveDispatch(true)
                     .build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(new ThreadServiceImpl());
            ThreadService threads = proxy(client, server.start());

            for (int i = 0; i < 1_300; i++) {
                assertThat(threads.undeclaredByImplementation()).as("call %d", i).startsWith(POOL);
            }
        }
    }

    @Test
    void byDefaultUndeclaredMethodsStayOnThePool() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(new ThreadServiceImpl());
            ThreadService threads = proxy(client, server.start());

            for (int i = 0; i < 1_300; i++) {
                assertThat(threads.plain()).as("call %d", i).startsWith(POOL);
            }
            assertThat(threads.declaredOnInterface()).startsWith(IO);
        }
    }

    /** Calls {@code call} until it answers from an IO thread; returns how many calls that took. */
    private static int callsUntilOnIoThread(Supplier<String> call) {
        long deadline = System.nanoTime() + LEARN_DEADLINE_NANOS;
        for (int i = 1; i <= MAX_CALLS_TO_LEARN && System.nanoTime() < deadline; i++) {
            String thread = call.get();
            if (thread.startsWith(IO)) {
                return i;
            }
            assertThat(thread).startsWith(POOL);
        }
        throw new AssertionError("the method never moved to the IO threads");
    }

    private static ThreadService proxy(JupiterClient client, InetSocketAddress address) {
        return client.proxy(ThreadService.class).address("127.0.0.1", address.getPort()).build();
    }

    /** Calls another service synchronously. */
    @ServiceProvider(group = "test", name = "relay")
    public interface Relay {
        /** Its own thread, a slash, and the thread of the method it called. */
        String relay();
    }

    public static final class RelayImpl implements Relay {
        private final ThreadService next;

        RelayImpl(ThreadService next) {
            this.next = next;
        }

        @Override
        public String relay() {
            String own = Thread.currentThread().getName();
            return own + "/" + next.plain();
        }
    }
}
