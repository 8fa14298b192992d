package io.jupiter.monitor;

import io.jupiter.rpc.ServiceKey;
import java.util.List;

/**
 * What the console's {@code registry} commands read from a registry. A registry module implements it and hands it
 * to {@link MonitorServer.Builder#registry}; without one those commands answer {@code no registry attached}.
 * Addresses are {@code host:port} strings.
 */
public interface RegistryView {

    /** Addresses of the providers that published to the registry. */
    List<String> publisherAddresses();

    /** Addresses of the consumers subscribed to the registry. */
    List<String> subscriberAddresses();

    /** Provider addresses of one service. */
    List<String> providersOf(ServiceKey service);

    /** The services published from one provider address. */
    List<ServiceKey> servicesAt(String host, int port);
}
