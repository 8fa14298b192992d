package io.jupiter.serialization.hessian;

import com.caucho.hessian.io.Hessian2Output;
import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.Serializer;
import io.jupiter.testkit.suites.serialization.GadgetSuite;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

class HessianGadgetTest extends GadgetSuite {

    @Override
    protected Serializer serializer(ClassAllowList allowList) {
        return new HessianSerializer(allowList);
    }

    /** A Hessian string, as a class definition carries its type name. */
    @Override
    protected byte[] encodedName(String className) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Hessian2Output out = new Hessian2Output(bytes);
        try {
            out.writeString(className);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
