package io.jupiter.registry;

import io.jupiter.common.Requires;

/**
 * The coordinates of a service: group, provider name and version (1.3.1's {@code RegisterMeta.ServiceMeta}).
 */
public record ServiceMeta(String group, String name, String version) {

    public ServiceMeta {
        Requires.notBlank(group, "group");
        Requires.notBlank(name, "name");
        Requires.notBlank(version, "version");
    }

    @Override
    public String toString() {
        return group + '/' + name + '/' + version;
    }
}
