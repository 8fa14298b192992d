package io.jupiter.serialization.kryo;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.ByteBufferInput;
import com.esotericsoftware.kryo.io.Input;
import io.jupiter.serialization.LengthBudget;
import java.nio.ByteBuffer;

/**
 * Kryo input that charges every length it is asked to allocate for (strings, byte and primitive arrays) to the
 * body's {@link LengthBudget} before allocating, and gives the bounded collection, map and array serializers
 * ({@link BoundedSerializers}) the same budget. Kryo itself allocates whatever a length says.
 */
final class BoundedInput extends ByteBufferInput {

    private final LengthBudget budget = new LengthBudget(0);

    BoundedInput(ByteBuffer buffer) {
        super(buffer);
    }

    /** Reads {@code buffer} from now on, with a budget of its remaining bytes. */
    @Override
    public void setBuffer(ByteBuffer buffer) {
        super.setBuffer(buffer);
        if (budget != null) { // null while the superclass's constructor sets its first buffer
            budget.reset(buffer.remaining());
        }
    }

    /** Charges {@code length} to the budget of {@code input} if it is one of ours. */
    static void charge(Input input, int length, String what) {
        if (input instanceof BoundedInput) {
            ((BoundedInput) input).budget.charge(length, what);
        }
    }

    /** Reads the unsigned varint at the current position without consuming it. */
    static int peekVarInt(Input input) {
        int position = input.position();
        int value = input.readVarInt(true);
        input.setPosition(position);
        return value;
    }

    @Override
    public String readString() {
        checkStringLength();
        return super.readString();
    }

    @Override
    public StringBuilder readStringBuilder() {
        checkStringLength();
        return super.readStringBuilder();
    }

    /** UTF-8 strings declare their length in characters, each at least one byte; ASCII strings declare none. */
    private void checkStringLength() {
        int position = position();
        if (readVarIntFlag()) {
            int charCount = readVarIntFlag(true);
            if (charCount > 1) {
                budget.charge(charCount - 1, "string");
            }
        }
        setPosition(position);
    }

    @Override
    public byte[] readBytes(int length) throws KryoException {
        budget.charge(length, "byte array");
        return super.readBytes(length);
    }

    @Override
    public int[] readInts(int length) throws KryoException {
        budget.charge(length, "int array");
        return super.readInts(length);
    }

    @Override
    public int[] readInts(int length, boolean optimizePositive) throws KryoException {
        budget.charge(length, "int array");
        return super.readInts(length, optimizePositive);
    }

    @Override
    public long[] readLongs(int length) throws KryoException {
        budget.charge(length, "long array");
        return super.readLongs(length);
    }

    @Override
    public long[] readLongs(int length, boolean optimizePositive) throws KryoException {
        budget.charge(length, "long array");
        return super.readLongs(length, optimizePositive);
    }

    @Override
    public float[] readFloats(int length) throws KryoException {
        budget.charge(length, "float array");
        return super.readFloats(length);
    }

    @Override
    public double[] readDoubles(int length) throws KryoException {
        budget.charge(length, "double array");
        return super.readDoubles(length);
    }

    @Override
    public short[] readShorts(int length) throws KryoException {
        budget.charge(length, "short array");
        return super.readShorts(length);
    }

    @Override
    public char[] readChars(int length) throws KryoException {
        budget.charge(length, "char array");
        return super.readChars(length);
    }

    @Override
    public boolean[] readBooleans(int length) throws KryoException {
        budget.charge(length, "boolean array");
        return super.readBooleans(length);
    }
}
