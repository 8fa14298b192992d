package io.jupiter.rpc.tail;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Answers its name and counts the calls it ran; while {@link #failingPercent} is above 0, that share of its calls
 * fails (every n-th of a hundred, so the share is exact over any hundred calls, not a draw).
 */
final class SickServiceImpl implements SickService {

    private final String name;
    final AtomicLong calls = new AtomicLong();
    final AtomicInteger failingPercent = new AtomicInteger();

    SickServiceImpl(String name) {
        this.name = name;
    }

    @Override
    public String who() {
        if (failsNow()) {
            throw new IllegalStateException(name + " is sick (a broken dependency)");
        }
        return name;
    }

    @Override
    public String find() throws NotFound {
        if (failsNow()) {
            throw new NotFound(name + " found nothing");
        }
        return name;
    }

    private boolean failsNow() {
        long n = calls.incrementAndGet();
        return n % 100 < failingPercent.get();
    }
}
