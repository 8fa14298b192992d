package io.jupiter.monitor.internal;

import io.jupiter.monitor.JsonReport;
import io.jupiter.monitor.PrometheusText;
import io.jupiter.monitor.RegistryView;
import io.jupiter.monitor.TextReport;
import io.jupiter.rpc.ConsumedService;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceKey;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The console's commands that produce text (everything but {@code auth} and {@code quit}, which change the
 * session). Each returns its whole answer, lines ending with {@link #NEWLINE}.
 */
public final class Commands {

    /** Telnet's line ending. */
    public static final String NEWLINE = "\r\n";

    static final String HELP = String.join(NEWLINE,
            "-- Help ------------------------------------------------------------------------",
            "help                                      this text",
            "auth <password>                           unlock the commands marked *",
            "ls                                      * services provided and consumed, with addresses and state",
            "metrics -report                         * metrics as text",
            "        -json                           * metrics as one JSON object",
            "        -prometheus                     * metrics in Prometheus text format",
            "stack                                   * every thread's stack",
            "memory_usage                            * heap and non-heap memory usage",
            "registry -address -p|-s [-grep x]       * publisher (-p) or subscriber (-s) addresses",
            "         -by_service <group> <name> <version> [-grep x]",
            "                                        * provider addresses of a service",
            "         -by_address <host> <port> [-grep x]",
            "                                        * services published at an address",
            "quit                                      close this session",
            "");

    private final Attached attached;

    public Commands(Attached attached) {
        this.attached = attached;
    }

    String help() {
        return HELP;
    }

    String ls() {
        StringBuilder out = new StringBuilder();
        out.append("Provider side: ----------------------------------------------------------------").append(NEWLINE);
        if (attached.servers().isEmpty()) {
            out.append("  (no server attached)").append(NEWLINE);
        }
        for (JupiterServer server : attached.servers()) {
            InetSocketAddress bound = server.localAddress();
            String where = bound == null ? "-" : bound.getHostString() + ':' + bound.getPort();
            String state = bound == null ? "not started" : "serving";
            for (ServiceKey key : server.providedServices()) {
                out.append("  ").append(key).append(" | ").append(where).append(" | ").append(state).append(NEWLINE);
            }
        }
        out.append("Consumer side: ----------------------------------------------------------------").append(NEWLINE);
        if (attached.clients().isEmpty()) {
            out.append("  (no client attached)").append(NEWLINE);
        }
        // A client often builds several proxies of one service (one per invoke type, say): one line each.
        Map<String, Integer> proxies = new LinkedHashMap<>();
        for (JupiterClient client : attached.clients()) {
            for (ConsumedService service : client.consumedServices()) {
                int connected = 0;
                List<String> targets = new ArrayList<>();
                for (ConsumedService.Target t : service.targets()) {
                    targets.add(t.address().getHostString() + ':' + t.address().getPort() + " ("
                            + t.activeConnections() + (t.activeConnections() == 1 ? " connection)" : " connections)"));
                    if (t.activeConnections() > 0) {
                        connected++;
                    }
                }
                String state = connected == service.targets().size() ? "connected"
                        : connected == 0 ? "not connected" : "partly connected";
                proxies.merge(service.key() + " | " + String.join(", ", targets) + " | " + state, 1, Integer::sum);
            }
        }
        proxies.forEach((line, count) -> out.append("  ").append(line)
                .append(count == 1 ? "" : " | " + count + " proxies").append(NEWLINE));
        return out.toString();
    }

    String metrics(String[] words) {
        String option = words.length == 2 ? words[1].toLowerCase(Locale.ROOT) : "";
        switch (option) {
            case "-report":
                return TextReport.render(attached.metrics(), NEWLINE);
            case "-json":
                return JsonReport.render(attached.metrics()) + NEWLINE;
            case "-prometheus":
                return PrometheusText.render(attached.metrics()).replace("\n", NEWLINE);
            default:
                return "usage: metrics -report | -json | -prometheus" + NEWLINE;
        }
    }

    String stack() {
        StringBuilder out = new StringBuilder(16 * 1024);
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            Thread t = e.getKey();
            out.append('"').append(t.getName()).append("\" tid=").append(t.getId()).append(" isDaemon=")
                    .append(t.isDaemon()).append(" priority=").append(t.getPriority()).append(NEWLINE);
            out.append("  java.lang.Thread.State: ").append(t.getState()).append(NEWLINE);
            for (StackTraceElement frame : e.getValue()) {
                out.append("    at ").append(frame).append(NEWLINE);
            }
            out.append(NEWLINE);
        }
        return out.toString();
    }

    String memoryUsage() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        return "*** Memory Usage ***" + NEWLINE
                + "Heap Memory Usage: " + memory.getHeapMemoryUsage() + NEWLINE
                + "NonHeap Memory Usage: " + memory.getNonHeapMemoryUsage() + NEWLINE;
    }

    String registry(String[] words) {
        RegistryView registry = attached.registry();
        if (registry == null) {
            return "no registry attached" + NEWLINE;
        }
        String grep = null;
        int end = words.length;
        if (end >= 2 && words[end - 2].equalsIgnoreCase("-grep")) {
            grep = words[end - 1];
            end -= 2;
        }
        String option = end >= 2 ? words[1].toLowerCase(Locale.ROOT) : "";
        List<String> lines = new ArrayList<>();
        switch (option) {
            case "-address":
                if (end == 3 && words[2].equals("-p")) {
                    lines.addAll(registry.publisherAddresses());
                } else if (end == 3 && words[2].equals("-s")) {
                    lines.addAll(registry.subscriberAddresses());
                } else {
                    return "usage: registry -address -p|-s [-grep x]" + NEWLINE;
                }
                break;
            case "-by_service":
                if (end != 5) {
                    return "usage: registry -by_service <group> <name> <version> [-grep x]" + NEWLINE;
                }
                lines.addAll(registry.providersOf(new ServiceKey(words[2], words[3], words[4])));
                break;
            case "-by_address":
                int port = end == 4 ? parsePort(words[3]) : -1;
                if (port < 0) {
                    return "usage: registry -by_address <host> <port 0-65535> [-grep x]" + NEWLINE;
                }
                registry.servicesAt(words[2], port).forEach(k -> lines.add(k.toString()));
                break;
            default:
                return "usage: registry -address -p|-s | -by_service <group> <name> <version>"
                        + " | -by_address <host> <port> [-grep x]" + NEWLINE;
        }
        StringBuilder out = new StringBuilder();
        for (String line : lines) {
            if (grep == null || line.contains(grep)) {
                out.append(line).append(NEWLINE);
            }
        }
        return out.length() == 0 ? "(none)" + NEWLINE : out.toString();
    }

    private static int parsePort(String text) {
        try {
            int port = Integer.parseInt(text);
            return port >= 0 && port <= 65535 ? port : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
