package io.jupiter.registry.kubernetes;

import io.jupiter.registry.ServiceMeta;
import java.util.regex.Pattern;

/**
 * The labels that tie a Kubernetes Service to a Jupiter service key. They go on the Service; Kubernetes copies a
 * Service's labels onto every EndpointSlice it makes for it (but not its annotations), and EndpointSlices are all a
 * consumer reads, so the consumer needs no right on Services or Pods.
 *
 * <pre>
 * metadata:
 *   labels:
 *     jupiter.io/group: Jupiter                  # ServiceMeta.group
 *     jupiter.io/service: org.example.Greeter    # ServiceMeta.name
 *     jupiter.io/version: 1.0.0                  # ServiceMeta.version
 *     jupiter.io/weight: "50"                    # optional, 0..100, default 50
 *     jupiter.io/connections: "4"                # optional, 1..64, default jupiter.rpc.suggest.connection.count
 * spec:
 *   ports:
 *     - name: jupiter                            # the port consumers connect to (a registry URL may name another)
 * </pre>
 *
 * A label value has at most 63 characters, letters, digits, {@code -}, {@code _} and {@code .}, starting and ending
 * with a letter or digit: a service key whose parts do not fit cannot be found through Kubernetes (subscribing to it
 * fails with a message saying so); give the service a shorter name.
 */
public final class ServiceLabels {

    /** The group of the service key. */
    public static final String GROUP = "jupiter.io/group";
    /** The name of the service key (the provider name, by default the interface's name). */
    public static final String SERVICE = "jupiter.io/service";
    /** The version of the service key. */
    public static final String VERSION = "jupiter.io/version";
    /** Optional: the weight of every endpoint of the Service, 0 to 100 (default 50). */
    public static final String WEIGHT = "jupiter.io/weight";
    /** Optional: the connections a consumer keeps to each endpoint, 1 to 64. */
    public static final String CONNECTIONS = "jupiter.io/connections";
    /** The name of the Service port consumers connect to, unless the registry URL names another. */
    public static final String DEFAULT_PORT_NAME = "jupiter";

    private static final Pattern LABEL_VALUE = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");

    private ServiceLabels() {
    }

    /** Whether {@code value} may be a label value. */
    public static boolean isLabelValue(String value) {
        return LABEL_VALUE.matcher(value).matches();
    }

    /**
     * Checks that every part of a service key can be a label value.
     *
     * @throws IllegalArgumentException naming the part that cannot
     */
    public static ServiceMeta checkLabelable(ServiceMeta service) {
        check(service, "group", service.group());
        check(service, "name", service.name());
        check(service, "version", service.version());
        return service;
    }

    private static void check(ServiceMeta service, String part, String value) {
        if (!isLabelValue(value)) {
            throw new IllegalArgumentException("service " + service + ": its " + part + " '" + value
                    + "' cannot be a Kubernetes label value (expected: at most 63 letters, digits, '-', '_' or '.', "
                    + "starting and ending with a letter or digit)");
        }
    }
}
