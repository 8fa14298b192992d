package io.jupiter.rpc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.exception.BadRequestException;
import io.jupiter.rpc.exception.BroadcastException;
import io.jupiter.rpc.exception.FlowControlException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.ServerBusyException;
import io.jupiter.rpc.exception.ServiceNotFoundException;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.serialization.wire.LegacyClassNames;
import io.jupiter.serialization.wire.legacy.JupiterRemoteException;
import io.jupiter.transport.Status;
import java.net.InetSocketAddress;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The error model's one table, read in both directions, and the one rule that turns a throwable into a status. */
class StatusTableTest {

    @Test
    void everyWireStatusHasItsRow() {
        for (Status status : Status.values()) {
            assertThat(StatusTable.of(status)).as("%s", status).isNotNull();
            assertThat(StatusTable.of(status).name()).isEqualTo(status.name());
        }
    }

    @Test
    @SuppressWarnings("deprecation")
    void whatProvesTheCallDidNotRunIsTheRpcLayersAndAgreesWithTheDeprecatedWireFlag() {
        Set<Status> notRun = EnumSet.noneOf(Status.class);
        for (Status status : Status.values()) {
            if (StatusTable.provesNotProcessed(status)) {
                notRun.add(status);
            }
            assertThat(StatusTable.provesNotProcessed(status)).as("%s", status).isEqualTo(status.provesNotProcessed());
        }
        assertThat(notRun).containsExactlyInAnyOrder(Status.CLIENT_TIMEOUT, Status.BAD_REQUEST,
                Status.SERVICE_NOT_FOUND, Status.SERVER_BUSY, Status.APP_FLOW_CONTROL, Status.PROVIDER_FLOW_CONTROL);
        assertThat(new ServerBusyException(Status.SERVER_BUSY, "busy").isSafeToRetry()).isTrue();
        assertThat(new RpcException(Status.SERVER_ERROR, "x").isSafeToRetry()).isFalse();
    }

    @Test
    void statusToOurExceptionTo131BodyAndBack() {
        assertThat(StatusTable.exception(Status.BAD_REQUEST, "m", null)).isExactlyInstanceOf(BadRequestException.class);
        assertThat(StatusTable.exception(Status.SERVICE_NOT_FOUND, "m", null))
                .isExactlyInstanceOf(ServiceNotFoundException.class);
        assertThat(StatusTable.exception(Status.PROVIDER_FLOW_CONTROL, "m", null))
                .isExactlyInstanceOf(FlowControlException.class);
        assertThat(StatusTable.exception(Status.CLIENT_TIMEOUT, "m", null)).isExactlyInstanceOf(TimeoutException.class);
        for (Status status : EnumSet.of(Status.STREAM_CANCELLED, Status.SLOW_CONSUMER, Status.SHUTTING_DOWN)) {
            assertThat(StatusTable.exception(status, "m", null)).as("%s", status)
                    .isExactlyInstanceOf(StreamException.class).extracting(RpcException::status).isEqualTo(status);
        }
        for (Status status : EnumSet.of(Status.BAD_REQUEST, Status.SERVICE_NOT_FOUND, Status.SERVER_BUSY,
                Status.APP_FLOW_CONTROL, Status.PROVIDER_FLOW_CONTROL)) {
            JupiterRemoteException body = StatusTable.legacyBody(status, "why");
            assertThat(LegacyClassNames.legacyName(body.getClass().getName()))
                    .startsWith("org.jupiter.rpc.exception.Jupiter").isNotEqualTo(
                            "org.jupiter.rpc.exception.JupiterRemoteException");
            RpcException read = StatusTable.fromLegacyBody(status, body, "m on p: ");
            assertThat(read).as("%s", status).isExactlyInstanceOf(StatusTable.exception(status, "", null).getClass());
            assertThat(read.status()).isEqualTo(status);
        }
    }

    @Test
    void aStatusWithNoExceptionOfItsOwnGetsAPlainOneNamingTheByte() {
        RpcException generic = StatusTable.exceptionOrGeneric(Status.UNKNOWN, "m on p: ", "(no detail sent)", null);
        assertThat(generic).isExactlyInstanceOf(RpcException.class);
        assertThat(generic.getMessage()).isEqualTo("m on p: status 0x0: (no detail sent)");
        assertThat(StatusTable.exceptionOrGeneric(Status.SERVER_BUSY, "m on p: ", "full", null))
                .isExactlyInstanceOf(ServerBusyException.class).hasMessage("m on p: full");
    }

    @Test
    void aThrowableCarriesItsOwnStatusOrGetsTheDefaultOfWhereItWasThrown() {
        assertThat(StatusTable.fromThrowable(new FlowControlException(Status.PROVIDER_FLOW_CONTROL, "x"),
                Status.SERVICE_UNEXPECTED_ERROR)).isEqualTo(Status.PROVIDER_FLOW_CONTROL);
        assertThat(StatusTable.fromThrowable(new IllegalStateException(), Status.CLIENT_ERROR))
                .isEqualTo(Status.CLIENT_ERROR);
        // The same rule inside a public exception: a broadcast failure has its cause's status.
        assertThat(new BroadcastException("m", new InetSocketAddress("127.0.0.1", 1),
                new ServerBusyException(Status.SERVER_BUSY, "busy")).status()).isEqualTo(Status.SERVER_BUSY);
        assertThat(new BroadcastException("m", new InetSocketAddress("127.0.0.1", 1),
                new IllegalStateException()).status()).isEqualTo(Status.SERVICE_EXPECTED_ERROR);
    }

    @Test
    void aStreamsEndIsAStreamExceptionCausedByTheExceptionOfACallWithTheSameStatus() {
        for (Status status : Status.values()) {
            if (status == Status.OK) {
                continue;
            }
            StreamException end = StatusTable.streamEnd(status, "ended");
            assertThat(end.status()).as("%s", status).isEqualTo(status);
            assertThat(end.isSafeToRetry()).as("%s", status).isEqualTo(StatusTable.provesNotProcessed(status));
            RpcException asCall = StatusTable.exception(status, "ended", null);
            if (asCall == null || asCall instanceof StreamException) {
                assertThat(end.getCause()).as("%s", status).isNull();
            } else {
                assertThat(end.getCause()).as("%s", status).isExactlyInstanceOf(asCall.getClass());
            }
        }
        assertThat(StatusTable.streamEnd(Status.SERVER_BUSY, "busy").getCause())
                .isInstanceOf(ServerBusyException.class).hasMessage("busy");
        assertThat(StatusTable.streamEnd(Status.SERVICE_NOT_FOUND, "x").getCause())
                .isInstanceOf(ServiceNotFoundException.class);
        assertThat(StatusTable.streamEnd(Status.SLOW_CONSUMER, "slow").getCause()).isNull();
    }
}
