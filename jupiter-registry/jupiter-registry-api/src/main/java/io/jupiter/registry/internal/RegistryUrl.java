package io.jupiter.registry.internal;

import io.jupiter.common.Requires;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What follows a registry URL's {@code scheme://}, split at the first {@code ?}: {@code ADDRESS[?KEY=VALUE[&...]]}.
 *
 * @param address    what comes before the {@code ?}, untrimmed
 * @param parameters the {@code KEY=VALUE} pairs in the order written, repeats kept (a key without {@code =} has
 *                   the value {@code ""})
 */
public record RegistryUrl(String address, List<Map.Entry<String, String>> parameters) {

    public RegistryUrl {
        Requires.notNull(address, "address");
        parameters = List.copyOf(parameters);
    }

    /** Splits {@code url}, which must not be blank. */
    public static RegistryUrl parse(String url) {
        Requires.notBlank(url, "address");
        int query = url.indexOf('?');
        if (query < 0) {
            return new RegistryUrl(url, List.of());
        }
        List<Map.Entry<String, String>> parameters = new ArrayList<>();
        for (String parameter : url.substring(query + 1).split("&")) {
            int equals = parameter.indexOf('=');
            String key = equals < 0 ? parameter : parameter.substring(0, equals);
            String value = equals < 0 ? "" : parameter.substring(equals + 1);
            parameters.add(Map.entry(key, value));
        }
        return new RegistryUrl(url.substring(0, query), parameters);
    }
}
