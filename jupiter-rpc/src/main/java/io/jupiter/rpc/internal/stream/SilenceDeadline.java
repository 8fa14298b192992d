package io.jupiter.rpc.internal.stream;

import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One direction of a stream on the provider, watched for silence: it expires when no message passes within the
 * first-message deadline of the open, or for longer than the idle deadline after the last one (before the first,
 * the idle deadline applies when there is no first-message one, as on the reader). A message writes one field; the
 * timer holds one task at a time, which re-arms itself from the last message when it fires early, so nothing is
 * allocated or scheduled per message.
 */
public final class SilenceDeadline {

    /** Open attachment: milliseconds the reader waits for the provider's first message. */
    public static final String FIRST_MESSAGE_KEY = "jupiter.stream.first";
    /** Open attachment: milliseconds the reader waits between two of the provider's messages. */
    public static final String IDLE_KEY = "jupiter.stream.idle";
    /** Open attachment: milliseconds the provider waits for the consumer's first message (client, bidirectional). */
    public static final String CONSUMER_FIRST_MESSAGE_KEY = "jupiter.stream.consumer.first";
    /** Open attachment: milliseconds the provider waits between two of the consumer's messages. */
    public static final String CONSUMER_IDLE_KEY = "jupiter.stream.consumer.idle";

    private final long startNanos;
    /** 0: none (the idle deadline applies before the first message too). */
    private final long firstNanos;
    /** 0: none after the first message. */
    private final long idleNanos;
    /** What goes silent, for the reason: "the provider's producer", "the consumer". */
    private final String who;
    /** When the last message passed; 0: none yet. */
    private volatile long lastNanos;
    private ScheduledExecutorService timer;
    private Consumer<String> expire;
    private ScheduledFuture<?> armed;
    private boolean stopped;

    /**
     * @param startNanos  when the open arrived ({@link System#nanoTime()} based)
     * @param firstMillis the first-message deadline, 0: none
     * @param idleMillis  the idle deadline, 0: none
     */
    public SilenceDeadline(long startNanos, long firstMillis, long idleMillis, String who) {
        this.startNanos = startNanos;
        this.firstNanos = TimeUnit.MILLISECONDS.toNanos(firstMillis);
        this.idleNanos = TimeUnit.MILLISECONDS.toNanos(idleMillis);
        this.who = who;
    }

    /** The milliseconds of a deadline attachment, or 0 for none (absent, unreadable, not positive). */
    public static long millis(Map<String, String> attachments, String key) {
        String value = attachments == null ? null : attachments.get(key);
        if (value == null) {
            return 0;
        }
        try {
            return Math.max(0, Long.parseLong(value));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** A message passed. Cheap: one clock read and one field write. */
    void touched() {
        long now = System.nanoTime();
        lastNanos = now == 0 ? 1 : now;
    }

    /** Arms the deadline on {@code on}; {@code expired} gets the reason when it passes (on the timer's thread). */
    synchronized void start(ScheduledExecutorService on, Consumer<String> expired) {
        this.timer = on;
        this.expire = expired;
        armIn(startNanos + (firstNanos != 0 ? firstNanos : idleNanos) - System.nanoTime());
    }

    /** The direction ended (or the stream): the deadline no longer applies. Idempotent. */
    synchronized void stop() {
        stopped = true;
        if (armed != null) {
            armed.cancel(false);
            armed = null;
        }
    }

    private void armIn(long nanos) {
        if (stopped) {
            return;
        }
        try {
            armed = timer.schedule(this::check, Math.max(0, nanos), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            armed = null; // shutting down: the stream ends with SHUTTING_DOWN anyway
        }
    }

    private void check() {
        String reason;
        synchronized (this) {
            if (stopped) {
                return;
            }
            long last = lastNanos;
            long limit;
            long from;
            if (last == 0) {
                limit = firstNanos != 0 ? firstNanos : idleNanos;
                from = startNanos;
            } else {
                limit = idleNanos;
                from = last;
            }
            if (limit == 0) {
                armed = null; // the first message came and no idle deadline follows it
                return;
            }
            long left = from + limit - System.nanoTime();
            if (left > 0) {
                armIn(left);
                return;
            }
            stopped = true;
            armed = null;
            reason = last == 0 && firstNanos != 0
                    ? "the stream's first-message deadline passed: " + who + " sent nothing within "
                    + TimeUnit.NANOSECONDS.toMillis(firstNanos) + " ms of the open"
                    : "the stream's idle deadline passed: " + who + " sent nothing for "
                    + TimeUnit.NANOSECONDS.toMillis(limit) + " ms";
        }
        expire.accept(reason);
    }
}
