package io.jupiter.rpc.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceProvider;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.transport.Status;
import java.net.InetSocketAddress;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Which thread runs a provided method: the IO thread that read the request for methods declared never to block
 * ({@link io.jupiter.rpc.NonBlocking}, stages included), a provider thread for every other (an undeclared stage
 * too), and the IO threads for all with {@code providerThreads(0)}. Real server and client on 127.0.0.1; the methods
 * report their thread.
 */
class NonBlockingDispatchTest {

    private static final String IO = "jupiter-acceptor-worker-";
    private static final String POOL = "jupiter-provider-";

    @Test
    void declaredMethodsRunOnTheIoThreadAndTheRestOnTheProviderPool() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(new ThreadServiceImpl());
            ThreadService threads = proxy(client, server.start());

            assertThat(threads.plain()).startsWith(POOL);
            assertThat(threads.declaredOnInterface()).startsWith(IO);
            assertThat(threads.declaredOnImplementation()).startsWith(IO);
            assertThat(threads.undeclaredByImplementation()).startsWith(POOL);
            assertThat(threads.stage().get()).startsWith(POOL);
            assertThat(threads.declaredStage().get()).startsWith(IO);
            assertThat(threads.blockingStage().get()).startsWith(POOL);
            assertThat(threads.overloaded("a")).startsWith(POOL);
            assertThat(threads.overloaded(1)).startsWith(POOL);
        }
    }

    @Test
    void aClassDeclarationCoversEveryMethodButThoseThatSayOtherwise() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(new ThreadServiceImpl.AllNonBlocking());
            ThreadService threads = proxy(client, server.start());

            assertThat(threads.plain()).startsWith(IO);
            assertThat(threads.undeclaredByImplementation()).startsWith(POOL);
            assertThat(threads.blockingStage().get()).startsWith(POOL);
            assertThat(threads.overloaded("a")).startsWith(IO);
        }
    }

    @Test
    void withoutAPoolEveryMethodRunsOnTheIoThreads() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).providerThreads(0).build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(new ThreadServiceImpl());
            ThreadService threads = proxy(client, server.start());

            assertThat(threads.plain()).startsWith(IO);
            assertThat(threads.blockingStage().get()).startsWith(IO);
        }
    }

    @Test
    void interceptorsRunWhereTheirMethodRuns() throws Exception {
        CopyOnWriteArrayList<String> seen = new CopyOnWriteArrayList<>();
        Interceptor recordThread = new Interceptor() {
            @Override
            public void beforeInvoke(Invocation invocation) {
                seen.add(invocation.methodName() + "@" + Thread.currentThread().getName());
            }
        };
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).interceptor(recordThread)
                .build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(new ThreadServiceImpl());
            ThreadService threads = proxy(client, server.start());

            threads.declaredOnInterface();
            threads.plain();
            assertThat(seen).hasSize(2);
            assertThat(seen.get(0)).startsWith("declaredOnInterface@" + IO);
            assertThat(seen.get(1)).startsWith("plain@" + POOL);
        }
    }

    @Test
    void anUnknownServiceIsAnsweredWhenTheIoThreadReadsRequests() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(new ThreadServiceImpl());
            InetSocketAddress address = server.start();
            Missing missing = client.proxy(Missing.class).address("127.0.0.1", address.getPort()).build();

            Throwable failure = catchThrowable(missing::plain);

            assertThat(failure).isInstanceOf(RpcException.class).hasMessageContaining("service not found");
            assertThat(((RpcException) failure).status()).isEqualTo(Status.SERVICE_NOT_FOUND);
            assertThat(proxy(client, address).declaredOnInterface()).startsWith(IO);
        }
    }

    /** A service nobody provides. */
    @ServiceProvider(group = "test", name = "missing")
    public interface Missing {
        String plain();
    }

    private static ThreadService proxy(JupiterClient client, InetSocketAddress address) {
        return client.proxy(ThreadService.class).address("127.0.0.1", address.getPort()).build();
    }
}
