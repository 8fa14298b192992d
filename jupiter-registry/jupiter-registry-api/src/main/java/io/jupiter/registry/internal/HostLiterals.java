package io.jupiter.registry.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Parses IP literals without ever asking DNS ({@link InetAddress#getByName} looks up whatever it cannot parse, so a
 * registry record of "300.1.2.3" or "localhost" would cost a DNS query on the registry's thread), and checks host
 * names by their syntax alone.
 */
final class HostLiterals {

    private HostLiterals() {
    }

    /** The four bytes of a dotted-quad IPv4 literal, or {@code null} if {@code text} is not one. */
    static byte[] ipv4(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            int value = decimalOctet(parts[i]);
            if (value < 0) {
                return null;
            }
            bytes[i] = (byte) value;
        }
        return bytes;
    }

    /** The sixteen bytes of an IPv6 literal (no brackets, no zone), or {@code null} if {@code text} is not one. */
    static byte[] ipv6(String text) {
        if (text.isEmpty() || text.length() > 45 || text.indexOf(':') < 0) {
            return null;
        }
        int gap = text.indexOf("::");
        if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        byte[] head = groups(gap < 0 ? text : text.substring(0, gap));
        byte[] tail = gap < 0 ? new byte[0] : groups(text.substring(gap + 2));
        if (head == null || tail == null || head.length + tail.length > 16
                || (gap < 0 && head.length != 16) || (gap >= 0 && head.length + tail.length == 16)) {
            return null;
        }
        byte[] bytes = new byte[16];
        System.arraycopy(head, 0, bytes, 0, head.length);
        System.arraycopy(tail, 0, bytes, 16 - tail.length, tail.length);
        return bytes;
    }

    /** The bytes of colon-separated hex groups, the last of which may be an IPv4 literal; empty text is none. */
    private static byte[] groups(String text) {
        if (text.isEmpty()) {
            return new byte[0];
        }
        String[] parts = text.split(":", -1);
        byte[] bytes = new byte[parts.length * 2 + 2];
        int length = 0;
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            if (i == parts.length - 1 && part.indexOf('.') >= 0) {
                byte[] v4 = ipv4(part);
                if (v4 == null) {
                    return null;
                }
                System.arraycopy(v4, 0, bytes, length, 4);
                length += 4;
                continue;
            }
            if (part.isEmpty() || part.length() > 4) {
                return null;
            }
            int value = 0;
            for (int c = 0; c < part.length(); c++) {
                int digit = Character.digit(part.charAt(c), 16);
                if (digit < 0) {
                    return null;
                }
                value = value * 16 + digit;
            }
            bytes[length++] = (byte) (value >> 8);
            bytes[length++] = (byte) value;
        }
        byte[] result = new byte[length];
        System.arraycopy(bytes, 0, result, 0, length);
        return result;
    }

    private static int decimalOctet(String part) {
        if (part.isEmpty() || part.length() > 3) {
            return -1;
        }
        int value = 0;
        for (int c = 0; c < part.length(); c++) {
            char ch = part.charAt(c);
            if (ch < '0' || ch > '9') {
                return -1;
            }
            value = value * 10 + (ch - '0');
        }
        return value <= 255 ? value : -1;
    }

    /** The address of literal bytes (no DNS: {@link InetAddress#getByAddress} only wraps them). */
    static InetAddress address(byte[] bytes) {
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not 4 or 16 bytes", e);
        }
    }

    /**
     * Whether {@code text} is a host name by RFC 1123's syntax: dot-separated labels of 1 to 63 letters, digits and
     * hyphens, neither starting nor ending with a hyphen, 253 characters at most, and a last label that is not all
     * digits (so that a malformed IPv4 literal such as 300.1.2.3 is not taken for a name).
     */
    static boolean isHostName(String text) {
        if (text.isEmpty() || text.length() > 253) {
            return false;
        }
        String[] labels = (text.endsWith(".") ? text.substring(0, text.length() - 1) : text).split("\\.", -1);
        for (String label : labels) {
            if (label.isEmpty() || label.length() > 63 || label.startsWith("-") || label.endsWith("-")) {
                return false;
            }
            for (int c = 0; c < label.length(); c++) {
                char ch = label.charAt(c);
                if (!(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '-')) {
                    return false;
                }
            }
        }
        return !labels[labels.length - 1].chars().allMatch(Character::isDigit);
    }
}
