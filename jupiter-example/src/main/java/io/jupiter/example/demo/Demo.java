package io.jupiter.example.demo;

import io.jupiter.benchmark.driver.Flags;
import io.jupiter.example.MonitorOption;
import io.jupiter.example.TlsOption;
import io.jupiter.example.demo.GreeterService.GreetingRefusedException;
import io.jupiter.example.registry.RegistryServerView;
import io.jupiter.monitor.MonitorServer;
import io.jupiter.monitor.TextReport;
import io.jupiter.registry.embedded.EmbeddedRegistryFactory;
import io.jupiter.registry.embedded.RegistryServer;
import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.serialization.SerializerType;
import io.jupiter.transport.TlsConfig;
import io.jupiter.transport.TransportConfig;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code demo}: a provider and a consumer in one process, on 127.0.0.1. For every serializer it makes a sync call,
 * a CompletableFuture call, an async call with a callback, and shows how a declared exception, an undeclared one
 * and a timeout reach the caller. Exits 0 only if every step behaved as expected.
 */
public final class Demo {

    private int failures;

    private Demo() {
    }

    public static int run(String[] argv) throws Exception {
        Set<String> flags = new HashSet<>(MonitorOption.FLAGS);
        flags.addAll(TlsOption.FLAGS);
        return new Demo().runAll(new Flags(argv, 1, flags, TlsOption.SWITCHES));
    }

    private int runAll(Flags args) throws Exception {
        MonitorServer monitor = null;
        // With --tls-*, every port speaks TLS: the registry's, the provider's; the consumer and both registry clients
        // trust --tls-trust (or the certificate itself) and present the certificate when --tls-client-auth asks.
        TlsConfig serverTls = TlsOption.server(args);
        TlsConfig clientTls = TlsOption.sameProcessClient(serverTls);
        if (clientTls != null) {
            // The registry clients JupiterServer and JupiterClient make from the URL read these.
            System.setProperty(EmbeddedRegistryFactory.TLS_TRUST, clientTls.trustFile().toString());
            if (clientTls.hasKeyPair()) {
                System.setProperty(EmbeddedRegistryFactory.TLS_CERT, clientTls.certificateFile().toString());
                System.setProperty(EmbeddedRegistryFactory.TLS_KEY, clientTls.keyFile().toString());
            }
        }
        // The embedded registry, in this process: the provider publishes to it, the consumer finds the provider there.
        // With JUPITER_REGISTRY_SECRET set, the registry requires it, and the registry clients made from the URL below
        // read it from there too.
        try (RegistryServer registry = RegistryServer.builder().host("127.0.0.1").port(0).tls(serverTls)
                .secret(EmbeddedRegistryFactory.secretFromEnvironment()).build()) {
            String registryUrl = "default://127.0.0.1:" + registry.start().getPort();
            System.out.println("registry: listening on " + registryUrl + (serverTls == null ? "" : " (TLS)"));
            try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).registry(registryUrl)
                    .serializers(SerializerType.values())
                    .transportConfig(TransportConfig.builder().threadNamePrefix("jupiter-acceptor").writerIdleMillis(0)
                            .tls(serverTls).build()).build();
                 JupiterClient client = JupiterClient.builder().appName("demo").registry(registryUrl)
                         .transportConfig(TransportConfig.builder().threadNamePrefix("jupiter-connector")
                                 .readerIdleMillis(0).tls(clientTls).build()).build()) {
                server.register(new GreeterServiceImpl());
                InetSocketAddress bound = server.start();
                System.out.println("provider: demo/greeter/1.0.0 listening on " + bound + ", published to "
                        + registryUrl + (serverTls == null ? "" : serverTls.requireClientAuth()
                        ? " (TLS, client certificates required)" : " (TLS)"));
                monitor = MonitorOption.start(args, server, client, new RegistryServerView(registry));
                for (SerializerType serializer : SerializerType.values()) {
                    System.out.println("-- serializer " + serializer.id());
                    GreeterService sync = client.proxy(GreeterService.class).serializer(serializer)
                            .methodTimeoutMillis("slow", 200).build();
                    GreeterService async = client.proxy(GreeterService.class).serializer(serializer)
                            .invokeType(InvokeType.ASYNC).build();
                    calls(sync, async);
                }
                System.out.println();
                System.out.print(TextReport.render(List.of(server.metrics(), client.metrics()),
                        System.lineSeparator()));
                if (monitor != null) {
                    System.out.println("monitor: the console stays up until this process is stopped (Ctrl-C)");
                    CountDownLatch stopped = new CountDownLatch(1);
                    Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "demo-shutdown"));
                    stopped.await();
                }
            }
        } finally {
            if (monitor != null) {
                monitor.close();
            }
            if (clientTls != null) {
                System.clearProperty(EmbeddedRegistryFactory.TLS_TRUST);
                System.clearProperty(EmbeddedRegistryFactory.TLS_CERT);
                System.clearProperty(EmbeddedRegistryFactory.TLS_KEY);
            }
        }
        System.out.println(failures == 0 ? "demo: every call behaved as expected" : "demo: " + failures + " FAILED");
        return failures == 0 ? 0 : 1;
    }

    private void calls(GreeterService sync, GreeterService async) throws Exception {
        check("sync           greet(\"jupiter\")", sync.greet("jupiter"), "Hello, jupiter!");
        check("sync           add(40, 2)", sync.add(40, 2), 42);

        CompletableFuture<String> later = sync.greetLater("jupiter");
        check("future         greetLater(\"jupiter\")", later.get(5, TimeUnit.SECONDS), "Hello later, jupiter!");

        async.add(1, 2);
        InvokeFuture<Integer> sum = InvokeFutureContext.future(Integer.class);
        CompletableFuture<String> callback = new CompletableFuture<>();
        sum.whenComplete((value, error) ->
                callback.complete(error == null ? "callback got " + value : error.toString()));
        check("async          add(1, 2) + whenComplete", callback.get(5, TimeUnit.SECONDS), "callback got 3");

        try {
            sync.refuse("bob");
            fail("declared error", "no exception");
        } catch (GreetingRefusedException e) {
            check("declared error refuse(\"bob\")", e.getClass().getSimpleName() + ": " + e.getMessage(),
                    "GreetingRefusedException: no greeting for bob");
        }
        try {
            sync.crash("bob");
            fail("remote error", "no exception");
        } catch (RemoteServiceException e) {
            check("remote error   crash(\"bob\")", e.status() + " " + e.getMessage(),
                    "SERVICE_UNEXPECTED_ERROR java.lang.IllegalStateException: greeter crashed on bob");
        }
        try {
            sync.slow(1_000);
            fail("timeout", "no exception");
        } catch (TimeoutException e) {
            check("timeout        slow(1000) with a 200 ms method timeout", e.status().toString(), "SERVER_TIMEOUT");
        }
    }

    private void check(String what, Object actual, Object expected) {
        boolean ok = expected.equals(actual);
        System.out.printf("  %-58s -> %s%s%n", what, actual, ok ? "" : "   <-- MISMATCH, wanted " + expected);
        if (!ok) {
            failures++;
        }
    }

    private void fail(String what, String why) {
        System.out.printf("  %-58s -> FAILED: %s%n", what, why);
        failures++;
    }
}
