package io.jupiter.rpc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.serialization.wire.LegacyClassNames;
import io.jupiter.serialization.wire.legacy.JupiterBizException;
import io.jupiter.serialization.wire.legacy.JupiterRemoteException;
import io.jupiter.transport.Status;
import org.junit.jupiter.api.Test;

/** The one table read both ways: what a provider sends for a status is what a consumer turns back into. */
class LegacyExceptionsTest {

    @Test
    void everyStatusOfTheTableRoundTripsThroughIts131Body() {
        for (Status status : Status.values()) {
            RpcException byStatus = LegacyExceptions.byStatus(status, "why", null);
            if (byStatus == null) {
                continue;
            }
            JupiterRemoteException body = LegacyExceptions.body(status, "why");
            assertThat(LegacyClassNames.legacyName(body.getClass().getName())).startsWith("org.jupiter.rpc.exception.");
            RpcException read = LegacyExceptions.toRpcException(status, body, "m on p: ");
            if (body.getClass() == JupiterRemoteException.class) {
                // 1.3.1's base class says nothing more than the status: the consumer goes by the status.
                assertThat(read).as("%s", status).isNull();
            } else {
                assertThat(read).as("%s", status).isExactlyInstanceOf(byStatus.getClass());
                assertThat(read.status()).isEqualTo(status);
                assertThat(read.getMessage()).endsWith(": why");
            }
        }
    }

    @Test
    void theMethodsOwnFailuresAreNotInTheTable() {
        assertThat(LegacyExceptions.byStatus(Status.OK, "x", null)).isNull();
        assertThat(LegacyExceptions.byStatus(Status.SERVICE_UNEXPECTED_ERROR, "x", null)).isNull();
        assertThat(LegacyExceptions.toRpcException(Status.SERVICE_UNEXPECTED_ERROR, new JupiterBizException("boom"),
                "")).isInstanceOf(RemoteServiceException.class);
        assertThat(LegacyExceptions.toRpcException(Status.BAD_REQUEST, new IllegalStateException(), "")).isNull();
    }
}
