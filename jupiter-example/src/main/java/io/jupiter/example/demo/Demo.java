package io.jupiter.example.demo;

import io.jupiter.benchmark.driver.Flags;
import io.jupiter.example.MonitorOption;
import io.jupiter.example.demo.GreeterService.GreetingRefusedException;
import io.jupiter.monitor.MonitorServer;
import io.jupiter.monitor.TextReport;
import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.example.registry.RegistryServerView;
import io.jupiter.registry.embedded.RegistryServer;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.serialization.SerializerType;
import java.net.InetSocketAddress;
import java.util.List;
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
        return new Demo().runAll(new Flags(argv, 1, MonitorOption.FLAGS));
    }

    private int runAll(Flags args) throws Exception {
        MonitorServer monitor = null;
        // The embedded registry, in this process: the provider publishes to it, the consumer finds the provider there.
        try (RegistryServer registry = RegistryServer.builder().host("127.0.0.1").port(0).build()) {
            String registryUrl = "default://127.0.0.1:" + registry.start().getPort();
            System.out.println("registry: listening on " + registryUrl);
            try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).registry(registryUrl)
                    .serializers(SerializerType.values()).build();
                 JupiterClient client = JupiterClient.builder().appName("demo").registry(registryUrl).build()) {
                server.register(new GreeterServiceImpl());
                InetSocketAddress bound = server.start();
                System.out.println("provider: demo/greeter/1.0.0 listening on " + bound + ", published to "
                        + registryUrl);
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
        sum.whenComplete((value, error) -> callback.complete(error == null ? "callback got " + value : error.toString()));
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
