package compat.legacy;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where the 1.3.1 programs keep attachments: the ones a consumer thread wants sent (read by
 * {@link ConsumerAttachmentFilter}) and the ones of the request a provider thread serves (set by
 * {@link ProviderAttachmentFilter}). 1.3.1 has no request context of its own, and its {@code ConsumerInterceptor}
 * runs after the body was serialized, so a filter is the only way attachments reach the wire.
 */
public final class LegacyAttachments {

    static final ThreadLocal<Map<String, String>> OUTGOING = new ThreadLocal<>();
    static final ThreadLocal<Map<String, String>> SERVING = new ThreadLocal<>();

    private LegacyAttachments() {
    }

    /** The attachments of the request this thread serves, as {@code k=v;k=v} sorted by key. */
    static String serving() {
        Map<String, String> attachments = SERVING.get();
        return format(attachments == null ? Collections.<String, String>emptyMap() : attachments);
    }

    static String format(Map<String, String> attachments) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, String> e : new TreeMap<>(attachments).entrySet()) {
            if (out.length() > 0) {
                out.append(';');
            }
            out.append(e.getKey()).append('=').append(e.getValue());
        }
        return out.toString();
    }
}
