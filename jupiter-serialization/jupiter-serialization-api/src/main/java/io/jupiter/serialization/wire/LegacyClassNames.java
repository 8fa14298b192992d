package io.jupiter.serialization.wire;

import io.jupiter.serialization.wire.legacy.JupiterBadRequestException;
import io.jupiter.serialization.wire.legacy.JupiterBizException;
import io.jupiter.serialization.wire.legacy.JupiterFlowControlException;
import io.jupiter.serialization.wire.legacy.JupiterRemoteException;
import io.jupiter.serialization.wire.legacy.JupiterServerBusyException;
import io.jupiter.serialization.wire.legacy.JupiterServiceNotFoundException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The class names Jupiter 1.3.1 writes for the body classes and for its own exceptions. Hessian and Java put class
 * names on the wire, so those serializers map these names to and from our own classes at their boundary. Protostuff
 * writes no name for the root objects, but does for a throwable in {@code ResultWrapper.result}, so it maps the
 * exception names. (Kryo 5 cannot talk to 1.3.1's Kryo 2.23 at all and maps nothing.)
 */
public final class LegacyClassNames {

    public static final String MESSAGE_WRAPPER = "org.jupiter.rpc.model.metadata.MessageWrapper";
    public static final String SERVICE_METADATA = "org.jupiter.rpc.model.metadata.ServiceMetadata";
    public static final String RESULT_WRAPPER = "org.jupiter.rpc.model.metadata.ResultWrapper";

    /** The package of 1.3.1's exceptions; ours of the same simple name are in {@code wire.legacy}. */
    public static final String EXCEPTION_PACKAGE = "org.jupiter.rpc.exception.";

    /** Our wire forms of 1.3.1's exceptions, each under the same simple name as the 1.3.1 class. */
    public static final List<Class<? extends JupiterRemoteException>> EXCEPTIONS = List.of(
            JupiterRemoteException.class, JupiterBadRequestException.class, JupiterServiceNotFoundException.class,
            JupiterServerBusyException.class, JupiterFlowControlException.class, JupiterBizException.class);

    /** Legacy name to our class. */
    public static final Map<String, Class<?>> TO_LOCAL;

    /** Our class name to the legacy name. */
    public static final Map<String, String> TO_LEGACY;

    static {
        Map<String, Class<?>> toLocal = new HashMap<>();
        toLocal.put(MESSAGE_WRAPPER, MessageWrapper.class);
        toLocal.put(SERVICE_METADATA, ServiceMetadata.class);
        toLocal.put(RESULT_WRAPPER, ResultWrapper.class);
        for (Class<?> exception : EXCEPTIONS) {
            toLocal.put(EXCEPTION_PACKAGE + exception.getSimpleName(), exception);
        }
        Map<String, String> toLegacy = new HashMap<>();
        toLocal.forEach((legacy, local) -> toLegacy.put(local.getName(), legacy));
        TO_LOCAL = Map.copyOf(toLocal);
        TO_LEGACY = Map.copyOf(toLegacy);
    }

    /** Our class for a 1.3.1 class name, or null if the name is not one of 1.3.1's body or exception classes. */
    public static Class<?> localClass(String legacyName) {
        return TO_LOCAL.get(legacyName);
    }

    /** The 1.3.1 name for one of our classes, or null if it has none. */
    public static String legacyName(String localName) {
        return TO_LEGACY.get(localName);
    }

    private LegacyClassNames() {
    }
}
