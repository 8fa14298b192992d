package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.transport.Status;

/**
 * Why a stage will not serve a request, as a value: its status, the reason, what travels in a call's answer, and
 * whether the connection closes after it. Every refusal is answered in one place, the provider's responder: a call
 * gets a response with this status, a stream's open a {@code STREAM_END} with it; the method never runs.
 *
 * @param status what the status byte says
 * @param reason the reason a stream's {@code STREAM_END} carries, and the message of a call's 1.3.1 exception
 * @param error  the throwable a call's answer carries instead of 1.3.1's exception of {@code status} (an
 *               interceptor's own, a missing method's); {@code null}: that exception
 * @param close  whether the connection is closed once the answer is written (the framing may be broken)
 */
record Refusal(Status status, String reason, Throwable error, boolean close) {

    /** A refusal with 1.3.1's exception of {@code status} and {@code reason} as its message; connection kept. */
    static Refusal of(Status status, String reason) {
        return new Refusal(status, reason, null, false);
    }

    /** {@link #of}, then the connection is closed. */
    static Refusal closing(Status status, String reason) {
        return new Refusal(status, reason, null, true);
    }

    /** A refusal whose call answer carries {@code error} itself; connection kept. */
    static Refusal carrying(Status status, Throwable error) {
        return new Refusal(status, String.valueOf(error.getMessage()), error, false);
    }

    /** What a call's answer carries: {@link #error}, or 1.3.1's exception of the status ({@link StatusTable}). */
    Object body() {
        return error != null ? error : StatusTable.legacyBody(status, reason);
    }
}
