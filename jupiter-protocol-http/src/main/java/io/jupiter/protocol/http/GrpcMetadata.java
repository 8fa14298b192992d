package io.jupiter.protocol.http;

import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.filter.Deadlines;
import io.netty.handler.codec.http2.Http2Headers;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * gRPC metadata in Jupiter's terms: a call's request headers as the attachments the provider sees (the
 * {@code grpc-timeout} as the deadline attachment, custom headers as they are: binary ones, named {@code *-bin},
 * as the base64 text they travel as), and the text of {@code grpc-message}.
 */
final class GrpcMetadata {

    static final int MAX_ATTACHMENTS = 32;

    private GrpcMetadata() {
    }

    /**
     * The attachments of a call with these request headers, or {@code null} for none.
     *
     * @throws ForeignCallException BAD_REQUEST for more than {@link #MAX_ATTACHMENTS} entries
     */
    static Map<String, String> attachments(Http2Headers headers) {
        Map<String, String> attachments = new HashMap<>();
        long timeout = GrpcTimeout.millis(headers.get("grpc-timeout"));
        if (timeout > 0) {
            attachments.put(Deadlines.KEY, Long.toString(timeout));
        }
        for (Map.Entry<CharSequence, CharSequence> header : headers) {
            CharSequence key = header.getKey();
            if (key.length() > 0 && key.charAt(0) == ':') {
                continue; // a pseudo-header: no string made for it
            }
            String name = key.toString().toLowerCase(Locale.ROOT);
            if (name.startsWith(":") || name.startsWith("grpc-") || name.equals("te")
                    || name.equals("content-type") || name.equals("user-agent") || name.startsWith("jupiter.")
                    || name.equals("authorization")) {
                continue;
            }
            if (attachments.size() >= MAX_ATTACHMENTS) {
                throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), "more than " + MAX_ATTACHMENTS
                        + " metadata entries");
            }
            attachments.put(name, header.getValue().toString());
        }
        return attachments.isEmpty() ? null : attachments;
    }

    /** gRPC's percent-encoding of {@code grpc-message}: everything outside printable ASCII, and {@code %}. */
    static String percentEncode(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            if (b >= 0x20 && b <= 0x7e && b != '%') {
                out.append((char) b);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }
}
