package io.jupiter.serialization.java;

import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.Serializer;
import io.jupiter.testkit.suites.serialization.GadgetSuite;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

class JavaGadgetTest extends GadgetSuite {

    @Override
    protected Serializer serializer(ClassAllowList allowList) {
        return new JavaSerializer(allowList);
    }

    /** A class descriptor's name: modified UTF-8 with a two-byte length. */
    @Override
    protected byte[] encodedName(String className) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(className);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
