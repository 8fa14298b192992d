package io.jupiter.serialization.hessian;

import com.caucho.hessian.io.AbstractDeserializer;
import com.caucho.hessian.io.AbstractHessianInput;
import com.caucho.hessian.io.HessianProtocolException;
import io.jupiter.serialization.EnvelopeException;
import io.jupiter.serialization.wire.ServiceMetadata;
import java.io.IOException;

/**
 * Reads a {@code ServiceMetadata} as the one thing it is: an object of the three strings {@code group},
 * {@code serviceProviderName} and {@code version}, each at most once. Any other field, a repeated one, a map or a
 * list in its place is refused before its value is read, so a request's envelope can carry nothing else for the
 * provider to read before it has authorized the request.
 */
final class ServiceMetadataDeserializer extends AbstractDeserializer {

    static final ServiceMetadataDeserializer INSTANCE = new ServiceMetadataDeserializer();

    private ServiceMetadataDeserializer() {
    }

    @Override
    public Class<?> getType() {
        return ServiceMetadata.class;
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
    public Object readMap(AbstractHessianInput in) throws IOException {
        throw new HessianProtocolException("a service's metadata is a map (expected: an object of three strings)");
    }

    @Override
    public Object readObject(AbstractHessianInput in, Object[] fields) throws IOException {
        return read(in, fields);
    }

    @Override
    public Object readObject(AbstractHessianInput in, String[] fieldNames) throws IOException {
        return read(in, fieldNames);
    }

    private static ServiceMetadata read(AbstractHessianInput in, Object[] fields) throws IOException {
        int ref = in.addRef(null);
        String group = null;
        String name = null;
        String version = null;
        int seen = 0;
        for (Object field : fields) {
            String fieldName = String.valueOf(field);
            int bit = switch (fieldName) {
                case "group" -> 1;
                case "serviceProviderName" -> 2;
                case "version" -> 4;
                default -> throw new EnvelopeException("hessian: a service's metadata has a field '" + fieldName
                        + "' (expected: group, serviceProviderName, version)");
            };
            if ((seen & bit) != 0) {
                throw new EnvelopeException("hessian: a service's metadata names its field '" + fieldName
                        + "' twice (expected: once)");
            }
            seen |= bit;
            String value = in.readString();
            switch (bit) {
                case 1 -> group = value;
                case 2 -> name = value;
                default -> version = value;
            }
        }
        ServiceMetadata metadata = new ServiceMetadata(group, name, version);
        in.setRef(ref, metadata);
        return metadata;
    }
}
