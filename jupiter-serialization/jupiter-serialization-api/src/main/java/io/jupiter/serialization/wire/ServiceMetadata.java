package io.jupiter.serialization.wire;

import java.io.Serializable;
import java.util.Objects;

/**
 * The service a request is addressed to: group, provider name and version.
 *
 * <p>Field names, order and types are Jupiter 1.3.1's {@code org.jupiter.rpc.model.metadata.ServiceMetadata}
 * (protostuff numbers them 1, 2, 3 in this order). Do not add, remove or reorder fields.
 */
public final class ServiceMetadata implements Serializable {

    private static final long serialVersionUID = -8908295634641380163L;

    private String group;
    private String serviceProviderName;
    private String version;

    private transient String directory;

    /** For serializers only. */
    public ServiceMetadata() {
    }

    public ServiceMetadata(String group, String serviceProviderName, String version) {
        this.group = group;
        this.serviceProviderName = serviceProviderName;
        this.version = version;
    }

    public String getGroup() {
        return group;
    }

    public String getServiceProviderName() {
        return serviceProviderName;
    }

    public String getVersion() {
        return version;
    }

    /** {@code group-name-version}, the key providers are looked up by (as in 1.3.1). */
    public String directory() {
        String d = directory;
        if (d == null) {
            d = group + '-' + serviceProviderName + '-' + version;
            directory = d;
        }
        return d;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ServiceMetadata)) {
            return false;
        }
        ServiceMetadata that = (ServiceMetadata) o;
        return Objects.equals(group, that.group) && Objects.equals(serviceProviderName, that.serviceProviderName)
                && Objects.equals(version, that.version);
    }

    @Override
    public int hashCode() {
        return Objects.hash(group, serviceProviderName, version);
    }

    @Override
    public String toString() {
        return "ServiceMetadata{group='" + group + "', serviceProviderName='" + serviceProviderName
                + "', version='" + version + "'}";
    }
}
