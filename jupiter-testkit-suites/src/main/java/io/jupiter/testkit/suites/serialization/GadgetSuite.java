package io.jupiter.testkit.suites.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.ClassNotTrustedException;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.testkit.LeakDetectionExtension;
import io.jupiter.testkit.suites.serialization.gadget.Decoy;
import io.jupiter.testkit.suites.serialization.gadget.Gadget;
import io.jupiter.testkit.suites.serialization.gadget.GadgetFlags;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.util.ArrayList;
import java.util.List;
import javax.management.BadAttributeValueExpException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Proves that a serializer refuses class names that are not trusted before it makes any instance. Bodies naming a
 * gadget are made honestly: a body holding a {@link Decoy} is written by the serializer itself (with the allow-list
 * off), and the decoy's name, in the serializer's own encoding of names, is replaced by the gadget's. For our own
 * {@link Gadget} the same body read with the allow-list off really makes one, which shows the bytes are live.
 *
 * <p>A serializer that names classes in its bodies (Jupiter's protostuff, hessian, kryo and java do) runs this
 * beside {@link SerializerSuite}. Leaked buffers fail the class, as there.
 */
@ExtendWith(LeakDetectionExtension.class)
public abstract class GadgetSuite {

    /** For subclasses. */
    protected GadgetSuite() {
    }

    /** Tracks every buffer: leaks are reported, not sampled. */
    @BeforeAll
    static void trackEveryBuffer() {
        if (ResourceLeakDetector.getLevel().ordinal() < ResourceLeakDetector.Level.PARANOID.ordinal()) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        }
    }

    /** Known gadget classes, some on the class path (JDK), most not. */
    static final List<String> KNOWN_GADGETS = List.of(
            "org.apache.commons.collections.functors.InvokerTransformer",
            "org.apache.commons.collections4.functors.InstantiateTransformer",
            "com.sun.rowset.JdbcRowSetImpl",
            "java.lang.ProcessBuilder",
            "java.lang.Runtime",
            "javax.management.BadAttributeValueExpException",
            "org.springframework.beans.factory.ObjectFactory",
            "com.mchange.v2.c3p0.WrapperConnectionPoolDataSource",
            "sun.reflect.annotation.AnnotationInvocationHandler",
            "com.sun.org.apache.xalan.internal.xsltc.trax.TemplatesImpl",
            "org.codehaus.groovy.runtime.MethodClosure");

    /** The serializer under test with {@code allowList}. */
    protected abstract Serializer serializer(ClassAllowList allowList);

    /** How this serializer writes a class name (with its length prefix or end mark). */
    protected abstract byte[] encodedName(String className);

    static List<Object[]> gadgetsInRequestsAndResponses() {
        List<Object[]> cases = new ArrayList<>();
        for (String name : KNOWN_GADGETS) {
            cases.add(new Object[] {name, true});
            cases.add(new Object[] {name, false});
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} in a {1} body")
    @MethodSource("gadgetsInRequestsAndResponses")
    void knownGadgetsAreRefused(String gadget, boolean request) {
        byte[] bytes = bodyNaming(gadget, request);

        Throwable thrown = catchThrowable(() -> read(serializer(strict()), bytes, request));

        assertThat(thrown).isInstanceOf(ClassNotTrustedException.class).hasMessageContaining("'" + gadget + "'");
        assertThat(((ClassNotTrustedException) thrown).className()).isEqualTo(gadget);
    }

    @Test
    void ownGadgetIsRefusedBeforeItsClassInitializesOrAnInstanceIsMade() {
        String gadget = Gadget.class.getName();
        for (boolean request : new boolean[] {true, false}) {
            byte[] bytes = bodyNaming(gadget, request);
            Throwable thrown = catchThrowable(() -> read(serializer(strict()), bytes, request));
            assertThat(thrown).isInstanceOf(ClassNotTrustedException.class).hasMessageContaining(gadget);
        }
        assertThat(GadgetFlags.INITIALIZED).as("static initializer ran").isFalse();
        assertThat(GadgetFlags.CONSTRUCTED).as("constructor ran").isFalse();

        // The same bytes with the allow-list off do make a gadget: the refusal above is what stopped it.
        Object made = read(serializer(ClassAllowList.create(ClassAllowList.Mode.OFF)), bodyNaming(gadget, false),
                false);
        assertThat(made).isInstanceOf(Gadget.class);
        assertThat(GadgetFlags.INITIALIZED).isTrue();
    }

    @Test
    void aRealJdkGadgetInstanceIsRefused() {
        Object gadget = new BadAttributeValueExpException("payload");
        byte[] bytes = write(new ResultWrapper(gadget));

        Throwable thrown = catchThrowable(() -> read(serializer(strict()), bytes, false));

        assertThat(thrown).isInstanceOf(ClassNotTrustedException.class)
                .hasMessageContaining(BadAttributeValueExpException.class.getName());
    }

    @Test
    void anUntrustedClassIsRefusedInStrictModeAndReadInWarnMode() {
        byte[] bytes = bodyNaming(Decoy.class.getName(), true);

        assertThat(catchThrowable(() -> read(serializer(strict()), bytes, true)))
                .isInstanceOf(ClassNotTrustedException.class)
                .hasMessageContaining("'" + Decoy.class.getName() + "'")
                .hasMessageContaining("trustPackage(\"" + Decoy.class.getPackageName() + "\")");
        Object warned = read(serializer(ClassAllowList.create(ClassAllowList.Mode.WARN)), bytes, true);
        assertThat(warned).isInstanceOf(Decoy.class);
        Object trusted = read(serializer(ClassAllowList.create(ClassAllowList.Mode.STRICT).trust(Decoy.class)),
                bytes, true);
        assertThat(((Decoy) trusted).getNote()).isEqualTo("decoy");
    }

    private ClassAllowList strict() {
        return ClassAllowList.create(ClassAllowList.Mode.STRICT);
    }

    /** A request (the decoy as an argument) or response (the decoy as the result) body naming {@code className}. */
    protected byte[] bodyNaming(String className, boolean request) {
        Decoy decoy = new Decoy("decoy");
        byte[] body = write(request ? Samples.request(new Object[] {"x", decoy}, null) : new ResultWrapper(decoy));
        return replaceOnce(body, encodedName(Decoy.class.getName()), encodedName(className));
    }

    private byte[] write(Object value) {
        return Samples.encode(serializer(ClassAllowList.create(ClassAllowList.Mode.OFF)), value);
    }

    /** The argument or result read from {@code bytes}. */
    private Object read(Serializer serializer, byte[] bytes, boolean request) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.heapBuffer(bytes.length);
        try {
            buf.writeBytes(bytes);
            return request ? serializer.read(buf, MessageWrapper.class).getArgs()[1]
                    : serializer.read(buf, ResultWrapper.class).getResult();
        } finally {
            buf.release();
        }
    }

    private static byte[] replaceOnce(byte[] bytes, byte[] from, byte[] to) {
        int at = indexOf(bytes, from, 0);
        assertThat(at).as("the decoy's encoded name in the body").isNotNegative();
        assertThat(indexOf(bytes, from, at + 1)).as("a second occurrence of the decoy's name").isNegative();
        byte[] out = new byte[bytes.length - from.length + to.length];
        System.arraycopy(bytes, 0, out, 0, at);
        System.arraycopy(to, 0, out, at, to.length);
        System.arraycopy(bytes, at + from.length, out, at + to.length, bytes.length - at - from.length);
        return out;
    }

    private static int indexOf(byte[] bytes, byte[] wanted, int from) {
        outer:
        for (int i = from; i <= bytes.length - wanted.length; i++) {
            for (int j = 0; j < wanted.length; j++) {
                if (bytes[i + j] != wanted[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
