package io.jupiter.rpc.internal.stream;

import io.jupiter.common.config.JupiterSettings;

/**
 * The byte windows of the receiving streams of one server or client: each stream's ({@code streamWindowBytes}) and
 * each connection's, across its streams ({@code streamConnectionWindowBytes}). Read once when the server or client is
 * built; two of them in one JVM may differ.
 *
 * @param streamBytes     bytes of frames one receiving stream lets be on their way or queued
 * @param connectionBytes bytes the receiving streams of one connection may hold together, arrived and not yet read
 */
public record StreamWindows(long streamBytes, long connectionBytes) {

    public StreamWindows {
        JupiterSettings.STREAM_WINDOW_BYTES.check(Math.toIntExact(streamBytes));
        JupiterSettings.STREAM_CONNECTION_WINDOW_BYTES.check(connectionBytes);
    }

    /** The windows the settings say (their properties, else their defaults). */
    public static StreamWindows fromSettings() {
        return new StreamWindows(JupiterSettings.STREAM_WINDOW_BYTES.get(),
                JupiterSettings.STREAM_CONNECTION_WINDOW_BYTES.get());
    }
}
