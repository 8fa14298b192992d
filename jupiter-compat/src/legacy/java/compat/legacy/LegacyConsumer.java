package compat.legacy;

import compat.model.Values;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.jupiter.rpc.DefaultClient;
import org.jupiter.rpc.InvokeType;
import org.jupiter.rpc.JClient;
import org.jupiter.rpc.consumer.GenericProxyFactory;
import org.jupiter.rpc.consumer.ProxyFactory;
import org.jupiter.rpc.consumer.future.InvokeFuture;
import org.jupiter.rpc.consumer.future.InvokeFutureContext;
import org.jupiter.rpc.consumer.invoker.GenericInvoker;
import org.jupiter.serialization.SerializerType;
import org.jupiter.transport.JConnection;
import org.jupiter.transport.UnresolvedAddress;
import org.jupiter.transport.UnresolvedSocketAddress;
import org.jupiter.transport.netty.JNettyTcpConnector;

/**
 * A Jupiter 1.3.1 consumer driven by its standard input, one command a line:
 * {@code <scenario> <serializer> <port> <connections> [<idle millis>]}. Each command connects to 127.0.0.1:port, runs the scenario
 * and prints one line per case, then {@code end}:
 * <ul>
 *   <li>{@code case <name> PASS} / {@code case <name> FAIL <detail>}: an echo came back equal, or not;</li>
 *   <li>{@code case <name> VALUE <text>}: what a call returned;</li>
 *   <li>{@code case <name> THROWN <class>|<message>}: what it threw, with 1.3.1's wrappers removed.</li>
 * </ul>
 * {@code exit} (or the end of input) stops the program.
 */
public final class LegacyConsumer {

    private LegacyConsumer() {
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        while ((line = in.readLine()) != null && !line.trim().equals("exit")) {
            String[] words = line.trim().split(" ");
            try {
                run(words[0], SerializerType.valueOf(words[1]), Integer.parseInt(words[2]),
                        Integer.parseInt(words[3]), words.length > 4 ? Long.parseLong(words[4]) : 0);
            } catch (Throwable t) {
                print("case command THROWN " + describe(t));
            }
            print("end");
        }
        System.exit(0);
    }

    private static void run(String scenario, SerializerType serializer, int port, int connections, long idleMillis)
            throws Exception {
        JClient client = new DefaultClient("compat-legacy").withConnector(new JNettyTcpConnector());
        try {
            UnresolvedAddress address = new UnresolvedSocketAddress("127.0.0.1", port);
            for (int i = 0; i < connections; i++) {
                JConnection connection = client.connector().connect(address);
                client.connector().connectionManager().manage(connection);
            }
            // connect returns once the socket is connected; the channel joins its group when it becomes active, a
            // moment later on its event loop: a call in between throws "No channel" (seen on a loaded machine).
            if (connections > 0 && !client.connector().group(address).waitForAvailable(10000)) {
                throw new IllegalStateException("no channel to " + address + " became available within 10 s");
            }
            CompatService service = ProxyFactory.factory(CompatService.class).version("1.0.0").client(client)
                    .serializerType(serializer).timeoutMillis(20000).addProviderAddress(address).newProxyInstance();
            switch (scenario) {
                case "values":
                    values(service, serializer.name().toLowerCase());
                    break;
                case "calls":
                    calls(service);
                    break;
                case "notFound": {
                    CompatService missing = ProxyFactory.factory(CompatService.class).version("9.9.9")
                            .client(client).serializerType(serializer).timeoutMillis(20000)
                            .addProviderAddress(address).newProxyInstance();
                    outcome("notFound", () -> missing.str("x"));
                    break;
                }
                case "one":
                    outcome("one", () -> service.str("one"));
                    break;
                case "generic":
                    generic(client, address, serializer);
                    break;
                case "busy":
                    busy(client, address, serializer);
                    break;
                case "attachments":
                    attachments(service);
                    break;
                case "idle":
                    outcome("beforeIdle", () -> service.str("before"));
                    print("idle");
                    // The idle time is what is under test: only 1.3.1's heartbeats cross the connection meanwhile.
                    Thread.sleep(idleMillis);
                    outcome("afterIdle", () -> service.str("after"));
                    break;
                default:
                    print("case command FAIL unknown scenario " + scenario);
            }
        } finally {
            client.shutdownGracefully();
        }
    }

    private static void values(CompatService service, String serializer) throws Exception {
        for (Map.Entry<String, Object> c : Values.cases().entrySet()) {
            if (!Values.supported(serializer, c.getKey())) {
                continue;
            }
            Method method = null;
            for (Method m : CompatService.class.getMethods()) {
                if (m.getName().equals(c.getKey())) {
                    method = m;
                }
            }
            try {
                Object got = method.invoke(service, c.getValue());
                print("case " + c.getKey() + (Values.same(got, c.getValue()) ? " PASS"
                        : " FAIL sent " + Values.show(c.getValue()) + ", got " + Values.show(got)));
            } catch (Throwable t) {
                print("case " + c.getKey() + " FAIL " + describe(t));
            }
        }
    }

    private static void calls(CompatService service) {
        outcome("noArgs", service::noArgs);
        outcome("emptyStringArg", () -> service.str(""));
        outcome("nullArg", () -> String.valueOf(service.str(null)));
        outcome("nullsInTheMiddle", () -> service.three("a", null, "c"));
        outcome("declared", () -> service.declared("declared-message"));
        outcome("unexpected", () -> service.unexpected("unexpected-message"));
        outcome("future", () -> service.later("from-the-future").get(20, TimeUnit.SECONDS));
        outcome("futureFails", () -> service.laterFails("future-failed").get(20, TimeUnit.SECONDS));
    }

    private static void generic(JClient client, UnresolvedAddress address, SerializerType serializer) {
        GenericInvoker invoker = GenericProxyFactory.factory().group("compat").providerName("compat")
                .version("1.0.0").client(client).serializerType(serializer).timeoutMillis(20000)
                .addProviderAddress(address).newProxyInstance();
        outcome("genericString", () -> invoker.$invoke("str", "generic"));
        outcome("genericInt", () -> invoker.$invoke("i", 42));
        outcome("genericUser", () -> invoker.$invoke("user", Values.cases().get("user")));
    }

    /** Sends attachments the way a 1.3.1 user can: through a consumer {@code JFilter} (see LegacyAttachments). */
    private static void attachments(CompatService service) {
        Map<String, String> outgoing = new HashMap<>();
        outgoing.put("tenant", "legacy-acme");
        outgoing.put("trace-id", "t-131");
        LegacyAttachments.OUTGOING.set(outgoing);
        try {
            outcome("attachments", service::attachments);
        } finally {
            LegacyAttachments.OUTGOING.remove();
        }
        outcome("noAttachments", service::attachments);
    }

    /** Sends calls to a slow method without waiting; the provider (1 thread, 1 queued) refuses the rest. */
    private static void busy(JClient client, UnresolvedAddress address, SerializerType serializer) {
        CompatService async = ProxyFactory.factory(CompatService.class).version("1.0.0").client(client)
                .serializerType(serializer).timeoutMillis(20000).invokeType(InvokeType.ASYNC)
                .addProviderAddress(address).newProxyInstance();
        List<InvokeFuture<String>> futures = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            async.slow(1000);
            futures.add(InvokeFutureContext.future(String.class));
        }
        String busy = null;
        int slept = 0;
        for (InvokeFuture<String> future : futures) {
            try {
                if ("slept".equals(future.getResult())) {
                    slept++;
                }
            } catch (Throwable t) {
                if (busy == null) {
                    busy = describe(t);
                }
            }
        }
        print("case busySlept VALUE " + slept);
        print("case busy " + (busy == null ? "VALUE none" : "THROWN " + busy));
    }

    private interface Call {
        Object call() throws Throwable;
    }

    private static void outcome(String name, Call call) {
        try {
            print("case " + name + " VALUE " + call.call());
        } catch (Throwable t) {
            print("case " + name + " THROWN " + describe(t));
        }
    }

    private static String describe(Throwable t) {
        Throwable c = t;
        while ((c instanceof ExecutionException || c instanceof CompletionException
                || c instanceof InvocationTargetException || c instanceof UndeclaredThrowableException)
                && c.getCause() != null) {
            c = c.getCause();
        }
        return c.getClass().getName() + "|" + String.valueOf(c.getMessage()).replace('\n', ' ');
    }

    private static void print(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
