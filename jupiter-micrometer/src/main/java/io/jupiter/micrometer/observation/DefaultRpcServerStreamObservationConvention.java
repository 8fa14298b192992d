package io.jupiter.micrometer.observation;

/**
 * The default names and key values of the streams a server serves: as a served request's
 * ({@link DefaultRpcServerObservationConvention}), but observation (and timer)
 * {@value RpcObservationDocumentation#SERVER_STREAM_NAME}, so that streams, which may stay open for hours, stay out
 * of the call timers.
 */
public class DefaultRpcServerStreamObservationConvention extends DefaultRpcServerObservationConvention {

    /** The shared instance. */
    public static final DefaultRpcServerStreamObservationConvention INSTANCE =
            new DefaultRpcServerStreamObservationConvention();

    @Override
    public String getName() {
        return RpcObservationDocumentation.SERVER_STREAM_NAME;
    }
}
