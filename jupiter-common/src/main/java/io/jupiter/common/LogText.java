package io.jupiter.common;

/**
 * Makes text that came from a remote peer safe to log: control characters (CR and LF above all, which would let a
 * peer forge log lines; the C1 controls U+0080 to U+009F too, among them U+0085, a line break to some log viewers,
 * and U+009B, a terminal's escape; and the line and paragraph separators) become {@code ?}, and the text is cut at
 * {@value #MAX_LENGTH} characters with a note of its
 * length. Use it on every string read from the wire (class, service and method names, hosts, messages) before it
 * reaches a log line.
 */
public final class LogText {

    /** Longest text kept. */
    public static final int MAX_LENGTH = 256;

    private LogText() {
    }

    /** {@code value}'s string form, neutralised and capped; {@code "null"} for {@code null}. */
    public static String of(Object value) {
        String text = String.valueOf(value);
        int length = Math.min(text.length(), MAX_LENGTH);
        StringBuilder out = null;
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029') {
                if (out == null) {
                    out = new StringBuilder(length + 24).append(text, 0, i);
                }
                out.append('?');
            } else if (out != null) {
                out.append(c);
            }
        }
        if (text.length() <= MAX_LENGTH) {
            return out == null ? text : out.toString();
        }
        return (out == null ? text.substring(0, MAX_LENGTH) : out.toString()) + "...(" + text.length() + " chars)";
    }
}
