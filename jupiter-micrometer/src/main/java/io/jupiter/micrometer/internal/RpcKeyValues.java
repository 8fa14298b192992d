package io.jupiter.micrometer.internal;

import io.jupiter.micrometer.observation.RpcObservationDocumentation;
import io.jupiter.micrometer.observation.RpcObservationDocumentation.HighCardinalityKeyNames;
import io.jupiter.micrometer.observation.RpcObservationDocumentation.LowCardinalityKeyNames;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.rpc.filter.Side;
import io.jupiter.transport.Status;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import java.net.InetSocketAddress;

/** The key values both default conventions give an invocation. */
public final class RpcKeyValues {

    /** The status while the call runs (the long task timer of calls in flight carries it). */
    public static final String STATUS_UNKNOWN = "UNKNOWN";

    private RpcKeyValues() {
    }

    /** {@code {service}/{method}}: the span name and the value of {@code rpc.method}. */
    public static String fullMethod(Invocation invocation) {
        return invocation.service().name() + '/' + invocation.methodName();
    }

    /** The low-cardinality key values of {@code invocation}, every key always present. */
    public static KeyValues low(Invocation invocation) {
        ServiceKey service = invocation.service();
        return KeyValues.of(
                KeyValue.of(LowCardinalityKeyNames.RPC_SYSTEM_NAME, RpcObservationDocumentation.SYSTEM),
                KeyValue.of(LowCardinalityKeyNames.RPC_SYSTEM, RpcObservationDocumentation.SYSTEM),
                KeyValue.of(LowCardinalityKeyNames.RPC_SERVICE, service.name()),
                KeyValue.of(LowCardinalityKeyNames.RPC_METHOD, fullMethod(invocation)),
                KeyValue.of(LowCardinalityKeyNames.STATUS,
                        invocation.status() == null ? STATUS_UNKNOWN : invocation.status().name()),
                KeyValue.of(LowCardinalityKeyNames.SIDE, invocation.side() == Side.CONSUMER ? "consumer" : "provider"),
                KeyValue.of(LowCardinalityKeyNames.GROUP, service.group()),
                KeyValue.of(LowCardinalityKeyNames.VERSION, service.version()));
    }

    /** The high-cardinality key values of {@code invocation}: those known so far. */
    public static KeyValues high(Invocation invocation) {
        KeyValues values = KeyValues.empty();
        boolean client = invocation.side() == Side.CONSUMER;
        if (invocation.remoteAddress() instanceof InetSocketAddress peer) {
            values = values.and(
                    KeyValue.of(client ? HighCardinalityKeyNames.SERVER_ADDRESS : HighCardinalityKeyNames.PEER_ADDRESS,
                            peer.getHostString()),
                    KeyValue.of(client ? HighCardinalityKeyNames.SERVER_PORT : HighCardinalityKeyNames.PEER_PORT,
                            Integer.toString(peer.getPort())));
        }
        if (invocation.invokeId() != 0) {
            values = values.and(HighCardinalityKeyNames.INVOKE_ID.withValue(Long.toString(invocation.invokeId())));
        }
        if (invocation.status() != null && invocation.status() != Status.OK) {
            values = values.and(HighCardinalityKeyNames.ERROR_TYPE.withValue(invocation.status().name()));
        }
        if (!client && invocation.appName() != null) {
            values = values.and(HighCardinalityKeyNames.APP.withValue(invocation.appName()));
        }
        return values;
    }
}
