package io.jupiter.rpc.extension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.GateServiceAccess;
import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.ServiceProvider;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.transport.Status;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The deadline travels with the request; a provider drops a request whose deadline passed before it could run. */
class DeadlineEndToEndTest {

    @ServiceProvider(group = "test", name = "work")
    public interface WorkService {
        String work(String id);
    }

    static final class WorkImpl implements WorkService {
        final List<String> ran = new CopyOnWriteArrayList<>();

        @Override
        public String work(String id) {
            ran.add(id);
            return "done " + id;
        }
    }

    private final WorkImpl work = new WorkImpl();
    private final ContextService.Impl context = new ContextService.Impl();
    private GateServiceAccess gate;
    private JupiterServer server;
    private JupiterClient propagating;
    private JupiterClient plain;
    private String address;
    private JupiterServer contextServer;
    private String contextAddress;

    @BeforeEach
    void start() {
        // One provider thread: a request held at the gate makes the next ones wait in the queue.
        server = JupiterServer.builder().host("127.0.0.1").port(0).providerThreads(1).build();
        gate = new GateServiceAccess(1);
        gate.register(server);
        server.register(work, WorkService.class);
        address = "127.0.0.1:" + server.start().getPort();
        gate.address = address;
        // Its own server: relay() calls back into it, which one provider thread could not serve.
        contextServer = JupiterServer.builder().host("127.0.0.1").port(0).providerThreads(4).build();
        contextServer.register(context, ContextService.class, new ServiceKey("test", "context", "1.0.0"));
        contextAddress = "127.0.0.1:" + contextServer.start().getPort();
        propagating = JupiterClient.builder().propagateDeadline(true).build();
        plain = JupiterClient.builder().propagateDeadline(false).build(); // sends no deadline (the default sends one)
        context.downstream = plain.proxy(ContextService.class).address(contextAddress).timeoutMillis(10_000)
                .build();
    }

    @AfterEach
    void stop() {
        propagating.close();
        plain.close();
        server.close();
        contextServer.close();
    }

    private WorkService work(JupiterClient client, long timeoutMillis) {
        return client.proxy(WorkService.class).address(address).timeoutMillis(timeoutMillis).build();
    }

    @Test
    void aRequestWhoseDeadlinePassedInTheQueueIsDroppedNotRun() throws Exception {
        InvokeFuture<String> held = holdTheOnlyProviderThread();
        assertThatThrownBy(() -> work(propagating, 200).work("late")).isInstanceOf(TimeoutException.class);
        // The provider counts the 200 ms from when it received "late", a moment before the consumer gave up; once
        // another 200 ms passed its deadline has surely passed too. Here the passing of time is what is tested.
        Thread.sleep(200);
        gate.open();
        assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo("passed held");
        // Served after "late" had its turn on the one provider thread (FIFO).
        assertThat(work(propagating, 10_000).work("next")).isEqualTo("done next");
        assertThat(work.ran).containsExactly("next");
    }

    @Test
    void withoutADeadlineTheProviderStillRunsWhatTheConsumerGaveUpOn() throws Exception {
        InvokeFuture<String> held = holdTheOnlyProviderThread();
        assertThatThrownBy(() -> work(plain, 200).work("late")).isInstanceOf(TimeoutException.class);
        Thread.sleep(200);
        gate.open();
        assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo("passed held");
        assertThat(work(plain, 10_000).work("next")).isEqualTo("done next");
        assertThat(work.ran).containsExactly("late", "next");
    }

    @Test
    void aClientWithTheDefaultsSendsItsDeadline() throws Exception {
        // Issue #35: deadlines travel by default, so a provider can drop what a caller gave up on.
        try (JupiterClient defaults = JupiterClient.builder().build()) {
            ContextService context = defaults.proxy(ContextService.class).address(contextAddress)
                    .timeoutMillis(5_000).build();
            assertThat(context.remaining()).isBetween(1L, 5_000L);
        }
    }

    @Test
    void theProviderSeesTheRemainingTimeAndCarriesItDownstream() {
        ContextService viaPropagating = propagating.proxy(ContextService.class).address(contextAddress)
                .timeoutMillis(5_000).build();
        assertThat(viaPropagating.remaining()).isBetween(1L, 5_000L);
        ContextService viaPlain = plain.proxy(ContextService.class).address(contextAddress).timeoutMillis(5_000)
                .build();
        assertThat(viaPlain.remaining()).isEqualTo(Long.MAX_VALUE);

        // The downstream proxy waits 10 s and does not propagate on its own: the deadline comes from upstream.
        Map<String, String> downstream = viaPropagating.relay();
        assertThat(Long.parseLong(downstream.get("jupiter.timeout"))).isBetween(0L, 5_000L);
        assertThat(viaPlain.relay()).doesNotContainKey("jupiter.timeout");
    }

    @Test
    void aProviderDoesNotSendDownstreamCallsOnceItsOwnDeadlinePassed() throws Exception {
        ContextService caller = propagating.proxy(ContextService.class).address(contextAddress)
                .timeoutMillis(300).build();
        // The method outlives its caller's 300 ms (the sleep is what is tested), then calls downstream.
        assertThatThrownBy(() -> caller.relayAfter(500)).isInstanceOf(TimeoutException.class);
        Object relayed = context.relayed.poll(10, TimeUnit.SECONDS);
        assertThat(relayed).isInstanceOfSatisfying(TimeoutException.class, e -> {
            assertThat(e.status()).isEqualTo(Status.CLIENT_TIMEOUT);
            assertThat(e).hasMessageContaining("deadline of the request being served has passed");
        });
    }

    private InvokeFuture<String> holdTheOnlyProviderThread() throws InterruptedException {
        gate.proxy(plain, InvokeType.ASYNC).pass("held");
        InvokeFuture<String> held = InvokeFutureContext.future(String.class);
        gate.awaitEntered();
        return held;
    }
}
