package io.jupiter.serialization.kryo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.esotericsoftware.kryo.io.Output;
import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.ClassNotTrustedException;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.testkit.suites.serialization.GadgetSuite;
import io.jupiter.testkit.suites.serialization.Samples;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import javax.management.BadAttributeValueExpException;
import org.junit.jupiter.api.Test;

class KryoGadgetTest extends GadgetSuite {

    @Override
    protected Serializer serializer(ClassAllowList allowList) {
        return new KryoSerializer(allowList);
    }

    /**
     * A class name as Kryo's class resolver writes it: ASCII, the last byte marked, whatever the length
     * ({@code writeString} gives the same bytes only up to 32 characters; longer strings get a length prefix).
     */
    @Override
    protected byte[] encodedName(String className) {
        Output out = new Output(256, -1);
        out.writeAscii(className);
        return out.toBytes();
    }

    @Test
    void aGadgetInsideAThrowablesJavaStreamIsRefusedToo() {
        // The outer class is trusted and travels by Kryo name; the cause travels inside the JDK stream Kryo embeds
        // for throwables, which must be held to the same allow-list.
        IllegalStateException outer = new IllegalStateException("outer", new BadAttributeValueExpException("x"));
        byte[] bytes = Samples.encode(serializer(ClassAllowList.create(ClassAllowList.Mode.OFF)),
                new ResultWrapper(outer));
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            Throwable thrown = catchThrowable(() ->
                    serializer(ClassAllowList.create(ClassAllowList.Mode.STRICT)).read(buf, ResultWrapper.class));
            assertThat(thrown).isInstanceOf(ClassNotTrustedException.class)
                    .hasMessageContaining(BadAttributeValueExpException.class.getName());
        } finally {
            buf.release();
        }
    }
}
