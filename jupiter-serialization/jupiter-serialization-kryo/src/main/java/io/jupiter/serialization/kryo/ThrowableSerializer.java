package io.jupiter.serialization.kryo;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.ReadLimits;
import io.jupiter.serialization.internal.CheckedObjectInputStream;
import io.jupiter.serialization.internal.LimitingInputFilter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

/**
 * Throwables as JDK serialization (they keep their stack, cause and suppressed list), length-prefixed, and read
 * through a {@link CheckedObjectInputStream} so that the classes inside are held to the same allow-list as Kryo's
 * own class names, and with the java serializer's read limits ({@link LimitingInputFilter}: lengths, depth,
 * references, bytes). (Kryo's stock {@code JavaSerializer} would read any class there.) Only failed calls take this
 * path, so the byte array per throwable is no concern.
 */
final class ThrowableSerializer extends Serializer<Throwable> {

    private final ClassAllowList allowList;
    private final ReadLimits readLimits;

    ThrowableSerializer(ClassAllowList allowList, ReadLimits readLimits) {
        this.allowList = allowList;
        this.readLimits = readLimits;
    }

    @Override
    public void write(Kryo kryo, Output output, Throwable value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new KryoException("cannot write " + value.getClass().getName() + ": " + e, e);
        }
        output.writeVarInt(bytes.size(), true);
        output.writeBytes(bytes.toByteArray());
    }

    @Override
    public Throwable read(Kryo kryo, Input input, Class<? extends Throwable> type) {
        int length = input.readVarInt(true);
        if (length < 0 || length > input.limit() - input.position()) {
            throw new KryoException("throwable of " + length + " bytes, more than the body holds");
        }
        byte[] bytes = input.readBytes(length);
        LimitingInputFilter limits = new LimitingInputFilter(length, readLimits,
                ObjectInputFilter.Config.getSerialFilter());
        try (ObjectInputStream in = new CheckedObjectInputStream(new ByteArrayInputStream(bytes), allowList, "kryo",
                kryo.getClassLoader())) {
            in.setObjectInputFilter(limits);
            Object value = in.readObject();
            if (!type.isInstance(value)) {
                throw new KryoException("expected " + type.getName() + ", found "
                        + (value == null ? "null" : value.getClass().getName()));
            }
            return type.cast(value);
        } catch (IOException | ClassNotFoundException e) {
            if (limits.breach() != null) {
                throw limits.breach();
            }
            throw new KryoException("cannot read " + type.getName() + ": " + e, e);
        }
    }
}
