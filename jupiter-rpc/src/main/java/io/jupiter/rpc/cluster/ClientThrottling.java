package io.jupiter.rpc.cluster;

import io.jupiter.common.config.JupiterSettings;

/**
 * Client-side adaptive throttling of one proxy (Google SRE book, "Handling Overload"): the proxy counts, over a
 * sliding window of {@code windowMillis}, the calls it was asked to make and those its providers accepted (any answer
 * but a refusal: a value, an exception of the method, a server error), and refuses a new call here, without sending
 * it, with probability {@code max(0, (calls - K x accepted) / (calls + 1))}, K = {@code kPercent / 100}, at most
 * 90 %. Calls it refuses count as calls at once, calls it sends when they end, so while providers accept nothing
 * nine calls in ten stay here, and as soon as they accept again the share refused falls. (Without the 90 % cap,
 * callers that call again at once when refused keep the window full of refusals and the proxy shut after the
 * providers recovered: measured, docs/reliability.md.) A refused call fails at once with a
 * {@link io.jupiter.rpc.exception.ThrottledException} (a {@code ServerBusyException} whose message says it was
 * throttled locally).
 *
 * <p>A call that timed out or was refused ({@code SERVER_BUSY}, flow control) was not accepted; a call that failed
 * before reaching a provider (no connection) is not counted at all. With K = 2, providers that accept half the calls
 * see no throttling at all: it only acts when they refuse or time out most calls.
 *
 * <p>Off by default ({@code jupiter.rpc.client.throttling}); docs/reliability.md has the measurements behind that.
 */
public final class ClientThrottling {

    private static final ClientThrottling OFF = new ClientThrottling(false, 200, 10_000);

    private final boolean enabled;
    private final int kPercent;
    private final long windowMillis;

    private ClientThrottling(boolean enabled, int kPercent, long windowMillis) {
        this.enabled = enabled;
        this.kPercent = kPercent;
        this.windowMillis = windowMillis;
    }

    /**
     * The defaults: on or off as {@code jupiter.rpc.client.throttling} says, with K and the window of
     * {@code jupiter.rpc.client.throttling.*} (K = 2, 10 s).
     */
    public static ClientThrottling defaults() {
        return JupiterSettings.CLIENT_THROTTLING.get() ? adaptive() : OFF;
    }

    /** On, with the K and window of the settings ({@code jupiter.rpc.client.throttling.*}). */
    public static ClientThrottling adaptive() {
        return of(JupiterSettings.CLIENT_THROTTLING_K_PERCENT.get(),
                JupiterSettings.CLIENT_THROTTLING_WINDOW_MILLIS.get());
    }

    /**
     * On, with K = {@code kPercent / 100} (100 to 10,000: a K of 1 throttles as soon as any call is not accepted)
     * and a window of {@code windowMillis} (1 s to 1 h, counted in ten slices).
     */
    public static ClientThrottling of(int kPercent, long windowMillis) {
        return new ClientThrottling(true, JupiterSettings.CLIENT_THROTTLING_K_PERCENT.check(kPercent),
                JupiterSettings.CLIENT_THROTTLING_WINDOW_MILLIS.check(windowMillis));
    }

    /** No client-side throttling: every call is sent. */
    public static ClientThrottling off() {
        return OFF;
    }

    public boolean enabled() {
        return enabled;
    }

    /** K x 100. */
    public int kPercent() {
        return kPercent;
    }

    public long windowMillis() {
        return windowMillis;
    }

    @Override
    public String toString() {
        return enabled ? "ClientThrottling(K = " + kPercent / 100.0 + ", " + windowMillis + " ms)"
                : "ClientThrottling(off)";
    }
}
