package io.jupiter.serialization.hessian;

import com.caucho.hessian.io.AbstractDeserializer;
import com.caucho.hessian.io.AbstractHessianInput;
import com.caucho.hessian.io.Deserializer;
import java.io.IOException;

/**
 * Reads a request's {@code args} array as Hessian's own array deserializer does (a fixed-length list: the array is
 * registered for back-references, then each element read as an {@code Object}), telling the {@link RequestRead}
 * the count and where each element starts. A variable-length list, which 1.3.1 never writes for an array, is left
 * to Hessian's deserializer (its elements are checked once read).
 */
final class ArgumentsDeserializer extends AbstractDeserializer {

    private final RequestRead request;
    private final Deserializer hessians;

    ArgumentsDeserializer(RequestRead request, Deserializer hessians) {
        this.request = request;
        this.hessians = hessians;
    }

    @Override
    public Class<?> getType() {
        return Object[].class;
    }

    @Override
    public Object readLengthList(AbstractHessianInput in, int length) throws IOException {
        request.count(length);
        Object[] data = new Object[length];
        in.addRef(data);
        int depth = in instanceof BoundedHessianInput ? ((BoundedHessianInput) in).depth() + 1 : -1;
        for (int i = 0; i < length; i++) {
            request.elementStarts(i, depth);
            data[i] = in.readObject();
        }
        return data;
    }

    @Override
    public Object readList(AbstractHessianInput in, int length) throws IOException {
        return hessians.readList(in, length);
    }
}
