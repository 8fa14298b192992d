package io.jupiter.rpc.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.Timer;
import io.jupiter.rpc.ConsumedService;
import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ProxyBuilder;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.context.RpcContext;
import io.jupiter.rpc.exception.ServiceNotFoundException;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.rpc.metrics.MetricNames;
import io.jupiter.testkit.Await;
import io.jupiter.transport.Status;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every consumer call goes through one pipeline, so every cluster strategy keeps its promise whatever else is in the
 * chain: the matrix {no user stage, an interceptor, a service-loaded filter, a call made inside a provider method,
 * propagateDeadline} x {fail-fast, fail-over, fail-safe, broadcast} x {sync, CompletableFuture, async}, against real
 * servers on 127.0.0.1. One of them provides nothing, so calls that reach it end SERVICE_NOT_FOUND (0x44, safe to
 * retry).
 */
class ConsumerPipelineTest {

    enum UserStage { NONE, INTERCEPTOR, FILTER, IN_PROVIDER, DEADLINE }

    enum Strategy { FAIL_FAST, FAIL_OVER, FAIL_SAFE, BROADCAST }

    enum Mode { SYNC, FUTURE, ASYNC }

    private static final ServiceKey KEY = new ServiceKey("test", "matrix", "1.0.0");
    private static final int CALLS = 20;

    private static final MatrixService.Impl a = new MatrixService.Impl("a");
    private static final MatrixService.Impl b = new MatrixService.Impl("b");
    private static final RelayService.Impl relay = new RelayService.Impl();
    private static final List<AutoCloseable> toClose = new ArrayList<>();
    private static String addressA;
    private static String addressB;
    private static String emptyAddress;
    private static int portA;
    private static int portB;
    private static JupiterClient plain;
    private static JupiterClient propagating;
    private static RelayService relayProxy;

    private final Counting interceptor = new Counting("interceptor");

    @BeforeAll
    static void start() {
        portA = server(a);
        portB = server(b);
        addressA = "127.0.0.1:" + portA;
        addressB = "127.0.0.1:" + portB;
        emptyAddress = "127.0.0.1:" + server(null);
        JupiterServer relayServer = JupiterServer.builder().host("127.0.0.1").port(0).build();
        relayServer.register(relay);
        toClose.add(relayServer);
        String relayAddress = "127.0.0.1:" + relayServer.start().getPort();
        // "plain" sends no deadline, as before issue #35 made sending it the default; "propagating" sends it.
        plain = JupiterClient.builder().appName("matrix").propagateDeadline(false).build();
        propagating = JupiterClient.builder().appName("matrix-deadline").propagateDeadline(true).build();
        JupiterClient relayClient = JupiterClient.builder().appName("relay").propagateDeadline(false).build();
        toClose.add(plain);
        toClose.add(propagating);
        toClose.add(relayClient);
        relayProxy = relayClient.proxy(RelayService.class).address(relayAddress).timeoutMillis(60_000).build();
    }

    /** A server providing {@code impl}, or nothing at all when it is {@code null}; returns its port. */
    private static int server(MatrixService.Impl impl) {
        JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        if (impl != null) {
            server.register(impl);
        }
        toClose.add(server);
        return server.start().getPort();
    }

    @AfterAll
    static void stop() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    @BeforeEach
    void clear() {
        a.clear();
        b.clear();
        if (MatrixFilter.loaded != null) {
            MatrixFilter.loaded.clear();
        }
    }

    static Stream<Arguments> matrix() {
        List<Arguments> all = new ArrayList<>();
        for (UserStage stage : UserStage.values()) {
            for (Strategy strategy : Strategy.values()) {
                for (Mode mode : Mode.values()) {
                    all.add(Arguments.of(stage, strategy, mode));
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} x {1} x {2}")
    @MethodSource("matrix")
    void everyStrategyKeepsItsPromiseWhateverElseIsInTheChain(UserStage stage, Strategy strategy, Mode mode)
            throws Throwable {
        if (strategy == Strategy.BROADCAST && mode == Mode.SYNC) {
            assertThatThrownBy(() -> build(stage, strategy, mode)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("broadcast & sync unsupported");
            return;
        }
        JupiterClient client = stage == UserStage.DEADLINE ? propagating : plain;
        MatrixService proxy = build(stage, strategy, mode);
        awaitAllConnected(client);
        String method = mode == Mode.FUTURE ? "whoLater" : "who";
        long attemptsBefore = timerCount(client, method) + timerCount(client, method.replace("who", "broken"));

        int[] calls = new int[1];
        RelayService.Scenario scenario = () -> calls[0] = exercise(strategy, mode, proxy);
        if (stage == UserStage.IN_PROVIDER) {
            runInsideAProviderMethod(scenario);
        } else {
            scenario.run();
        }

        // Every attempt is timed, whatever the stages (the old second path skipped the method timer).
        long attempts = timerCount(client, method) + timerCount(client, method.replace("who", "broken"))
                - attemptsBefore;
        int expectedAttempts = strategy == Strategy.BROADCAST ? 2 * calls[0] : calls[0];
        if (strategy == Strategy.FAIL_OVER) {
            assertThat(attempts).as("attempts timed: retries included").isGreaterThan(expectedAttempts);
        } else {
            assertThat(attempts).as("attempts timed").isEqualTo(expectedAttempts);
        }
        checkUserStage(stage, strategy, calls[0]);
    }

    /** Makes the calls of one strategy and checks its promise; returns the number of calls made. */
    private static int exercise(Strategy strategy, Mode mode, MatrixService proxy) throws Throwable {
        switch (strategy) {
            case FAIL_FAST: {
                // One attempt, its failure handed over as it is: calls reaching the empty server fail, never retried.
                int whoBefore = a.whoCalls.get();
                int ok = 0;
                int notFound = 0;
                for (int i = 0; i < CALLS; i++) {
                    try {
                        assertThat(call(mode, proxy, false)).isEqualTo("a");
                        ok++;
                    } catch (ServiceNotFoundException e) {
                        notFound++;
                    }
                }
                assertThat(notFound).as("calls that reached the server without the service").isPositive();
                assertThat(ok).as("calls that reached the provider").isPositive();
                assertThat(a.whoCalls.get() - whoBefore).as("each call ran at most once").isEqualTo(ok);
                return CALLS;
            }
            case FAIL_OVER: {
                // Calls that reach the empty server (0x44: surely not run) are retried on the provider: none fails.
                int whoBefore = a.whoCalls.get();
                for (int i = 0; i < CALLS; i++) {
                    assertThat(call(mode, proxy, false)).isEqualTo("a");
                }
                assertThat(a.whoCalls.get() - whoBefore).as("each call ran once").isEqualTo(CALLS);
                return CALLS;
            }
            case FAIL_SAFE: {
                // A method that throws returns the default value of its return type; it ran once, not retried.
                int brokenBefore = a.brokenCalls.get();
                Object defaultValue = mode == Mode.FUTURE ? null : (Object) 0;
                for (int i = 0; i < CALLS - 1; i++) {
                    assertThat(call(mode, proxy, true)).isEqualTo(defaultValue);
                }
                assertThat(a.brokenCalls.get() - brokenBefore).isEqualTo(CALLS - 1);
                assertThat(call(mode, proxy, false)).isEqualTo("a");
                return CALLS;
            }
            default: {
                // Every provider runs the call once; the results come as a list in provider order (by port).
                int aBefore = a.whoCalls.get();
                int bBefore = b.whoCalls.get();
                List<String> inOrder = portA < portB ? List.of("a", "b") : List.of("b", "a");
                int calls = 5;
                for (int i = 0; i < calls; i++) {
                    assertThat(call(mode, proxy, false)).isEqualTo(inOrder);
                }
                assertThat(a.whoCalls.get() - aBefore).isEqualTo(calls);
                assertThat(b.whoCalls.get() - bBefore).isEqualTo(calls);
                return calls;
            }
        }
    }

    /** What the user stage saw (interceptor, filter) or carried to the provider (context, deadline). */
    private void checkUserStage(UserStage stage, Strategy strategy, int calls) {
        List<Map<String, String>> served = new ArrayList<>(a.attachments);
        served.addAll(b.attachments);
        List<Long> remaining = new ArrayList<>(a.remaining);
        remaining.addAll(b.remaining);
        assertThat(served).isNotEmpty();
        switch (stage) {
            case NONE:
                assertThat(served).allSatisfy(m -> assertThat(m).isEmpty());
                assertThat(remaining).allSatisfy(r -> assertThat(r).isEqualTo(Long.MAX_VALUE));
                break;
            case INTERCEPTOR:
            case FILTER: {
                Counting seen = stage == UserStage.FILTER ? MatrixFilter.loaded : interceptor;
                // Once per call, not per attempt; afterInvoke exactly once, with the outcome the caller got.
                assertThat(seen.before).as("beforeInvoke").hasValue(calls);
                assertThat(seen.after).as("afterInvoke").hasValue(calls);
                // Its attachment went with every attempt, the retried ones included.
                assertThat(served).allSatisfy(m -> assertThat(m).containsEntry("by", seen.name));
                switch (strategy) {
                    case FAIL_FAST:
                        assertThat(seen.statuses).containsOnly(Status.OK, Status.SERVICE_NOT_FOUND)
                                .contains(Status.SERVICE_NOT_FOUND);
                        break;
                    case FAIL_OVER:
                        assertThat(seen.statuses).containsOnly(Status.OK);
                        // The provider of the last attempt: the one that answered.
                        assertThat(seen.peers).hasSize(calls).allSatisfy(
                                p -> assertThat(((InetSocketAddress) p).getPort()).isEqualTo(portA));
                        break;
                    case FAIL_SAFE:
                        // The caller's outcome: the default value, not the failure fail-safe logged.
                        assertThat(seen.statuses).containsOnly(Status.OK);
                        break;
                    default:
                        assertThat(seen.results).allSatisfy(r -> assertThat(r).isInstanceOf(List.class));
                        break;
                }
                break;
            }
            case IN_PROVIDER:
                // The request being served carried "hop" = "relay"; every call made while serving it carries it on.
                assertThat(served).allSatisfy(m -> assertThat(m).containsEntry("hop", "relay"));
                break;
            default:
                assertThat(served).allSatisfy(m -> assertThat(m).containsKey("jupiter.timeout"));
                assertThat(remaining).allSatisfy(r -> assertThat(r).isBetween(1L, 5_000L));
                break;
        }
    }

    private MatrixService build(UserStage stage, Strategy strategy, Mode mode) {
        JupiterClient client = stage == UserStage.DEADLINE ? propagating : plain;
        ProxyBuilder<MatrixService> builder = client.proxy(MatrixService.class).timeoutMillis(5_000);
        if (mode == Mode.ASYNC) {
            builder.invokeType(InvokeType.ASYNC);
        }
        switch (strategy) {
            case FAIL_FAST:
                builder.address(emptyAddress).address(addressA).cluster(ClusterStrategy.failFast());
                break;
            case FAIL_OVER:
                builder.address(emptyAddress).address(addressA).cluster(ClusterStrategy.failOver(2));
                break;
            case FAIL_SAFE:
                builder.address(addressA).cluster(ClusterStrategy.failSafe());
                break;
            default:
                builder.address(addressA).address(addressB);
                if (mode == Mode.FUTURE) {
                    builder.methodCluster("whoLater", ClusterStrategy.broadcast());
                } else {
                    builder.cluster(ClusterStrategy.broadcast());
                }
                break;
        }
        if (stage == UserStage.INTERCEPTOR) {
            builder.interceptor(interceptor);
        }
        if (stage != UserStage.FILTER) {
            return builder.build();
        }
        MatrixFilter.enableFor(Thread.currentThread());
        try {
            return builder.build();
        } finally {
            MatrixFilter.disable();
        }
    }

    /** One call of {@code who} (or {@code broken}) the way {@code mode} makes it; throws what the call ended with. */
    private static Object call(Mode mode, MatrixService proxy, boolean broken) throws Throwable {
        switch (mode) {
            case SYNC:
                return broken ? proxy.broken() : proxy.who();
            case FUTURE:
                return get(broken ? proxy.brokenLater() : proxy.whoLater());
            default:
                Object ignored = broken ? (Object) proxy.broken() : proxy.who();
                return get(InvokeFutureContext.future(Object.class));
        }
    }

    private static Object get(CompletableFuture<?> future) throws Throwable {
        try {
            return future.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause();
        }
    }

    private static void runInsideAProviderMethod(RelayService.Scenario scenario) throws Throwable {
        relay.failure = null;
        relay.scenario = scenario;
        String outcome;
        try (RpcContext.Scope ignored = RpcContext.attach("hop", "relay")) {
            outcome = relayProxy.run();
        }
        if (relay.failure != null) {
            throw relay.failure;
        }
        assertThat(outcome).isEqualTo("ok");
    }

    /** Waits until the proxy built last has an open connection to each of its addresses. */
    private static void awaitAllConnected(JupiterClient client) {
        Await.until("the proxy connected to all its addresses", Duration.ofSeconds(10), () -> {
            List<ConsumedService> consumed = client.consumedServices();
            return consumed.get(consumed.size() - 1).targets().stream().allMatch(t -> t.activeConnections() > 0);
        });
    }

    private static long timerCount(JupiterClient client, String method) {
        Timer timer = client.metrics().registry().getTimers().get(MetricNames.method(KEY, method));
        return timer == null ? 0 : timer.getCount();
    }

    // ---- the probe of the issue ----

    @Test
    void failOverWithAnInterceptorLosesNoCall() {
        MatrixService service = plain.proxy(MatrixService.class).address(emptyAddress).address(addressA)
                .cluster(ClusterStrategy.failOver(2)).interceptor(new Counting("does nothing") {
                    @Override
                    public void beforeInvoke(Invocation invocation) {
                    }
                }).build();
        awaitAllConnected(plain);
        int failed = 0;
        for (int i = 0; i < 200; i++) {
            try {
                assertThat(service.who()).isEqualTo("a");
            } catch (ServiceNotFoundException e) {
                failed++;
            }
        }
        assertThat(failed).as("failed calls of 200").isZero();
    }

    @Test
    void failSafeWithAnInterceptorReturnsTheDefaultValue() {
        Counting seen = new Counting("seen");
        MatrixService service = plain.proxy(MatrixService.class).address(addressA)
                .cluster(ClusterStrategy.failSafe()).interceptor(seen).build();
        assertThat(service.broken()).isZero();
        assertThat(seen.after).hasValue(1);
    }
}
