package io.jupiter.serialization.hessian;

import com.caucho.hessian.io.AbstractDeserializer;
import com.caucho.hessian.io.AbstractHessianInput;
import java.io.IOException;
import java.lang.reflect.Field;
import java.math.BigInteger;
import java.util.List;

/**
 * {@code java.math.BigInteger} as Hessian writes it, field by field ({@code signum}, {@code mag} and the JDK's
 * cached values, written as 0: not computed), from its public methods; read back from {@code signum} and
 * {@code mag} alone.
 */
final class BigIntegerForm {

    private BigIntegerForm() {
    }

    /** The serializer, or {@code null} if this JDK's {@code BigInteger} has a field other than those known. */
    static FieldsSerializer serializer() {
        List<Field> fields = WireFields.of(BigInteger.class);
        for (Field field : fields) {
            if (!field.getName().equals("mag") && field.getType() != int.class) {
                return null;
            }
        }
        List<String> names = fields.stream().map(Field::getName).toList();
        return new FieldsSerializer(names, fields.stream().<Class<?>>map(Field::getType).toList()) {
            @Override
            Object value(Object obj, int index) {
                BigInteger value = (BigInteger) obj;
                switch (names.get(index)) {
                    case "signum":
                        return value.signum();
                    case "mag":
                        return magnitude(value);
                    default:
                        return 0;
                }
            }
        };
    }

    /** The magnitude as the JDK keeps it: big-endian ints, no leading zero int. */
    static int[] magnitude(BigInteger value) {
        byte[] bytes = value.abs().toByteArray();
        int start = 0;
        while (start < bytes.length && bytes[start] == 0) {
            start++;
        }
        int length = bytes.length - start;
        int[] mag = new int[(length + 3) / 4];
        for (int i = 0; i < length; i++) {
            int fromEnd = length - 1 - i;
            mag[mag.length - 1 - fromEnd / 4] |= (bytes[start + i] & 0xff) << (8 * (fromEnd % 4));
        }
        return mag;
    }

    static final AbstractDeserializer DESERIALIZER = new ByNameDeserializer(BigInteger.class) {
        @Override
        public Object readObject(AbstractHessianInput in, String[] fieldNames) throws IOException {
            int ref = in.addRef(null);
            int signum = 0;
            int[] mag = null;
            for (String name : fieldNames) {
                if (name.equals("signum")) {
                    signum = in.readInt();
                } else if (name.equals("mag")) {
                    Object value = in.readObject(int[].class);
                    mag = value instanceof int[] ? (int[]) value : null;
                } else {
                    in.readObject();
                }
            }
            BigInteger value;
            try {
                value = mag == null || mag.length == 0 ? BigInteger.ZERO : new BigInteger(signum, bytes(mag));
            } catch (NumberFormatException e) {
                throw new IOException("java.math.BigInteger: signum " + signum + " with its magnitude: " + e, e);
            }
            in.setRef(ref, value);
            return value;
        }
    };

    private static byte[] bytes(int[] mag) {
        byte[] bytes = new byte[mag.length * 4];
        for (int i = 0; i < mag.length; i++) {
            bytes[4 * i] = (byte) (mag[i] >>> 24);
            bytes[4 * i + 1] = (byte) (mag[i] >>> 16);
            bytes[4 * i + 2] = (byte) (mag[i] >>> 8);
            bytes[4 * i + 3] = (byte) mag[i];
        }
        return bytes;
    }
}
