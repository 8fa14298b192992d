package io.jupiter.protocol.http.client;

/** The {@code grpc-timeout} header a call sends: at most 8 digits, in the finest unit that fits. */
final class GrpcCallTimeout {

    private static final long MAX_DIGITS = 99_999_999L;

    private GrpcCallTimeout() {
    }

    /** {@code millis} (at least 1) as a {@code grpc-timeout} value. */
    static String encode(long millis) {
        long value = Math.max(1, millis);
        if (value <= MAX_DIGITS) {
            return value + "m";
        }
        long seconds = ceilDiv(value, 1000);
        if (seconds <= MAX_DIGITS) {
            return seconds + "S";
        }
        return Math.min(MAX_DIGITS, ceilDiv(seconds, 3600)) + "H";
    }

    /** {@code a / b} rounded up, for positive values, without overflow near {@code Long.MAX_VALUE}. */
    private static long ceilDiv(long a, long b) {
        return a / b + (a % b == 0 ? 0 : 1);
    }
}
