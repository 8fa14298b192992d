package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.common.config.JupiterSettings;
import io.jupiter.rpc.exception.BadRequestException;
import io.jupiter.rpc.exception.ConnectionException;
import io.jupiter.rpc.exception.PayloadTooLargeException;
import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.SerializationFailedException;
import io.jupiter.rpc.exception.ServerBusyException;
import io.jupiter.rpc.exception.ServerErrorException;
import io.jupiter.rpc.exception.ServiceNotFoundException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.serialization.SerializerType;
import io.jupiter.transport.Acceptor;
import io.jupiter.transport.FrameHandler;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportFactory;
import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each way a call can fail ends with the right status and a message that says why. */
class RpcFailureTest {

    private JupiterServer server;
    private JupiterClient client;
    private String address;

    @BeforeEach
    void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        server.register(new EchoServiceImpl());
        address = "127.0.0.1:" + server.start().getPort();
        client = JupiterClient.builder().build();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private EchoService echo() {
        return client.proxy(EchoService.class).address(address).timeoutMillis(10_000).build();
    }

    @Test
    void declaredExceptionIsRethrownAsItself() {
        assertThatThrownBy(() -> echo().failChecked("declared"))
                .isInstanceOf(EchoService.CheckedFailure.class)
                .hasMessage("declared");
    }

    @Test
    void undeclaredExceptionKeepsRemoteClassAndMessage() {
        assertThatThrownBy(() -> echo().failUnchecked("boom"))
                .isInstanceOfSatisfying(RemoteServiceException.class, e -> {
                    assertThat(e.status()).isEqualTo(Status.SERVICE_UNEXPECTED_ERROR);
                    assertThat(e.remoteClassName()).isEqualTo("java.lang.IllegalStateException");
                    assertThat(e.remoteMessage()).isEqualTo("boom");
                    assertThat(e.getCause()).isInstanceOf(IllegalStateException.class);
                });
    }

    @Test
    void unknownVersionIsServiceNotFound() {
        EchoService wrongVersion = client.proxy(EchoService.class).address(address).version("9.9.9").build();
        assertThatThrownBy(wrongVersion::ping)
                .isInstanceOfSatisfying(ServiceNotFoundException.class, e -> {
                    assertThat(e.status()).isEqualTo(Status.SERVICE_NOT_FOUND);
                    assertThat(e.getMessage()).contains("test-echo-9.9.9");
                });
        assertThat(echo().ping()).isEqualTo("pong");
    }

    @Test
    void javaSerializationIsRefusedUnlessEnabled() {
        EchoService java = client.proxy(EchoService.class).address(address).serializer(SerializerType.JAVA).build();
        assertThatThrownBy(() -> java.hello("x"))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.status()).isEqualTo(Status.BAD_REQUEST);
                    assertThat(e.getMessage()).contains("does not accept the java serializer");
                });
    }

    @Test
    void fullExecutorAnswersServerBusyAtOnce() throws Exception {
        try (JupiterServer small = JupiterServer.builder().host("127.0.0.1").port(0).providerThreads(1)
                .queueCapacity(1).build()) {
            GateService.Impl gate = new GateService.Impl(1);
            small.register(gate);
            int port = small.start().getPort();
            GateService async = client.proxy(GateService.class).address("127.0.0.1", port)
                    .invokeType(InvokeType.ASYNC).timeoutMillis(20_000).build();
            async.pass("running");
            InvokeFuture<String> running = InvokeFutureContext.future(String.class);
            assertThat(gate.entered.await(10, TimeUnit.SECONDS)).isTrue();
            async.pass("queued");
            InvokeFuture<String> queued = InvokeFutureContext.future(String.class);
            async.pass("refused");
            InvokeFuture<String> refused = InvokeFutureContext.future(String.class);

            Throwable busy = causeOf(refused);
            assertThat(busy).isInstanceOf(ServerBusyException.class).hasMessageContaining("provider busy");
            assertThat(((RpcException) busy).isSafeToRetry()).isTrue();
            gate.gate.countDown();
            assertThat(running.get(10, TimeUnit.SECONDS)).isEqualTo("passed running");
            assertThat(queued.get(10, TimeUnit.SECONDS)).isEqualTo("passed queued");
        }
    }

    @Test
    void perMethodTimeoutEndsTheCallWithServerTimeout() {
        EchoService echo = client.proxy(EchoService.class).address(address).timeoutMillis(10_000)
                .methodTimeoutMillis("sleep", 200).build();
        assertThat(echo.ping()).isEqualTo("pong");
        long start = System.nanoTime();
        assertThatThrownBy(() -> echo.sleep(3_000))
                .isInstanceOfSatisfying(TimeoutException.class, e -> {
                    assertThat(e.status()).isEqualTo(Status.SERVER_TIMEOUT);
                    assertThat(e.getMessage()).contains("within 200 ms");
                });
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(3_000);
    }

    @Test
    void asyncTimeoutCompletesTheFuture() throws Exception {
        EchoService echo = client.proxy(EchoService.class).address(address).timeoutMillis(200)
                .invokeType(InvokeType.ASYNC).build();
        echo.sleep(3_000);
        InvokeFuture<String> future = InvokeFutureContext.future(String.class);
        assertThat(causeOf(future)).isInstanceOf(TimeoutException.class);
    }

    @Test
    void asyncCallsThatTimeOutTogetherEachFailAfterTheirTimeoutAndFreeTheirSlots() throws Exception {
        int window = 32;
        try (JupiterServer gated = withoutQueueTarget(() -> JupiterServer.builder().host("127.0.0.1").port(0)
                .providerThreads(2)
                .queueCapacity(4 * window).build());
             JupiterClient small = JupiterClient.builder().maxInFlight(window).build()) {
            GateService.Impl gate = new GateService.Impl(2);
            gated.register(gate);
            int port = gated.start().getPort();
            GateService async = small.proxy(GateService.class).address("127.0.0.1", port)
                    .invokeType(InvokeType.ASYNC).timeoutMillis(300).build();
            List<InvokeFuture<String>> held = new ArrayList<>();
            long[] sent = new long[window];
            for (int i = 0; i < window; i++) {
                sent[i] = System.nanoTime();
                async.pass("held " + i);
                held.add(InvokeFutureContext.future(String.class));
            }
            for (int i = 0; i < window; i++) {
                Throwable cause = causeOf(held.get(i));
                long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent[i]);
                assertThat(cause).isInstanceOfSatisfying(TimeoutException.class, e -> {
                    assertThat(e.status()).isEqualTo(Status.SERVER_TIMEOUT);
                    assertThat(e.getMessage()).contains("within 300 ms");
                });
                assertThat(waitedMillis).as("call %d failed before its timeout", i).isGreaterThanOrEqualTo(300);
            }
            gate.gate.countDown();
            // Every slot of the window came back with its timeout: a whole window more is sent and answered.
            GateService answered = small.proxy(GateService.class).address("127.0.0.1", port)
                    .invokeType(InvokeType.ASYNC).timeoutMillis(10_000).build();
            List<InvokeFuture<String>> next = new ArrayList<>();
            for (int i = 0; i < window; i++) {
                answered.pass("next " + i);
                next.add(InvokeFutureContext.future(String.class));
            }
            for (int i = 0; i < window; i++) {
                assertThat(next.get(i).get(20, TimeUnit.SECONDS)).isEqualTo("passed next " + i);
            }
        }
    }

    @Test
    void asyncCallsWithDifferentTimeoutsEachFailAtTheirOwn() throws Exception {
        try (JupiterServer gated = JupiterServer.builder().host("127.0.0.1").port(0).providerThreads(2).build()) {
            GateService.Impl gate = new GateService.Impl(2);
            gated.register(gate);
            int port = gated.start().getPort();
            GateService shortWait = client.proxy(GateService.class).address("127.0.0.1", port)
                    .invokeType(InvokeType.ASYNC).timeoutMillis(300).build();
            GateService longWait = client.proxy(GateService.class).address("127.0.0.1", port)
                    .invokeType(InvokeType.ASYNC).timeoutMillis(2_000).build();
            long sent = System.nanoTime();
            longWait.pass("long");
            InvokeFuture<String> longer = InvokeFutureContext.future(String.class);
            shortWait.pass("short");
            InvokeFuture<String> shorter = InvokeFutureContext.future(String.class);
            try {
                // The sweep that fails the short one leaves the long one, and comes back for it at its deadline.
                assertThat(causeOf(shorter)).isInstanceOf(TimeoutException.class).hasMessageContaining("within 300 ms");
                long shortMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
                assertThat(longer).as("the long call is still waiting").isNotDone();
                assertThat(causeOf(longer)).isInstanceOf(TimeoutException.class)
                        .hasMessageContaining("within 2000 ms");
                long longMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
                assertThat(shortMillis).isGreaterThanOrEqualTo(300);
                assertThat(longMillis).isGreaterThanOrEqualTo(2_000);
            } finally {
                gate.gate.countDown();
            }
        }
    }

    @Test
    void requestAboveTheBodyCapIsRefusedBeforeSending() {
        EchoService echo = client.proxy(EchoService.class).address(address).timeoutMillis(30_000).build();
        String huge = "x".repeat(TransportConfig.DEFAULT_MAX_BODY_SIZE + 1);
        assertThatThrownBy(() -> echo.hello(huge))
                .isInstanceOfSatisfying(PayloadTooLargeException.class, e -> {
                    assertThat(e.status()).isEqualTo(Status.CLIENT_ERROR);
                    assertThat(e.getMessage()).contains("above the 5242880-byte body cap");
                });
        assertThat(echo.ping()).as("the connection is still fine").isEqualTo("pong");
    }

    @Test
    void responseAboveTheBodyCapIsAServerErrorNotATimeout() {
        EchoService echo = client.proxy(EchoService.class).address(address).timeoutMillis(30_000).build();
        assertThatThrownBy(() -> echo.fill(TransportConfig.DEFAULT_MAX_BODY_SIZE + 1))
                .isInstanceOfSatisfying(ServerErrorException.class, e -> {
                    assertThat(e.status()).isEqualTo(Status.SERVER_ERROR);
                    assertThat(e.getMessage()).contains("the result is").contains("-byte body cap");
                });
        assertThat(echo.ping()).as("the connection is still fine").isEqualTo("pong");
    }

    @Test
    void noProviderIsAConnectionError() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        EchoService echo = client.proxy(EchoService.class).address("127.0.0.1", closedPort).timeoutMillis(300)
                .build();
        assertThatThrownBy(echo::ping).isInstanceOfSatisfying(ConnectionException.class,
                e -> assertThat(e.status()).isEqualTo(Status.CLIENT_ERROR));
    }

    @Test
    void droppedConnectionFailsInFlightCallsAtOnce() {
        try (Acceptor dropper = rawProvider((connection, frame) -> {
            frame.release();
            connection.close();
        })) {
            InetSocketAddress bound = (InetSocketAddress) dropper.start();
            EchoService echo = client.proxy(EchoService.class).address("127.0.0.1", bound.getPort())
                    .timeoutMillis(60_000).build();
            assertThatThrownBy(echo::ping)
                    .isInstanceOfSatisfying(ConnectionException.class,
                            e -> assertThat(e.getMessage()).contains("closed before the response"));
        }
    }

    @Test
    void unreadableResponseIsDeserializationFail() {
        try (Acceptor garbage = rawProvider((connection, frame) -> {
            ByteBuf response = Frames.newFrame(connection.alloc(), 4);
            response.writeInt(0xdeadbeef);
            Frames.fillHeader(response, ProtocolHeader.toSign(frame.serializerCode(), ProtocolHeader.RESPONSE),
                    Status.OK.value(), frame.id());
            frame.release();
            connection.write(response);
        })) {
            InetSocketAddress bound = (InetSocketAddress) garbage.start();
            EchoService echo = client.proxy(EchoService.class).address("127.0.0.1", bound.getPort())
                    .timeoutMillis(10_000).build();
            assertThatThrownBy(echo::ping).isInstanceOfSatisfying(SerializationFailedException.class,
                    e -> assertThat(e.status()).isEqualTo(Status.DESERIALIZATION_FAIL));
        }
    }

    @Test
    void closingTheClientFailsWaitingCalls() {
        GateService.Impl gate = new GateService.Impl(1);
        server.register(gate);
        JupiterClient closing = JupiterClient.builder().build();
        GateService async = closing.proxy(GateService.class).address(address).invokeType(InvokeType.ASYNC)
                .timeoutMillis(20_000).build();
        async.pass("left behind");
        InvokeFuture<String> future = InvokeFutureContext.future(String.class);
        try {
            assertThat(gate.entered.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        closing.close();
        assertThat(causeOf(future)).isInstanceOf(ConnectionException.class);
        gate.gate.countDown();
    }

    private static Acceptor rawProvider(FrameHandler handler) {
        TransportConfig config = TransportConfig.builder().threadNamePrefix("raw-provider").ioThreads(1).build();
        return TransportFactory.load().newAcceptor(config, new InetSocketAddress("127.0.0.1", 0), handler);
    }

    private static Throwable causeOf(CompletableFuture<?> future) {
        try {
            future.get(20, TimeUnit.SECONDS);
            throw new AssertionError("expected the call to fail");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Builds a server with the queue of before issue #35 (no queue target): this test holds its provider threads on
     * purpose, which makes the queue stand, and is about something else than shedding it.
     */
    private static JupiterServer withoutQueueTarget(Supplier<JupiterServer> build) {
        String property = JupiterSettings.QUEUE_TARGET_MILLIS.property();
        System.setProperty(property, "0");
        try {
            return build.get();
        } finally {
            System.clearProperty(property);
        }
    }
}
