package io.jupiter.protocol.http;

import java.util.concurrent.TimeUnit;

/** The {@code grpc-timeout} header: 1 to 8 digits and a unit (H, M, S, m, u, n). */
final class GrpcTimeout {

    private GrpcTimeout() {
    }

    /** The timeout in milliseconds (at least 1), or -1 when {@code value} is absent or malformed. */
    static long millis(CharSequence value) {
        if (value == null || value.length() < 2 || value.length() > 9) {
            return -1;
        }
        long amount = 0;
        for (int i = 0; i < value.length() - 1; i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            amount = amount * 10 + (c - '0');
        }
        TimeUnit unit;
        switch (value.charAt(value.length() - 1)) {
            case 'H' -> unit = TimeUnit.HOURS;
            case 'M' -> unit = TimeUnit.MINUTES;
            case 'S' -> unit = TimeUnit.SECONDS;
            case 'm' -> unit = TimeUnit.MILLISECONDS;
            case 'u' -> unit = TimeUnit.MICROSECONDS;
            case 'n' -> unit = TimeUnit.NANOSECONDS;
            default -> {
                return -1;
            }
        }
        return Math.max(1, unit.toMillis(amount));
    }
}
