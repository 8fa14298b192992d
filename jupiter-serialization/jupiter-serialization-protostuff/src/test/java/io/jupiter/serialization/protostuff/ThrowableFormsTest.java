package io.jupiter.serialization.protostuff;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.testkit.suites.serialization.Samples;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The two forms protostuff gives a throwable in the {@code result} slot (docs/protocol.md, "Protostuff"): under
 * field 52 without its {@code cause} while protostuff's id strategy does not know the class, then under field 127
 * with every field, {@code cause} included (an exception never given a cause holds itself there). 1.3.1's vectors
 * show both forms; a replacement of protostuff's {@code Unsafe} field access must keep them.
 */
class ThrowableFormsTest {

    /** Used by this test only, so that protostuff meets its class here first. */
    static final class OnlyHereException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        OnlyHereException(String message) {
            super(message);
            setStackTrace(new StackTraceElement[0]);
        }
    }

    @Test
    void firstUnderFieldFiftyTwoWithoutCauseThenUnderFieldOneTwentySevenWithIt() {
        ProtostuffSerializer serializer =
                new ProtostuffSerializer(ClassAllowList.create(ClassAllowList.Mode.STRICT).trust(
                        OnlyHereException.class));
        byte[] name = OnlyHereException.class.getName().getBytes(StandardCharsets.UTF_8);

        byte[] first = Samples.encode(serializer, new ResultWrapper(new OnlyHereException("m")));
        assertThat(first).isEqualTo(bytes(0x0b, throwable(name, "m"), 0x0c));

        byte[] later = Samples.encode(serializer, new ResultWrapper(new OnlyHereException("m")));
        assertThat(later).isEqualTo(bytes(0x0b, 0xfa, 0x07, name.length, name, 0x0a, 0x01, 'm',
                0x13, throwable(name, "m"), 0x14, // 2 cause: start group, the throwable itself, end group
                0x1b, 0x08, 0x00, 0x1c, 0x0c));   // 3 stackTrace: no elements

        Throwable read = (Throwable) read(serializer, first).getResult();
        assertThat(read).isInstanceOf(OnlyHereException.class).hasMessage("m");
        assertThat(read.getCause()).isNull();
        Throwable readLater = (Throwable) read(serializer, later).getResult();
        assertThat(readLater).isInstanceOf(OnlyHereException.class).hasMessage("m");
        assertThat(readLater.getCause()).isNotSameAs(readLater).isInstanceOf(OnlyHereException.class).hasMessage("m");
    }

    /** Field 52 with the class name, 1 {@code detailMessage}, 3 {@code stackTrace} (empty); no cause, no suppressed. */
    private static byte[] throwable(byte[] name, String message) {
        return bytes(0xa2, 0x03, name.length, name, 0x0a, message.length(), message.getBytes(StandardCharsets.UTF_8),
                0x1b, 0x08, 0x00, 0x1c);
    }

    private static ResultWrapper read(ProtostuffSerializer serializer, byte[] body) {
        ByteBuf buf = Unpooled.wrappedBuffer(body);
        try {
            return serializer.read(buf, ResultWrapper.class);
        } finally {
            buf.release();
        }
    }

    /** Bytes from ints, chars and byte arrays, in order. */
    private static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            if (part instanceof byte[] array) {
                out.writeBytes(array);
            } else if (part instanceof Character c) {
                out.write(c);
            } else {
                out.write((Integer) part);
            }
        }
        return out.toByteArray();
    }
}
