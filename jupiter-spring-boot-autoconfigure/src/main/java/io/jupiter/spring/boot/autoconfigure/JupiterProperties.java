package io.jupiter.spring.boot.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code jupiter.*} properties. A property left unset keeps the default of the builder it goes to
 * ({@code JupiterServer.Builder}, {@code JupiterClient.Builder}, {@code ProxyBuilder}, {@code MonitorServer.Builder}),
 * which its description names; only the settings that exist nowhere else have their default here. Every value is
 * checked when the context starts: a bad one fails the start with a message naming the property.
 */
@ConfigurationProperties(prefix = "jupiter")
public class JupiterProperties {

    private final Registry registry = new Registry();
    private final Server server = new Server();
    private final Client client = new Client();
    private final Monitor monitor = new Monitor();

    /** The registry server and client use unless they name their own. */
    public Registry getRegistry() {
        return registry;
    }

    /** The provider side: serves the beans whose class carries {@code @ServiceProviderImpl}. */
    public Server getServer() {
        return server;
    }

    /** The consumer side: makes the proxies injected with {@code @JupiterReference}. */
    public Client getClient() {
        return client;
    }

    /** The telnet console of {@code jupiter-monitor} (needs that module on the class path). */
    public Monitor getMonitor() {
        return monitor;
    }

    /** {@code jupiter.registry.*}. */
    public static class Registry {

        /**
         * Registry URL, e.g. {@code default://127.0.0.1:20001} (the embedded registry) or
         * {@code zookeeper://zk1:2181,zk2:2181}. Unset: no registry; consumers need an address.
         */
        private String address;

        public String getAddress() {
            return address;
        }

        public void setAddress(String address) {
            this.address = address;
        }
    }

    /** {@code jupiter.server.*}. */
    public static class Server {

        /** Whether to serve the {@code @ServiceProviderImpl} beans. Without such beans no port is bound. */
        private boolean enabled = true;
        /** Address to bind; unset: {@code 0.0.0.0} (the builder's). */
        private String host;
        /** Port; unset: 18090 (the builder's, as 1.3.1); 0 picks a free one. */
        private Integer port;
        /** Host consumers are told to connect to; unset: the bind host, or the registry's view if wildcard. */
        private String advertisedHost;
        /** Registry to publish to; unset: {@code jupiter.registry.address}. */
        private String registry;
        /** Provider threads; unset: max(4, 2 x processors) (the builder's); 0 runs requests on the IO threads. */
        private Integer providerThreads;
        /** Requests that may wait for a provider thread before SERVER_BUSY; unset: 8192 (the builder's). */
        private Integer queueCapacity;
        /** Published weight, 0 to 100; unset: 50 (the builder's, as 1.3.1). */
        private Integer weight;
        /** Connections each consumer should keep; unset: min(processors, 4) (the builder's). */
        private Integer connCount;
        /**
         * Serializers requests may use ({@code protostuff}, {@code hessian}, {@code kryo}, {@code java}); unset:
         * protostuff, hessian and kryo (the builder's). Java serialization only when listed.
         */
        private List<String> serializers = new ArrayList<>();
        /** Whether to record metrics; unset: on ({@code -Djupiter.metrics.enabled}, the builder's). */
        private Boolean metrics;
        /**
         * Longest wait on shutdown for consumers to stop sending and the calls already accepted to finish; keep it
         * below {@code spring.lifecycle.timeout-per-shutdown-phase} (30 s by default).
         */
        private Duration shutdownTimeout = Duration.ofSeconds(20);

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getHost() {
            return host;
        }

        public void setHost(String host) {
            this.host = host;
        }

        public Integer getPort() {
            return port;
        }

        public void setPort(Integer port) {
            this.port = port;
        }

        public String getAdvertisedHost() {
            return advertisedHost;
        }

        public void setAdvertisedHost(String advertisedHost) {
            this.advertisedHost = advertisedHost;
        }

        public String getRegistry() {
            return registry;
        }

        public void setRegistry(String registry) {
            this.registry = registry;
        }

        public Integer getProviderThreads() {
            return providerThreads;
        }

        public void setProviderThreads(Integer providerThreads) {
            this.providerThreads = providerThreads;
        }

        public Integer getQueueCapacity() {
            return queueCapacity;
        }

        public void setQueueCapacity(Integer queueCapacity) {
            this.queueCapacity = queueCapacity;
        }

        public Integer getWeight() {
            return weight;
        }

        public void setWeight(Integer weight) {
            this.weight = weight;
        }

        public Integer getConnCount() {
            return connCount;
        }

        public void setConnCount(Integer connCount) {
            this.connCount = connCount;
        }

        public List<String> getSerializers() {
            return serializers;
        }

        public void setSerializers(List<String> serializers) {
            this.serializers = serializers;
        }

        public Boolean getMetrics() {
            return metrics;
        }

        public void setMetrics(Boolean metrics) {
            this.metrics = metrics;
        }

        public Duration getShutdownTimeout() {
            return shutdownTimeout;
        }

        public void setShutdownTimeout(Duration shutdownTimeout) {
            this.shutdownTimeout = shutdownTimeout;
        }
    }

    /** {@code jupiter.client.*}. */
    public static class Client {

        /** Application name sent with every request; unset: {@code spring.application.name}, else "UNKNOWN". */
        private String appName;
        /** Registry proxies look providers up in; unset: {@code jupiter.registry.address}. */
        private String registry;
        /** Timeout of a call when its {@code @JupiterReference} names none; unset: 3 s (the proxy builder's). */
        private Duration timeout;
        /** Serializer of requests when a {@code @JupiterReference} names none; unset: protostuff. */
        private String serializer;
        /** Threads for async responses and callbacks; unset: number of processors (the builder's). */
        private Integer consumerThreads;
        /** Calls that may wait for a response at once; unset: 4096 (the builder's). */
        private Integer maxInFlight;
        /** Whether every call sends its timeout to the provider as a deadline; unset: off (the builder's). */
        private Boolean propagateDeadline;
        /** Whether to record metrics; unset: on ({@code -Djupiter.metrics.enabled}, the builder's). */
        private Boolean metrics;

        public String getAppName() {
            return appName;
        }

        public void setAppName(String appName) {
            this.appName = appName;
        }

        public String getRegistry() {
            return registry;
        }

        public void setRegistry(String registry) {
            this.registry = registry;
        }

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }

        public String getSerializer() {
            return serializer;
        }

        public void setSerializer(String serializer) {
            this.serializer = serializer;
        }

        public Integer getConsumerThreads() {
            return consumerThreads;
        }

        public void setConsumerThreads(Integer consumerThreads) {
            this.consumerThreads = consumerThreads;
        }

        public Integer getMaxInFlight() {
            return maxInFlight;
        }

        public void setMaxInFlight(Integer maxInFlight) {
            this.maxInFlight = maxInFlight;
        }

        public Boolean getPropagateDeadline() {
            return propagateDeadline;
        }

        public void setPropagateDeadline(Boolean propagateDeadline) {
            this.propagateDeadline = propagateDeadline;
        }

        public Boolean getMetrics() {
            return metrics;
        }

        public void setMetrics(Boolean metrics) {
            this.metrics = metrics;
        }
    }

    /** {@code jupiter.monitor.*}. */
    public static class Monitor {

        /** Whether to start the console (then {@code jupiter.monitor.password} is required). */
        private boolean enabled;
        /** Console address; unset: 127.0.0.1 (the builder's: loopback only). */
        private String host;
        /** Console port; unset: 19999 (the builder's); 0 picks a free one. */
        private Integer port;
        /** Port of the Prometheus / JSON HTTP endpoint on the same host; unset: off. */
        private Integer httpPort;
        /** Password of the console, at least 8 characters; required when enabled. Kept only as a salted hash. */
        private String password;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getHost() {
            return host;
        }

        public void setHost(String host) {
            this.host = host;
        }

        public Integer getPort() {
            return port;
        }

        public void setPort(Integer port) {
            this.port = port;
        }

        public Integer getHttpPort() {
            return httpPort;
        }

        public void setHttpPort(Integer httpPort) {
            this.httpPort = httpPort;
        }

        public String getPassword() {
            return password;
        }

        public void setPassword(String password) {
            this.password = password;
        }
    }
}
