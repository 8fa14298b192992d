package io.jupiter.protocol.http.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.exception.FlowControlException;
import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.ServerBusyException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.internal.StatusTable;
import org.junit.jupiter.api.Test;

/** gRPC statuses read back into Jupiter's error model, {@code grpc-message} decoding and {@code grpc-timeout}. */
class GrpcStatusesTest {

    @Test
    void everyCodeHasItsStatusAndException() {
        RpcException unavailable = GrpcStatuses.exception(14, "draining", "call");
        assertThat(unavailable).isInstanceOf(ServerBusyException.class);
        assertThat(unavailable.isSafeToRetry()).isTrue();
        assertThat(unavailable).hasMessage("call: grpc-status 14 UNAVAILABLE: draining");
        assertThat(GrpcStatuses.exception(4, null, "call")).isInstanceOf(TimeoutException.class);
        assertThat(GrpcStatuses.exception(8, null, "call")).isInstanceOf(FlowControlException.class);
        assertThat(GrpcStatuses.exception(2, "boom", "call")).isInstanceOfSatisfying(RemoteServiceException.class,
                e -> {
                    assertThat(e.status()).isEqualTo(StatusTable.SERVICE_UNEXPECTED_ERROR.status());
                    assertThat(e.remoteClassName()).isEqualTo("grpc-status 2 UNKNOWN");
                });
        assertThat(GrpcStatuses.exception(99, null, "call").status()).isEqualTo(StatusTable.UNKNOWN.status());
        for (int code = 1; code <= 16; code++) {
            RpcException e = GrpcStatuses.exception(code, "m", "call");
            assertThat(e.getMessage()).contains("grpc-status " + code + " " + GrpcStatuses.name(code)).contains("m");
        }
    }

    @Test
    void decodesTheGrpcMessage() {
        assertThat(GrpcStatuses.percentDecode("no entry for bob (%C3%A9)")).isEqualTo("no entry for bob (é)");
        assertThat(GrpcStatuses.percentDecode("100%")).isEqualTo("100%");
        assertThat(GrpcStatuses.percentDecode("bad %zz escape")).isEqualTo("bad %zz escape");
        assertThat(GrpcStatuses.percentDecode(null)).isNull();
    }

    @Test
    void encodesTheTimeoutInAtMostEightDigits() {
        assertThat(GrpcCallTimeout.encode(300)).isEqualTo("300m");
        assertThat(GrpcCallTimeout.encode(0)).isEqualTo("1m");
        assertThat(GrpcCallTimeout.encode(200_000_000L)).isEqualTo("200000S");
        assertThat(GrpcCallTimeout.encode(Long.MAX_VALUE)).endsWith("H").hasSizeLessThanOrEqualTo(9);
    }
}
