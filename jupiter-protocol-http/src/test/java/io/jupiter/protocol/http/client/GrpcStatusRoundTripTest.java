package io.jupiter.protocol.http.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.protocol.http.ProviderCodes;
import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.protocol.RefusalReason;
import io.jupiter.transport.Status;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The provider's table ({@code StatusCodes}: status to gRPC code) against the consumer's ({@link GrpcStatuses}: gRPC
 * code to status): a call a Jupiter provider answers over gRPC must reach a Jupiter proxy with {@link
 * GrpcClientProtocol} as the same kind of failure a 1.3.1 call to that provider would be: retryable or not, busy,
 * timed out, refused, or the service's answer, with the same exception class.
 */
class GrpcStatusRoundTripTest {

    /**
     * Statuses no provider answers a call with: the consumer's own ({@code CLIENT_*}, {@code DESERIALIZATION_FAIL},
     * "local" in {@link StatusTable}), any byte without a name ({@code UNKNOWN}), and the ends of streams, which
     * this consumer does not call.
     */
    private static final Set<Status> NOT_A_CALLS_ANSWER = EnumSet.of(StatusTable.CLIENT_ERROR.status(),
            StatusTable.CLIENT_TIMEOUT.status(), StatusTable.DESERIALIZATION_FAIL.status(),
            StatusTable.UNKNOWN.status(), StatusTable.STREAM_CANCELLED.status(), StatusTable.SLOW_CONSUMER.status(),
            StatusTable.SHUTTING_DOWN.status());

    private record Answer(Status status, RefusalReason reason) {
    }

    /** Every status a provider answers a call with, and the typed refusals of the caller. */
    private static List<Answer> answers() {
        List<Answer> answers = new ArrayList<>();
        for (Status status : Status.values()) {
            if (status != Status.OK && !NOT_A_CALLS_ANSWER.contains(status)) {
                answers.add(new Answer(status, null));
            }
        }
        for (RefusalReason reason : RefusalReason.values()) {
            answers.add(new Answer(StatusTable.BAD_REQUEST.status(), reason));
        }
        return answers;
    }

    @Test
    void everyAnswerOfAProviderComesBackAsTheSameKindOfFailure() {
        List<Answer> answers = answers();
        assertThat(answers).hasSizeGreaterThanOrEqualTo(10);
        for (Answer answer : answers) {
            Status sent = answer.status();
            int code = ProviderCodes.grpc(sent, answer.reason());
            RpcException read = GrpcStatuses.exception(code, "why", "call");
            Status back = read.status();
            String what = answer + " sent as grpc-status " + code + ", read as " + back;
            assertThat(read.isSafeToRetry()).as(what + ": retryable").isEqualTo(StatusTable.provesNotProcessed(sent));
            assertThat(StatusTable.isFull(back)).as(what + ": busy").isEqualTo(StatusTable.isFull(sent));
            assertThat(StatusTable.isRefusal(back)).as(what + ": refused").isEqualTo(StatusTable.isRefusal(sent));
            assertThat(StatusTable.isAnswer(back)).as(what + ": the service's answer")
                    .isEqualTo(StatusTable.isAnswer(sent));
            RpcException native131 = StatusTable.exception(sent, "why", null);
            if (native131 == null) { // the method's own failure: the service's exception, or its remote stand-in
                assertThat(StatusTable.isMethodFailure(sent)).as(what).isTrue();
                assertThat(read).as(what).isInstanceOf(RemoteServiceException.class);
            } else {
                assertThat(read.getClass()).as(what + ": exception").isEqualTo(native131.getClass());
            }
            assertThat(read instanceof TimeoutException).as(what + ": timed out")
                    .isEqualTo(native131 instanceof TimeoutException);
        }
    }

    @Test
    void theCallersRefusalsAreNotTheServicesAnswers() {
        assertThat(ProviderCodes.grpc(StatusTable.BAD_REQUEST.status(), RefusalReason.UNAUTHENTICATED)).isEqualTo(16);
        assertThat(ProviderCodes.grpc(StatusTable.BAD_REQUEST.status(), RefusalReason.NOT_AUTHORIZED)).isEqualTo(7);
        assertThat(GrpcStatuses.status(16)).isEqualTo(StatusTable.BAD_REQUEST.status());
        assertThat(GrpcStatuses.status(7)).isEqualTo(StatusTable.BAD_REQUEST.status());
    }
}
