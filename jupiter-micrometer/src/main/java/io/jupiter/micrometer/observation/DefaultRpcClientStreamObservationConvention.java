package io.jupiter.micrometer.observation;

/**
 * The default names and key values of the streams a client opens: as a call's
 * ({@link DefaultRpcClientObservationConvention}), but observation (and timer)
 * {@value RpcObservationDocumentation#CLIENT_STREAM_NAME}, so that streams, which may stay open for hours, stay out
 * of the call timers.
 */
public class DefaultRpcClientStreamObservationConvention extends DefaultRpcClientObservationConvention {

    /** The shared instance. */
    public static final DefaultRpcClientStreamObservationConvention INSTANCE =
            new DefaultRpcClientStreamObservationConvention();

    @Override
    public String getName() {
        return RpcObservationDocumentation.CLIENT_STREAM_NAME;
    }
}
