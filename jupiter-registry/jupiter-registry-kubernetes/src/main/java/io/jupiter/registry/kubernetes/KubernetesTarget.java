package io.jupiter.registry.kubernetes;

import io.jupiter.common.Requires;
import io.jupiter.registry.internal.RegistryUrl;
import java.net.URI;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a {@code kubernetes://} URL names: {@code kubernetes://NAMESPACE[?portName=NAME][&apiServer=URL]}.
 *
 * @param namespace the namespace whose EndpointSlices are watched (the consumer's own, usually)
 * @param portName  the Service port to connect to ({@value ServiceLabels#DEFAULT_PORT_NAME} by default)
 * @param apiServer the API server's URL, or {@code null} to take it, with the credentials, from the pod's service
 *                  account or the kubeconfig as the Kubernetes client finds them
 */
public record KubernetesTarget(String namespace, String portName, String apiServer) {

    /** The scheme of these addresses. */
    public static final String SCHEME = "kubernetes";

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    public KubernetesTarget {
        Requires.notNull(namespace, "namespace");
        Requires.argument(DNS_LABEL.matcher(namespace).matches(), "namespace: '" + namespace
                + "' (expected: a Kubernetes namespace name, lower-case letters, digits and '-')");
        Requires.notBlank(portName, "portName");
        if (apiServer != null) {
            URI uri = URI.create(apiServer);
            Requires.argument(("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))
                    && uri.getHost() != null, "apiServer: '" + apiServer + "' (expected: https://host:port)");
        }
    }

    /**
     * Parses what follows {@code kubernetes://}.
     *
     * @throws IllegalArgumentException naming the bad part
     */
    public static KubernetesTarget parse(String address) {
        RegistryUrl url = RegistryUrl.parse(address);
        String namespace = url.address().trim();
        String portName = ServiceLabels.DEFAULT_PORT_NAME;
        String apiServer = null;
        for (Map.Entry<String, String> parameter : url.parameters()) {
            String key = parameter.getKey();
            switch (key) {
                case "portName" -> portName = parameter.getValue();
                case "apiServer" -> apiServer = parameter.getValue();
                default -> throw new IllegalArgumentException("kubernetes registry: unknown parameter '" + key
                        + "' in '" + address + "' (expected: portName, apiServer)");
            }
        }
        return new KubernetesTarget(namespace, portName, apiServer);
    }
}
