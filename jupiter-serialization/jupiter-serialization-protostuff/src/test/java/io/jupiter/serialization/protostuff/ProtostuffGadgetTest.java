package io.jupiter.serialization.protostuff;

import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.Serializer;
import io.jupiter.testkit.suites.serialization.GadgetSuite;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

class ProtostuffGadgetTest extends GadgetSuite {

    @Override
    protected Serializer serializer(ClassAllowList allowList) {
        return new ProtostuffSerializer(allowList);
    }

    /** A length-delimited string: varint length, then UTF-8. */
    @Override
    protected byte[] encodedName(String className) {
        byte[] utf8 = className.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int length = utf8.length;
        while ((length & ~0x7f) != 0) {
            out.write((length & 0x7f) | 0x80);
            length >>>= 7;
        }
        out.write(length);
        out.writeBytes(utf8);
        return out.toByteArray();
    }
}
