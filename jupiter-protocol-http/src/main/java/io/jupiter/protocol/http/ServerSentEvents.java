package io.jupiter.protocol.http;

import java.nio.charset.StandardCharsets;

/**
 * A server stream as Server-Sent Events (the {@code text/event-stream} format of the HTML standard), for a client
 * whose {@code Accept} header asks for it: each message is one event {@code data: <json>}; the stream's end is an
 * event {@code end} with {@code {"status":"OK"}}; a failure after the first event is an event {@code error} with
 * {@code {"status": ..., "message": ...}}. The JSON is written on one line (Jackson escapes line breaks inside
 * strings), so each event has one {@code data} line.
 */
final class ServerSentEvents {

    static final String CONTENT_TYPE = "text/event-stream";

    private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = event("end", "{\"status\":\"OK\"}".getBytes(StandardCharsets.US_ASCII));

    private ServerSentEvents() {
    }

    /**
     * Whether a request whose {@code Accept} header is {@code accept} (or {@code null}) asks for Server-Sent Events
     * rather than newline-delimited JSON.
     */
    static boolean asked(CharSequence accept) {
        return accept != null && accept.toString().contains(CONTENT_TYPE);
    }

    /** The event of one message: {@code data: <json>}, then the blank line that ends an event. */
    static byte[] message(byte[] json) {
        return event(null, json);
    }

    /** The event of the stream's normal end. */
    static byte[] end() {
        return END.clone();
    }

    /** The event of the stream's failure: {@code event: error}, its JSON status and message. */
    static byte[] error(byte[] json) {
        return event("error", json);
    }

    private static byte[] event(String name, byte[] json) {
        byte[] head = name == null ? new byte[0] : ("event: " + name + "\n").getBytes(StandardCharsets.US_ASCII);
        byte[] event = new byte[head.length + DATA.length + json.length + 2];
        System.arraycopy(head, 0, event, 0, head.length);
        System.arraycopy(DATA, 0, event, head.length, DATA.length);
        System.arraycopy(json, 0, event, head.length + DATA.length, json.length);
        event[event.length - 2] = '\n';
        event[event.length - 1] = '\n';
        return event;
    }
}
