package io.jupiter.serialization.wire;

import java.util.Map;

/**
 * The class names Jupiter 1.3.1 writes for the body classes. Hessian, Java and Kryo put class names on the wire,
 * so those serializers map these names to and from our own classes at their boundary; protostuff writes no name for
 * the root objects and needs no mapping.
 */
public final class LegacyClassNames {

    public static final String MESSAGE_WRAPPER = "org.jupiter.rpc.model.metadata.MessageWrapper";
    public static final String SERVICE_METADATA = "org.jupiter.rpc.model.metadata.ServiceMetadata";
    public static final String RESULT_WRAPPER = "org.jupiter.rpc.model.metadata.ResultWrapper";

    /** Legacy name to our class. */
    public static final Map<String, Class<?>> TO_LOCAL = Map.of(
            MESSAGE_WRAPPER, MessageWrapper.class,
            SERVICE_METADATA, ServiceMetadata.class,
            RESULT_WRAPPER, ResultWrapper.class);

    /** Our class name to the legacy name. */
    public static final Map<String, String> TO_LEGACY = Map.of(
            MessageWrapper.class.getName(), MESSAGE_WRAPPER,
            ServiceMetadata.class.getName(), SERVICE_METADATA,
            ResultWrapper.class.getName(), RESULT_WRAPPER);

    private LegacyClassNames() {
    }
}
