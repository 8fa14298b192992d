package io.jupiter.serialization.hessian;

import com.caucho.hessian.io.AbstractHessianInput;
import com.caucho.hessian.io.Deserializer;
import java.io.IOException;

/**
 * A Hessian deserializer that charges the lengths Hessian hands it (fixed-length lists and arrays, the field count
 * of an object definition) to the body's budget ({@link BoundedHessianInput#charge}) before its delegate allocates
 * that many; everything else is the delegate's.
 */
final class BoundedDeserializer implements Deserializer {

    private final Deserializer delegate;

    private BoundedDeserializer(Deserializer delegate) {
        this.delegate = delegate;
    }

    /** {@code deserializer} bounded ({@code null} stays {@code null}). */
    static Deserializer of(Deserializer deserializer) {
        return deserializer == null || deserializer instanceof BoundedDeserializer ? deserializer
                : new BoundedDeserializer(deserializer);
    }

    @Override
    public Class<?> getType() {
        return delegate.getType();
    }

    @Override
    public boolean isReadResolve() {
        return delegate.isReadResolve();
    }

    @Override
    public Object readObject(AbstractHessianInput in) throws IOException {
        return delegate.readObject(in);
    }

    @Override
    public Object readList(AbstractHessianInput in, int length) throws IOException {
        return delegate.readList(in, length);
    }

    @Override
    public Object readLengthList(AbstractHessianInput in, int length) throws IOException {
        BoundedHessianInput.charge(in, length, "list");
        return delegate.readLengthList(in, length);
    }

    @Override
    public Object readMap(AbstractHessianInput in) throws IOException {
        return delegate.readMap(in);
    }

    @Override
    public Object[] createFields(int length) {
        BoundedHessianInput.charge(length, "object definition");
        return delegate.createFields(length);
    }

    @Override
    public Object createField(String name) {
        return delegate.createField(name);
    }

    @Override
    public Object readObject(AbstractHessianInput in, Object[] fields) throws IOException {
        return delegate.readObject(in, fields);
    }

    @Override
    public Object readObject(AbstractHessianInput in, String[] fieldNames) throws IOException {
        return delegate.readObject(in, fieldNames);
    }
}
