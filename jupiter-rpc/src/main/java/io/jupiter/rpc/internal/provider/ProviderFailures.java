package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.Throwables;
import io.jupiter.serialization.ArgumentTypeException;
import io.jupiter.serialization.ClassNotTrustedException;
import io.jupiter.serialization.EnvelopeException;
import io.jupiter.serialization.ReadLimitException;
import io.jupiter.transport.Status;

/**
 * The provider's one place that turns a throwable into the status of its answer, and into the body sent with it.
 * The rule is the {@link StatusTable}'s ({@link StatusTable#fromThrowable}); what differs is the default of the stage
 * the throwable came from, declared here once per stage ({@link Where}). Refusals that are no throwable (admission,
 * lookup, the caller token) name their status themselves and send {@link StatusTable#legacyBody}.
 */
final class ProviderFailures {

    /** Where a throwable came from, and the status it gets there. */
    enum Where {
        /** The serializer could not read the request: {@code BAD_REQUEST}. */
        READ,
        /**
         * An interceptor's {@code beforeInvoke} refused the call: an {@link RpcException}'s own status (flow
         * control, say), else {@code SERVICE_UNEXPECTED_ERROR}.
         */
        INTERCEPTOR,
        /**
         * The method threw: {@code SERVICE_EXPECTED_ERROR} if it declares the exception, else
         * {@code SERVICE_UNEXPECTED_ERROR} (also when the method could not be resolved).
         */
        METHOD,
        /** The {@code CompletionStage} a method returned completed exceptionally: {@code SERVER_ERROR}. */
        COMPLETION,
        /** The answer could not be serialized, or is above the body cap: {@code SERVER_ERROR}. */
        RESPONSE
    }

    private ProviderFailures() {
    }

    /** The status of {@code error}, thrown at {@code where}; {@code method} is the method called, or {@code null}. */
    static Status statusOf(Throwable error, Where where, MethodEntry method) {
        return switch (where) {
            case READ -> StatusTable.BAD_REQUEST.status();
            case INTERCEPTOR -> StatusTable.fromThrowable(error, StatusTable.SERVICE_UNEXPECTED_ERROR.status());
            case METHOD -> method != null && Throwables.isDeclaredBy(error, method.exceptionTypes)
                    ? StatusTable.SERVICE_EXPECTED_ERROR.status() : StatusTable.SERVICE_UNEXPECTED_ERROR.status();
            case COMPLETION, RESPONSE -> StatusTable.SERVER_ERROR.status();
        };
    }

    /**
     * The body sent with {@code status} for {@code error}: a refusal by status (an {@link RpcException} from an
     * interceptor) goes as the 1.3.1 class of that status with its message, so no io.jupiter class reaches the wire;
     * anything else goes as itself.
     */
    static Object bodyOf(Throwable error, Where where, Status status) {
        if (where == Where.INTERCEPTOR && error instanceof RpcException) {
            return StatusTable.legacyBody(status, error.getMessage());
        }
        return error;
    }

    /**
     * Whether a read failure leaves the framing broken, so the connection is closed after the answer: not for a
     * class refused by the allow-list or as an argument, a broken read limit, an envelope field repeated or out of
     * place, or a read that ran out of memory or stack.
     */
    static boolean breaksConnection(Throwable readError) {
        return !(readError instanceof ClassNotTrustedException || readError instanceof ReadLimitException
                || readError instanceof ArgumentTypeException || readError instanceof EnvelopeException
                || readError instanceof Error);
    }
}
