package io.jupiter.example;

import io.jupiter.example.benchmark.BenchmarkClient;
import io.jupiter.example.benchmark.BenchmarkServer;
import io.jupiter.example.benchmark.ConnectionCost;
import io.jupiter.example.benchmark.RawEchoClient;
import io.jupiter.example.benchmark.RawEchoServer;
import io.jupiter.example.demo.Demo;
import io.jupiter.example.registry.RegistryCommand;
import java.io.IOException;
import java.net.BindException;
import java.util.Arrays;

/**
 * Entry point of {@code jupiter-example.jar}: {@code java -jar jupiter-example.jar <command> [--flag value ...]}.
 */
public final class Main {

    private static final String USAGE = String.join(System.lineSeparator(),
            "usage: java -jar jupiter-example.jar <command> [flags]",
            "  demo                 a provider and a consumer in one process, through the embedded registry, every",
            "                       kind of call, then the metrics",
            "                       [--monitor-port P [--monitor-host 127.0.0.1] [--monitor-http-port Q]]",
            "                       [--tls-cert F --tls-key F [--tls-trust F --tls-client-auth]]  (TLS on every port)",
            "  registry             --port 20001 --host 127.0.0.1  (the embedded registry server, standalone; give",
            "                       --host 0.0.0.0 to serve other machines, with a secret)",
            "                       [--tls-cert F --tls-key F [--tls-trust F --tls-client-auth]]  (TLS only; clients",
            "                       then need -Djupiter.registry.tls.trust=F [-Djupiter.registry.tls.cert/key=F])",
            "  benchmark-server     --port 18099 --host 0.0.0.0 --provider-threads N --io-threads N --metrics on|off",
            "                       (serves test/service/1.0.0 and the user scenarios' test/userService/1.0.0)",
            "                       --registry default://host:20001|zookeeper://host:2181  (publish there)",
            "                       [--unix-socket PATH]  (serve on a Unix domain socket instead of host:port)",
            "                       [--monitor-port P [--monitor-host 127.0.0.1] [--monitor-http-port Q]]",
            "                       [--stats-interval S]  (soak: heap, direct memory and GC every S seconds)",
            "                       [--tls-cert F --tls-key F [--tls-trust F --tls-client-auth]]  (TLS; with the",
            "                       switch, clients need a certificate of the --tls-trust CAs)",
            "                       (the monitor's password comes from JUPITER_MONITOR_PASSWORD)",
            "  benchmark-client     --host 127.0.0.1 --port 18099 --mode sync|future --threads 32 --warmup 5",
            "                       --seconds 30 --payload small|16b|1k|16k|256k|1m",
            "                       --serializer protostuff|hessian|kryo|java",
            "                       --connections 1 --metrics on|off [--interval S]  (soak: a line every S seconds)",
            "                       --registry URL  (find the servers there, not at host:port)",
            "                       [--unix-socket PATH]  (call a benchmark-server on that Unix domain socket)",
            "                       [--tls-trust F [--tls-cert F --tls-key F]]  (TLS: trust F's CAs; present a cert)",
            "                       --scenario hello|existUser|createUser|getUser|listUser  (default hello; the",
            "                       user scenarios are the rpc-benchmark's and take no --payload)",
            "  raw-echo-server      --port 18098 --host 0.0.0.0 --io-threads N  (same framing, no RPC: the ceiling)",
            "  raw-echo-client      same flags as benchmark-client but --port defaults to 18098 (no --scenario,",
            "                       --metrics or --registry)",
            "  connection-cost      --target jupiter|raw --counts 1,10,100,1000,10000 --io-threads 2 --timeout 300",
            "                       [--server-jvm-options \"-Xms1g -Xmx1g\"]  (heap and direct memory per idle",
            "                       connection, client and server; each JVM needs ulimit -n above the largest count)",
            "environment: JUPITER_REGISTRY_SECRET (16 bytes or more) is the embedded registry's shared secret: "
                    + "registry",
            "  and demo's registry require it, the registry clients of demo, benchmark-server and benchmark-client",
            "  prove it (all must have the same one; unset: no secret, the registry wire of 1.3.1)");

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || isHelp(args[0]) || (args.length > 1 && isHelp(args[1]))) {
            System.out.println(USAGE);
            return;
        }
        int status;
        try {
            status = switch (args[0]) {
                case "demo" -> Demo.run(args);
                case "registry" -> RegistryCommand.run(args);
                case "benchmark-server" -> BenchmarkServer.run(args);
                case "benchmark-client" -> BenchmarkClient.run(args);
                case "raw-echo-server" -> RawEchoServer.run(args);
                case "raw-echo-client" -> RawEchoClient.run(args);
                case "connection-cost" -> ConnectionCost.run(args);
                case "connection-cost-server" -> ConnectionCost.serve(args);
                default -> throw new IllegalArgumentException("unknown command '" + args[0] + "'");
            };
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage() + " in " + Arrays.toString(args));
            System.err.println(USAGE);
            status = 2;
        } catch (Exception e) {
            IOException taken = bindFailure(e);
            if (taken == null) {
                throw e;
            }
            // A port in use is the user's to fix, not a bug: one line, no stack trace.
            System.err.println("error: " + args[0] + " cannot listen: " + (e.getMessage() != null ? e.getMessage()
                    : taken.getMessage()));
            status = 1;
        }
        System.exit(status);
    }

    private static boolean isHelp(String arg) {
        return arg.equals("help") || arg.equals("--help") || arg.equals("-h");
    }

    /**
     * The failure to bind behind {@code e}, or {@code null}: a {@link BindException}, or the I/O error native epoll
     * raises for {@code EADDRINUSE}.
     */
    private static IOException bindFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException
                    || (t instanceof IOException && String.valueOf(t.getMessage()).contains("already in use"))) {
                return (IOException) t;
            }
        }
        return null;
    }
}
