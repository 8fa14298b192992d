package io.jupiter.example.benchmark;

import io.jupiter.rpc.stream.Topic;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Publishes ticks to the benchmark topic at a steady rate on a daemon thread of its own, started by the first
 * subscription; it stops once the topic has had no subscriber for {@value #IDLE_MILLIS} ms (a later subscription
 * starts it again). Under the topic's default {@code WAIT} policy a publish waits for the slowest subscriber, so a
 * rate the subscribers cannot take shows as fewer deliveries, not as drops.
 */
final class TopicPublisher implements Runnable {

    private static final long IDLE_MILLIS = 2_000;

    private final Topic<StreamTick> topic;
    private String payload = "";
    private long intervalNanos;
    private Thread thread;

    TopicPublisher(Topic<StreamTick> topic) {
        this.topic = topic;
    }

    /** Sets the rate and payload of the publishing thread, starting it if it is not running. */
    synchronized void ensureRunning(String payload, int publishesPerSecond) {
        if (publishesPerSecond < 1) {
            throw new IllegalArgumentException("publishesPerSecond: " + publishesPerSecond + " (expected: >= 1)");
        }
        this.payload = payload;
        this.intervalNanos = TimeUnit.SECONDS.toNanos(1) / publishesPerSecond;
        if (thread == null) {
            thread = new Thread(this, "benchmark-topic-publisher");
            thread.setDaemon(true);
            thread.start();
        }
    }

    @Override
    public void run() {
        long next = System.nanoTime();
        long lastSubscriber = next;
        while (true) {
            String text;
            long interval;
            synchronized (this) {
                if (topic.subscriberCount() > 0) {
                    lastSubscriber = System.nanoTime();
                } else if (System.nanoTime() - lastSubscriber > TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS)) {
                    thread = null;
                    return;
                }
                text = payload;
                interval = intervalNanos;
            }
            // Paced from the schedule, not from the last publish; a publish held back by a slow subscriber for more
            // than a second does not turn into a burst.
            next = Math.max(next + interval, System.nanoTime() - TimeUnit.SECONDS.toNanos(1));
            LockSupport.parkNanos(next - System.nanoTime());
            try {
                topic.publish(new StreamTick(System.nanoTime(), text));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
