package io.jupiter.example.benchmark;

/** One message of the benchmark's server stream: the payload and the provider's {@link System#nanoTime()} at send. */
public class StreamTick {

    private long sentNanos;
    private String payload;

    /** For the serializers. */
    public StreamTick() {
    }

    public StreamTick(long sentNanos, String payload) {
        this.sentNanos = sentNanos;
        this.payload = payload;
    }

    public long getSentNanos() {
        return sentNanos;
    }

    public String getPayload() {
        return payload;
    }
}
