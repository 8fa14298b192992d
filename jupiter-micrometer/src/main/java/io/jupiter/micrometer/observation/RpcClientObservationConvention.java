package io.jupiter.micrometer.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** Names and key values of client call observations; implement it (or extend the default) to change them. */
public interface RpcClientObservationConvention extends ObservationConvention<RpcClientContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof RpcClientContext;
    }
}
