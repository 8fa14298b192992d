package io.jupiter.serialization.hessian;

import com.caucho.hessian.io.AbstractDeserializer;
import com.caucho.hessian.io.AbstractHessianInput;
import com.caucho.hessian.io.HessianProtocolException;
import io.jupiter.serialization.EnvelopeException;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import java.io.IOException;
import java.util.Map;

/**
 * Reads a {@code MessageWrapper} field by field, in the order of its class definition (1.3.1's is
 * {@code appName, methodName, metadata, args, attachments}). Read with a {@link RequestRead}, it asks the listener
 * when it reaches {@code args} or {@code attachments} (or the end), so the envelope comes first, and stops there
 * if the listener says so; the {@code args} are then read through the {@link RequestRead}.
 *
 * <p>The class definition may list each of the five fields once, and no other: the listener authorizes the service
 * and method it is given, so a second {@code methodName}, or one after {@code args}, would name a method that was
 * never authorized, and an unknown field would be read before the check ({@link EnvelopeException}, before any
 * value of the body is read). {@code metadata} is read only as a {@code ServiceMetadata}
 * ({@link ServiceMetadataDeserializer}).
 */
final class RequestDeserializer extends AbstractDeserializer {

    static final RequestDeserializer INSTANCE = new RequestDeserializer();

    private RequestDeserializer() {
    }

    @Override
    public Class<?> getType() {
        return MessageWrapper.class;
    }

    @Override
    public Object[] createFields(int len) {
        return new Object[len];
    }

    @Override
    public Object createField(String name) {
        return name;
    }

    @Override
    public Object readObject(AbstractHessianInput in, Object[] fields) throws IOException {
        return read(in, fields);
    }

    @Override
    public Object readObject(AbstractHessianInput in, String[] fieldNames) throws IOException {
        return read(in, fieldNames);
    }

    @SuppressWarnings("unchecked")
    private static MessageWrapper read(AbstractHessianInput in, Object[] fields) throws IOException {
        int ref = in.addRef(null);
        RequestRead request = in instanceof BoundedHessianInput ? ((BoundedHessianInput) in).request() : null;
        if (request != null && !request.claimRoot()) {
            request = null; // a MessageWrapper inside an argument: no envelope of the request
        }
        boolean asked = request == null;
        String appName = null;
        String methodName = null;
        ServiceMetadata metadata = null;
        Object[] args = null;
        Map<String, String> attachments = null;
        checkFields(fields);
        for (Object field : fields) {
            String name = String.valueOf(field);
            if (!asked && (name.equals("args") || name.equals("attachments"))) {
                asked = true;
                if (!request.askListener(appName, metadata, methodName)) {
                    return stop(in, ref, appName, metadata, methodName);
                }
            }
            switch (name) {
                case "appName" -> appName = in.readString();
                case "methodName" -> methodName = in.readString();
                case "metadata" -> metadata = cast(in.readObject(ServiceMetadata.class), ServiceMetadata.class);
                case "args" -> args = cast(request == null ? in.readObject(Object[].class)
                        : request.readArguments((BoundedHessianInput) in), Object[].class);
                case "attachments" -> attachments = cast(in.readObject(Map.class), Map.class);
                default -> throw new IllegalStateException(name); // checkFields refused it
            }
        }
        if (!asked && !request.askListener(appName, metadata, methodName)) {
            return stop(in, ref, appName, metadata, methodName);
        }
        MessageWrapper message = new MessageWrapper(appName, metadata, methodName, args, attachments);
        in.setRef(ref, message);
        return message;
    }

    /**
     * Refuses a definition that lists a field twice, one of the envelope's after {@code args} or
     * {@code attachments}, or a field a request does not have.
     */
    private static void checkFields(Object[] fields) {
        int seen = 0;
        boolean envelopeDone = false;
        for (Object field : fields) {
            String name = String.valueOf(field);
            int bit = switch (name) {
                case "appName" -> 1;
                case "methodName" -> 2;
                case "metadata" -> 4;
                case "args" -> 8;
                case "attachments" -> 16;
                default -> throw new EnvelopeException("hessian: the request has a field '" + name
                        + "' (expected: appName, methodName, metadata, args, attachments)");
            };
            if ((seen & bit) != 0) {
                throw new EnvelopeException("hessian: the request names its field '" + name
                        + "' twice (expected: once)");
            }
            if (bit <= 4 && envelopeDone) {
                throw new EnvelopeException("hessian: the request's field '" + name
                        + "' comes after its arguments or attachments (expected: before them)");
            }
            envelopeDone |= bit >= 8;
            seen |= bit;
        }
    }

    private static MessageWrapper stop(AbstractHessianInput in, int ref, String appName, ServiceMetadata metadata,
                                       String methodName) throws IOException {
        MessageWrapper envelope = new MessageWrapper(appName, metadata, methodName, null, null);
        in.setRef(ref, envelope);
        return envelope;
    }

    private static <T> T cast(Object value, Class<T> type) throws HessianProtocolException {
        if (value != null && !type.isInstance(value)) {
            throw new HessianProtocolException("MessageWrapper field of type " + type.getName() + " holds a "
                    + value.getClass().getName());
        }
        return type.cast(value);
    }
}
