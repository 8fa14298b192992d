package io.jupiter.micrometer.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** Names and key values of served request observations; implement it (or extend the default) to change them. */
public interface RpcServerObservationConvention extends ObservationConvention<RpcServerContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof RpcServerContext;
    }
}
