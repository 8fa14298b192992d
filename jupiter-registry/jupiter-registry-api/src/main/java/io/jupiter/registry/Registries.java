package io.jupiter.registry;

import io.jupiter.common.Requires;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** Finds a {@link RegistryFactory} by scheme and connects. */
public final class Registries {

    /** The scheme used when a URL names none. */
    public static final String DEFAULT_SCHEME = "default";

    private Registries() {
    }

    /**
     * Connects to the registry a URL names: {@code scheme://host:port[,host:port...]}, e.g.
     * {@code default://127.0.0.1:20001} or {@code zookeeper://zk1:2181,zk2:2181}. Without a scheme,
     * {@code default} is used.
     *
     * @throws IllegalArgumentException if the URL is malformed or no registry of that scheme is on the class path
     */
    public static RegistryService connect(String url) {
        Requires.notBlank(url, "registry");
        int separator = url.indexOf("://");
        String scheme = separator < 0 ? DEFAULT_SCHEME : url.substring(0, separator).trim();
        String addresses = separator < 0 ? url.trim() : url.substring(separator + 3).trim();
        Requires.argument(!addresses.isEmpty(), "registry: '" + url + "' (expected: scheme://host:port)");
        return factory(scheme).connect(addresses);
    }

    /** The factory for a scheme. */
    public static RegistryFactory factory(String scheme) {
        List<String> found = new ArrayList<>();
        for (RegistryFactory factory : ServiceLoader.load(RegistryFactory.class, Registries.class.getClassLoader())) {
            if (factory.scheme().equals(scheme)) {
                return factory;
            }
            found.add(factory.scheme());
        }
        throw new IllegalArgumentException("no registry '" + scheme + "' on the class path (found " + found
                + "; add io.jupiter:jupiter-registry-" + scheme + ")");
    }

    /**
     * Splits {@code host:port[,host:port...]} into validated addresses.
     *
     * @throws IllegalArgumentException naming the bad part
     */
    public static List<ProviderAddress> parseAddresses(String addresses) {
        Requires.notBlank(addresses, "addresses");
        List<ProviderAddress> result = new ArrayList<>();
        for (String raw : addresses.split(",")) {
            String part = raw.trim();
            int colon = part.lastIndexOf(':');
            if (colon <= 0 || colon == part.length() - 1) {
                throw new IllegalArgumentException("address: '" + part + "' (expected: host:port)");
            }
            int port;
            try {
                port = Integer.parseInt(part.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("address: '" + part + "' (expected: host:port)", e);
            }
            result.add(new ProviderAddress(part.substring(0, colon), Requires.inRange(port, 1, 65535, "port")));
        }
        return result;
    }
}
