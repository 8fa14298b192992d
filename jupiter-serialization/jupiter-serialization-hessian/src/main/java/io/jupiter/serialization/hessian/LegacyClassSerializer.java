package io.jupiter.serialization.hessian;

import com.caucho.hessian.io.AbstractHessianOutput;
import com.caucho.hessian.io.AbstractSerializer;
import io.jupiter.serialization.wire.LegacyClassNames;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;

/**
 * Writes one of the body classes as Jupiter 1.3.1's Hessian did: a class definition named
 * {@code org.jupiter.rpc.model.metadata.*} whose fields come in the order Hessian's reflective serializer chose
 * there ({@code String} fields first, then the others, each group in declaration order).
 *
 * <p>Values are taken through the getters, so a {@code MessageWrapper} whose {@code args} are null is written with
 * an empty array (1.3.1's consumers never send null args).
 */
final class LegacyClassSerializer extends AbstractSerializer {

    static final LegacyClassSerializer MESSAGE_WRAPPER = new LegacyClassSerializer(
            LegacyClassNames.MESSAGE_WRAPPER,
            new String[] {"appName", "methodName", "metadata", "args", "attachments"},
            new boolean[] {true, true, false, false, false},
            List.of(o -> ((MessageWrapper) o).getAppName(),
                    o -> ((MessageWrapper) o).getMethodName(),
                    o -> ((MessageWrapper) o).getMetadata(),
                    o -> ((MessageWrapper) o).getArgs(),
                    o -> ((MessageWrapper) o).getAttachments()));

    static final LegacyClassSerializer SERVICE_METADATA = new LegacyClassSerializer(
            LegacyClassNames.SERVICE_METADATA,
            new String[] {"group", "serviceProviderName", "version"},
            new boolean[] {true, true, true},
            List.of(o -> ((ServiceMetadata) o).getGroup(),
                    o -> ((ServiceMetadata) o).getServiceProviderName(),
                    o -> ((ServiceMetadata) o).getVersion()));

    static final LegacyClassSerializer RESULT_WRAPPER = new LegacyClassSerializer(
            LegacyClassNames.RESULT_WRAPPER,
            new String[] {"result"},
            new boolean[] {false},
            List.of(o -> ((ResultWrapper) o).getResult()));

    /**
     * One of our wire forms of 1.3.1's exceptions, under its 1.3.1 name. Only the message and the (empty) stack
     * travel, as fields of {@code Throwable}; a 1.3.1 peer fills the rest in from its own constructor.
     */
    static LegacyClassSerializer exception(String legacyName) {
        return new LegacyClassSerializer(legacyName,
                new String[] {"detailMessage", "stackTrace"},
                new boolean[] {true, false},
                List.of(o -> ((Throwable) o).getMessage(), o -> ((Throwable) o).getStackTrace()));
    }

    private final String className;
    private final String[] fieldNames;
    private final boolean[] strings;
    private final List<Function<Object, Object>> getters;

    private LegacyClassSerializer(String className, String[] fieldNames, boolean[] strings,
                                  List<Function<Object, Object>> getters) {
        this.className = className;
        this.fieldNames = fieldNames;
        this.strings = strings;
        this.getters = getters;
    }

    @Override
    public void writeObject(Object obj, AbstractHessianOutput out) throws IOException {
        if (out.addRef(obj)) {
            return;
        }
        int ref = out.writeObjectBegin(className);
        if (ref < -1) {
            // Hessian 1 style: a typed map (Hessian2Output never asks for it).
            for (int i = 0; i < fieldNames.length; i++) {
                out.writeString(fieldNames[i]);
                writeField(i, obj, out);
            }
            out.writeMapEnd();
            return;
        }
        if (ref == -1) {
            out.writeClassFieldLength(fieldNames.length);
            for (String name : fieldNames) {
                out.writeString(name);
            }
            out.writeObjectBegin(className);
        }
        for (int i = 0; i < fieldNames.length; i++) {
            writeField(i, obj, out);
        }
    }

    private void writeField(int i, Object obj, AbstractHessianOutput out) throws IOException {
        Object value = getters.get(i).apply(obj);
        if (strings[i]) {
            out.writeString((String) value);
        } else {
            out.writeObject(value);
        }
    }
}
