package io.jupiter.serialization.java;

import io.jupiter.serialization.wire.LegacyClassNames;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamField;
import java.io.OutputStream;

/**
 * Writes our body classes' descriptors under Jupiter 1.3.1's names, including field type signatures such as
 * {@code Lorg/jupiter/rpc/model/metadata/ServiceMetadata;}. Everything else is written as the JDK does.
 */
final class LegacyObjectOutputStream extends ObjectOutputStream {

    /** {@code ObjectStreamClass}'s {@code SC_SERIALIZABLE}: the only flag our body classes have. */
    private static final byte SC_SERIALIZABLE = 0x02;

    LegacyObjectOutputStream(OutputStream out) throws IOException {
        super(out);
    }

    @Override
    protected void writeClassDescriptor(ObjectStreamClass desc) throws IOException {
        String legacyName = LegacyClassNames.TO_LEGACY.get(desc.getName());
        if (legacyName == null) {
            super.writeClassDescriptor(desc);
            return;
        }
        // The layout of ObjectStreamClass.writeNonProxy, with names mapped. Type strings go through
        // writeObject(String), which shares strings by handle exactly as the JDK's writeTypeString does (the JDK's
        // signatures are interned, so equal signatures are one handle; ours are interned too).
        writeUTF(legacyName);
        writeLong(desc.getSerialVersionUID());
        writeByte(SC_SERIALIZABLE);
        ObjectStreamField[] fields = desc.getFields();
        writeShort(fields.length);
        for (ObjectStreamField field : fields) {
            writeByte(field.getTypeCode());
            writeUTF(field.getName());
            if (!field.isPrimitive()) {
                writeObject(legacySignature(field.getTypeString()));
            }
        }
    }

    private static String legacySignature(String signature) {
        // Signatures look like "Lio/jupiter/serialization/wire/ServiceMetadata;" or "[L...;".
        int start = signature.indexOf('L');
        if (start < 0) {
            return signature;
        }
        String className = signature.substring(start + 1, signature.length() - 1).replace('/', '.');
        String legacy = LegacyClassNames.TO_LEGACY.get(className);
        if (legacy == null) {
            return signature;
        }
        return (signature.substring(0, start) + 'L' + legacy.replace('.', '/') + ';').intern();
    }
}
