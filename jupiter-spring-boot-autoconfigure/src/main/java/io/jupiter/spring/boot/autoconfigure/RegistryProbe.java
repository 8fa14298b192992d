package io.jupiter.spring.boot.autoconfigure;

import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.Registries;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;

/**
 * Whether a registry answers: a TCP connection to one of the URL's addresses opens within the timeout (for any
 * registry kind: the embedded one, ZooKeeper). It says nothing of what the registry holds.
 */
final class RegistryProbe {

    private final List<ProviderAddress> addresses;
    private final int timeoutMillis;

    /** For a registry URL {@code scheme://host:port[,host:port]}. */
    RegistryProbe(String url, int timeoutMillis) {
        int separator = url.indexOf("://");
        this.addresses = Registries.parseAddresses(separator < 0 ? url : url.substring(separator + 3));
        this.timeoutMillis = timeoutMillis;
    }

    /**
     * Whether a registry URL names {@code host:port} addresses to probe; {@code kubernetes://NAMESPACE} names none
     * (that registry is the API server the client finds by itself, and a provider never talks to it).
     */
    static boolean hasAddresses(String url) {
        int separator = url.indexOf("://");
        try {
            Registries.parseAddresses(separator < 0 ? url : url.substring(separator + 3));
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Whether one of the addresses accepted a connection. */
    boolean reachable() {
        for (ProviderAddress address : addresses) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(address.host(), address.port()), timeoutMillis);
                return true;
            } catch (IOException e) {
                // try the next one
            }
        }
        return false;
    }
}
