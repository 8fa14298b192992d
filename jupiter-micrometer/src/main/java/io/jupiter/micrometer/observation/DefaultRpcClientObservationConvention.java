package io.jupiter.micrometer.observation;

import io.jupiter.micrometer.internal.RpcKeyValues;
import io.micrometer.common.KeyValues;

/**
 * The default names and key values of client calls: observation (and timer)
 * {@value RpcObservationDocumentation#CLIENT_NAME}, span {@code {service}/{method}}, the keys of
 * {@link RpcObservationDocumentation#CLIENT}.
 */
public class DefaultRpcClientObservationConvention implements RpcClientObservationConvention {

    /** The shared instance. */
    public static final DefaultRpcClientObservationConvention INSTANCE = new DefaultRpcClientObservationConvention();

    @Override
    public String getName() {
        return RpcObservationDocumentation.CLIENT_NAME;
    }

    @Override
    public String getContextualName(RpcClientContext context) {
        return RpcKeyValues.fullMethod(context.invocation());
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(RpcClientContext context) {
        return RpcKeyValues.low(context.invocation());
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(RpcClientContext context) {
        return RpcKeyValues.high(context.invocation());
    }
}
