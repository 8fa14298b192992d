package io.jupiter.micrometer.observation;

import io.jupiter.micrometer.internal.RpcKeyValues;
import io.micrometer.common.KeyValues;

/**
 * The default names and key values of served requests: observation (and timer)
 * {@value RpcObservationDocumentation#SERVER_NAME}, span {@code {service}/{method}}, the keys of
 * {@link RpcObservationDocumentation#SERVER}.
 */
public class DefaultRpcServerObservationConvention implements RpcServerObservationConvention {

    /** The shared instance. */
    public static final DefaultRpcServerObservationConvention INSTANCE = new DefaultRpcServerObservationConvention();

    @Override
    public String getName() {
        return RpcObservationDocumentation.SERVER_NAME;
    }

    @Override
    public String getContextualName(RpcServerContext context) {
        return RpcKeyValues.fullMethod(context.invocation());
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(RpcServerContext context) {
        return RpcKeyValues.low(context.invocation());
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(RpcServerContext context) {
        return RpcKeyValues.high(context.invocation());
    }
}
