package io.jupiter.protocol.http;

import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.filter.Deadlines;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What an HTTP/JSON request's headers add to its call, over HTTP/1.1 and HTTP/2 alike: a deadline
 * ({@value #TIMEOUT}: the milliseconds the caller waits, as gRPC's {@code grpc-timeout} is for gRPC) and
 * attachments ({@value #ATTACHMENT}{@code <key>}: one attachment each, its key in lower case). Other headers are
 * not passed on. A timeout that is not a whole number of milliseconds from 1 to a day, an attachment key that is
 * empty or the framework's own ({@code jupiter.}), or more than {@value GrpcMetadata#MAX_ATTACHMENTS} attachments
 * refuse the request {@code 400}.
 */
final class JsonMetadata {

    /** The header that gives a call its deadline, in milliseconds. */
    static final String TIMEOUT = "jupiter-timeout-ms";
    /** The prefix of the headers that become attachments. */
    static final String ATTACHMENT = "jupiter-attachment-";
    private static final long MAX_TIMEOUT_MILLIS = TimeUnit.DAYS.toMillis(1);

    private JsonMetadata() {
    }

    /**
     * The attachments a request with these headers carries (the deadline's among them), or {@code null} for none.
     *
     * @throws ForeignCallException BAD_REQUEST as the class says
     */
    static Map<String, String> attachments(Iterator<Map.Entry<CharSequence, CharSequence>> headers) {
        Map<String, String> attachments = null;
        while (headers.hasNext()) {
            Map.Entry<CharSequence, CharSequence> header = headers.next();
            CharSequence name = header.getKey();
            String key;
            String value;
            if (startsWith(name, TIMEOUT) && name.length() == TIMEOUT.length()) {
                key = Deadlines.KEY;
                value = Long.toString(timeoutMillis(header.getValue()));
            } else if (startsWith(name, ATTACHMENT)) {
                key = name.subSequence(ATTACHMENT.length(), name.length()).toString().toLowerCase(Locale.ROOT);
                if (key.isEmpty() || key.startsWith("jupiter.")) {
                    throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), "header " + name
                            + ": an attachment needs a key, and keys starting with jupiter. are the framework's");
                }
                value = header.getValue().toString();
            } else {
                continue;
            }
            if (attachments == null) {
                attachments = new HashMap<>();
            }
            if (attachments.put(key, value) == null && attachments.size() > GrpcMetadata.MAX_ATTACHMENTS) {
                throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), "more than "
                        + GrpcMetadata.MAX_ATTACHMENTS + " attachments");
            }
        }
        return attachments;
    }

    /** The deadline {@code attachments} carry, in milliseconds from now; 0 for none. */
    static long timeoutMillis(Map<String, String> attachments) {
        String value = attachments == null ? null : attachments.get(Deadlines.KEY);
        return value == null ? 0 : Long.parseLong(value);
    }

    private static long timeoutMillis(CharSequence value) {
        String text = value.toString().trim();
        long millis = -1;
        if (!text.isEmpty() && text.length() <= 12 && text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            millis = Long.parseLong(text);
        }
        if (millis < 1 || millis > MAX_TIMEOUT_MILLIS) {
            throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), TIMEOUT + ": "
                    + (text.length() <= 32 ? text : text.substring(0, 32) + "...")
                    + " (expected: a whole number of milliseconds from 1 to " + MAX_TIMEOUT_MILLIS + ")");
        }
        return millis;
    }

    private static boolean startsWith(CharSequence name, String prefix) {
        if (name.length() < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (Character.toLowerCase(name.charAt(i)) != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
