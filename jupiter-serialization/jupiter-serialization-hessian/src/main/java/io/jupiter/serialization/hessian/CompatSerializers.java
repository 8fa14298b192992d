package io.jupiter.serialization.hessian;

import com.caucho.hessian.io.AbstractDeserializer;
import com.caucho.hessian.io.AbstractHessianInput;
import com.caucho.hessian.io.AbstractHessianOutput;
import com.caucho.hessian.io.AbstractSerializer;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Hessian (de)serializers that keep the wire readable by Jupiter 1.3.1's Hessian 4.0.38.
 */
final class CompatSerializers {

    /**
     * {@code Byte} and {@code Short} as a plain Hessian int, as 4.0.38 wrote them (4.0.66 would write a
     * {@code com.caucho.hessian.io.ByteHandle}/{@code ShortHandle} object). They arrive as {@code Integer}.
     */
    static final AbstractSerializer SMALL_INT = new AbstractSerializer() {
        @Override
        public void writeObject(Object obj, AbstractHessianOutput out) throws IOException {
            out.writeInt(((Number) obj).intValue());
        }
    };

    /** {@code Float} as a plain Hessian double, as 4.0.38 wrote it. It arrives as {@code Double}. */
    static final AbstractSerializer FLOAT = new AbstractSerializer() {
        @Override
        public void writeObject(Object obj, AbstractHessianOutput out) throws IOException {
            out.writeDouble(((Float) obj).doubleValue());
        }
    };

    /**
     * Reads {@code java.math.BigDecimal} in both forms: Hessian 4.0.66's {@code value} string, and 4.0.38's
     * reflective {@code scale}/{@code intVal} fields. In the latter a null {@code intVal} means the digits were in
     * the transient compact field and were never sent; the value reads as zero with that scale, as 1.3.1 read it.
     */
    static final AbstractDeserializer BIG_DECIMAL = new ByNameDeserializer(BigDecimal.class) {
        @Override
        public Object readObject(AbstractHessianInput in, String[] fieldNames) throws IOException {
            int ref = in.addRef(null);
            String text = null;
            int scale = 0;
            BigInteger unscaled = null;
            for (String name : fieldNames) {
                switch (name) {
                    case "value":
                        text = in.readString();
                        break;
                    case "scale":
                        scale = in.readInt();
                        break;
                    case "intVal": {
                        Object intVal = in.readObject();
                        unscaled = intVal instanceof BigInteger ? (BigInteger) intVal : null;
                        break;
                    }
                    default:
                        in.readObject();
                        break;
                }
            }
            BigDecimal value;
            try {
                value = text != null ? new BigDecimal(text)
                        : new BigDecimal(unscaled == null ? BigInteger.ZERO : unscaled, scale);
            } catch (NumberFormatException e) {
                throw new IOException("java.math.BigDecimal: '" + text + "' is not a number", e);
            }
            in.setRef(ref, value);
            return value;
        }
    };

    private CompatSerializers() {
    }
}
