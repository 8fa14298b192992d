package io.jupiter.testkit.suites.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.jupiter.serialization.ArgumentTypeException;
import io.jupiter.serialization.ArgumentTypes;
import io.jupiter.serialization.ClassNotTrustedException;
import io.jupiter.serialization.EnvelopeListener;
import io.jupiter.serialization.ReadLimitException;
import io.jupiter.serialization.ReadLimits;
import io.jupiter.serialization.SerializationException;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.testkit.LeakDetectionExtension;
import io.jupiter.testkit.suites.serialization.gadget.Decoy;
import io.jupiter.testkit.suites.serialization.model.Box;
import io.jupiter.testkit.suites.serialization.model.SampleCheckedException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The cases every {@link Serializer} must pass: Jupiter's own (protostuff, hessian, kryo, java) run it, and so can
 * yours (another implementation of one of the {@link SerializerType}s, whose codes are fixed). A test extends this,
 * supplies its serializer and what differs by design (how values arrive, where nulls go,
 * which bodies are malformed), and adds its own cases. A case that does not apply is switched off by overriding its
 * hook with a reason, never silently.
 *
 * <p>Every body is written to and read from pooled Netty buffers, heap and direct. Netty's leak detector is set to
 * {@code paranoid} for the class and a reported leak fails it ({@link LeakDetectionExtension}). The serializer must
 * be registered for the {@link java.util.ServiceLoader} ({@code META-INF/services/io.jupiter.serialization.Serializer})
 * and trust the samples' classes: give it {@link Samples#allowList()}.
 */
@ExtendWith(LeakDetectionExtension.class)
public abstract class SerializerSuite {

    /** For subclasses. */
    protected SerializerSuite() {
    }

    /** Tracks every buffer: the suite's and the serializer's leaks are reported, not sampled. */
    @BeforeAll
    static void trackEveryBuffer() {
        if (ResourceLeakDetector.getLevel().ordinal() < ResourceLeakDetector.Level.PARANOID.ordinal()) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        }
    }

    /** The serializer under test; a new instance, not the one the {@code ServiceLoader} found. */
    protected abstract Serializer serializer();

    /** The type it must report, and under which the {@code ServiceLoader} must find the same implementation. */
    protected abstract SerializerType type();

    /** How {@code sent} arrives after a round trip. Identity unless the format changes types (hessian). */
    protected Object asDecoded(Object sent) {
        return sent;
    }

    /** How {@code args = {"a", null, "c"}} arrives. */
    protected abstract Object[] nullArgsAsReceived();

    /** Bodies that are not a {@code MessageWrapper} in this format, each for a different reason. */
    protected abstract List<byte[]> malformedBodies();

    /** A value this serializer cannot write. */
    protected abstract Object unwritableValue();

    /** How a thrown exception's stack trace travels. */
    protected enum StackTraces {
        /** Element for element. */
        EQUAL,
        /** Some stack travels (protostuff on JDK 17 writes the JDK 9+ element fields). */
        NOT_EMPTY
    }

    protected abstract StackTraces stackTraces();

    /**
     * Null if a body holding another root type must be rejected by name; otherwise the reason the format cannot
     * tell (its root carries no class name).
     */
    protected String whyAnotherRootTypeIsNotDetected() {
        return null;
    }

    /** A request body forged by hand in this serializer's format, and what was done to it. */
    public record ForgedEnvelope(String what, byte[] body) {
    }

    /**
     * Request bodies in this format made from {@code written} (a request for method {@code call} of
     * {@code test-vectors-1.0.0} with one argument, {@code "arg"}, as this serializer wrote it) with envelope fields
     * (app name, service, method) repeated, moved after the arguments, or unknown ones added: what a caller allowed
     * one method would send to run another ({@link #whatIsAuthorizedIsWhatIsReadOrTheRequestIsRefused}).
     * {@code io.jupiter.testkit.ForgedRequests} forges protostuff and Hessian bodies. Empty only with a reason
     * ({@link #whyEnvelopesCannotBeForged}).
     */
    protected abstract List<ForgedEnvelope> forgedEnvelopes(byte[] written);

    /** Null if {@link #forgedEnvelopes} gives bodies; otherwise why the format has no field to repeat or move. */
    protected String whyEnvelopesCannotBeForged() {
        return null;
    }

    private Serializer serializer;

    private Serializer s() {
        if (serializer == null) {
            serializer = serializer();
        }
        return serializer;
    }

    static List<Object> argumentKinds() {
        return Samples.argumentKinds();
    }

    @Test
    void foundByServiceLoader() {
        assertThat(s().type()).isEqualTo(type());
        assertThat(Serializers.get(type())).isInstanceOf(s().getClass());
    }

    @Test
    void withOtherLimitsWritesTheSameBytesAndReadsUnderItsOwnDepth() {
        Serializer shallow = s().with(Samples.allowList(), ReadLimits.of(8, 1_000));
        assertThat(shallow).isNotSameAs(s()).isInstanceOf(s().getClass());
        Object deep = "bottom";
        for (int i = 0; i < 30; i++) {
            List<Object> list = new ArrayList<>();
            list.add(deep);
            deep = list;
        }
        ResultWrapper flat = new ResultWrapper(new ArrayList<>(List.of("a", "b")));
        assertThat(Samples.encode(shallow, flat)).isEqualTo(Samples.encode(s(), flat));
        byte[] body = Samples.encode(s(), new ResultWrapper(deep));

        ByteBuf buf = PooledByteBufAllocator.DEFAULT.heapBuffer(body.length).writeBytes(body);
        try {
            assertThat(s().read(buf, ResultWrapper.class).getResult()).isEqualTo(asDecoded(deep));
        } finally {
            buf.release();
        }
        ByteBuf again = PooledByteBufAllocator.DEFAULT.heapBuffer(body.length).writeBytes(body);
        try {
            assertThat(catchThrowable(() -> shallow.read(again, ResultWrapper.class)))
                    .isInstanceOf(ReadLimitException.class).hasMessageContaining("nested deeper than 8");
        } finally {
            again.release();
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void requestWithEveryArgumentKind(boolean direct) {
        Object[] args = Samples.argumentKinds().toArray();
        MessageWrapper sent = Samples.request(args, null);

        MessageWrapper received = Samples.roundTrip(s(), sent, MessageWrapper.class, direct);

        assertThat(received.getAppName()).isEqualTo("app");
        assertThat(received.getMetadata()).isEqualTo(sent.getMetadata());
        assertThat(received.getMethodName()).isEqualTo("call");
        assertThat(received.getArgs()).hasSameSizeAs(args);
        for (int i = 0; i < args.length; i++) {
            assertThat(received.getArgs()[i]).as("arg %d", i).isEqualTo(asDecoded(args[i]));
        }
        assertThat(received.getAttachments()).isNull();
    }

    @ParameterizedTest
    @MethodSource("argumentKinds")
    void resultOfEveryKind(Object value) {
        for (boolean direct : new boolean[] {true, false}) {
            ResultWrapper received = Samples.roundTrip(s(), new ResultWrapper(value), ResultWrapper.class, direct);
            assertThat(received.getResult()).isEqualTo(asDecoded(value));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void oneMebibyteString(boolean direct) {
        MessageWrapper received = Samples.roundTrip(s(),
                Samples.request(new Object[] {Samples.BIG_STRING}, null), MessageWrapper.class, direct);
        assertThat(received.getArgs()).containsExactly(Samples.BIG_STRING);

        ResultWrapper result = Samples.roundTrip(s(), new ResultWrapper(Samples.BIG_STRING),
                ResultWrapper.class, direct);
        assertThat(result.getResult()).isEqualTo(Samples.BIG_STRING);
    }

    @Test
    void emptyArgsNullsAndAttachments() {
        Map<String, String> attachments = new HashMap<>();
        attachments.put("traceId", "4bf92f3577b34da6a3ce929d0e0e4736");
        attachments.put("spanId", "00f067aa0ba902b7");

        MessageWrapper received = Samples.roundTrip(s(), Samples.request(new Object[0], attachments),
                MessageWrapper.class, true);
        assertThat(received.getArgs()).isEmpty();
        assertThat(received.getAttachments()).isEqualTo(attachments);

        MessageWrapper withNulls = Samples.roundTrip(s(),
                Samples.request(new Object[] {"a", null, "c"}, null), MessageWrapper.class, false);
        assertThat(withNulls.getArgs()).containsExactly(nullArgsAsReceived());
    }

    @Test
    void nullResult() {
        ResultWrapper received = Samples.roundTrip(s(), new ResultWrapper(null), ResultWrapper.class, true);
        assertThat(received.getResult()).isNull();
    }

    @Test
    void exceptionsKeepTypeAndMessage() {
        for (Throwable t : List.of(new IllegalStateException("boom"), new SampleCheckedException("checked"))) {
            t.getStackTrace(); // the JDK fills the field lazily; only a filled stack trace travels
            ResultWrapper received = Samples.roundTrip(s(), new ResultWrapper(t), ResultWrapper.class, true);
            assertThat(received.getResult()).isInstanceOf(t.getClass());
            Throwable got = (Throwable) received.getResult();
            assertThat(got.getMessage()).isEqualTo(t.getMessage());
            switch (stackTraces()) {
                case EQUAL:
                    assertThat(got.getStackTrace()).isEqualTo(t.getStackTrace());
                    break;
                default:
                    assertThat(got.getStackTrace()).isNotEmpty();
                    break;
            }
        }
    }

    @Test
    void malformedBodiesFailWithSerializationException() {
        for (byte[] bytes : malformedBodies()) {
            assertThatThrownBy(() -> read(bytes, MessageWrapper.class))
                    .isInstanceOf(SerializationException.class)
                    .hasMessageContaining(MessageWrapper.class.getName());
        }
    }

    @Test
    void aValueOfAnotherTypeIsRejected() {
        String why = whyAnotherRootTypeIsNotDetected();
        if (why != null) {
            assertThat(why).as("the reason for opting out").isNotBlank();
            return;
        }
        byte[] bytes = Samples.encode(s(), "just a string");
        assertThatThrownBy(() -> read(bytes, MessageWrapper.class))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("java.lang.String");
    }

    @Test
    void randomGarbageNeverEscapesAsAnotherException() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            for (int seed = 0; seed < 2000; seed++) {
                byte[] bytes = Samples.garbage(seed, 1 + seed % 97);
                for (Class<?> type : List.of(MessageWrapper.class, ResultWrapper.class)) {
                    Throwable thrown = catchThrowable(() -> read(bytes, type));
                    if (thrown != null) {
                        assertThat(thrown).as("seed %d", seed).isInstanceOf(SerializationException.class);
                    }
                }
            }
        });
        // The thread's streams still work after all those failures.
        assertThat(Samples.roundTrip(s(), new ResultWrapper("ok"), ResultWrapper.class, true).getResult())
                .isEqualTo("ok");
    }

    @Test
    void unwritableValueFailsWithSerializationException() {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.heapBuffer();
        try {
            buf.writeByte(1);
            assertThatCode(() -> s().write(buf, new ResultWrapper(unwritableValue())))
                    .isInstanceOf(SerializationException.class)
                    .hasMessageContaining(ResultWrapper.class.getName());
            assertThat(buf.writerIndex()).as("a failed write leaves nothing behind").isEqualTo(1);
        } finally {
            buf.release();
        }
    }

    /** Reads {@code bytes} as {@code type} from a pooled heap buffer. */
    protected <T> T read(byte[] bytes, Class<T> type) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.heapBuffer(bytes.length);
        try {
            buf.writeBytes(bytes);
            return s().read(buf, type);
        } finally {
            buf.release();
        }
    }

    // ---- requests read envelope first (readRequest) ----

    private MessageWrapper readRequest(byte[] bytes, EnvelopeListener listener) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length);
        try {
            buf.writeBytes(bytes);
            MessageWrapper message = s().readRequest(buf, listener);
            assertThat(buf.isReadable()).as("bytes left unread").isFalse();
            return message;
        } finally {
            buf.release();
        }
    }

    private static ArgumentTypes expecting(Class<?>... parameterTypes) {
        return ArgumentTypes.of("call", List.<Class<?>[]>of(parameterTypes));
    }

    @Test
    void readRequestReadsEveryArgumentKindAsReadDoes() {
        Object[] args = Samples.argumentKinds().toArray();
        byte[] bytes = Samples.encode(s(), Samples.request(args, Map.of("k", "v")));
        Class<?>[] declared = new Class<?>[args.length];
        for (int i = 0; i < args.length; i++) {
            declared[i] = asDecoded(args[i]).getClass();
        }
        List<String> envelopes = new ArrayList<>();

        MessageWrapper received = readRequest(bytes, (app, service, method) -> {
            envelopes.add(app + " " + service.directory() + " " + method);
            return expecting(declared);
        });

        assertThat(envelopes).containsExactly("app test-vectors-1.0.0 call");
        assertThat(received.getArgs()).hasSameSizeAs(args);
        for (int i = 0; i < args.length; i++) {
            assertThat(received.getArgs()[i]).as("arg %d", i).isEqualTo(asDecoded(args[i]));
        }
        assertThat(received.getAttachments()).containsEntry("k", "v");
    }

    @Test
    void anArgumentOfAnotherTypeIsRefusedNamingItsPosition() {
        byte[] bytes = Samples.encode(s(), Samples.request(new Object[] {"ok", 42L}, null));

        assertThatThrownBy(() -> readRequest(bytes, (app, service, method) -> expecting(String.class, int.class)))
                .isInstanceOf(ArgumentTypeException.class)
                .hasMessageContaining("argument 2 of 2")
                .hasMessageContaining("java.lang.Long")
                .hasMessageContaining("java.lang.Integer");
        // The thread's streams still work.
        assertThat(readRequest(bytes, (app, service, method) -> expecting(String.class, long.class)).getArgs())
                .containsExactly("ok", 42L);
    }

    @Test
    void aWrongNumberOfArgumentsIsRefused() {
        byte[] bytes = Samples.encode(s(), Samples.request(new Object[] {"a", "b"}, null));

        assertThatThrownBy(() -> readRequest(bytes, (app, service, method) -> expecting(String.class)))
                .isInstanceOf(ArgumentTypeException.class)
                .hasMessageContaining("2 argument(s) for call(String)");
    }

    @Test
    void objectParametersLeaveTheDecisionToTheAllowList() {
        byte[] bytes = Samples.encode(s(), Samples.request(new Object[] {new Box(new Decoy("x"))}, null));

        assertThatThrownBy(() -> readRequest(bytes, (app, service, method) -> expecting(Object.class)))
                .isInstanceOf(ClassNotTrustedException.class)
                .hasMessageContaining(Decoy.class.getName());
    }

    @Test
    void aStoppedReadLeavesTheArgumentsUnread() {
        // An argument the allow-list refuses: reading it at all fails the read.
        byte[] bytes = Samples.encode(s(), Samples.request(new Object[] {new Box(new Decoy("x"))}, null));
        List<String> methods = new ArrayList<>();
        EnvelopeListener stop = (app, service, method) -> {
            methods.add(method);
            return null;
        };
        if (!s().readsEnvelopeFirst()) {
            // Java serialization and Kryo order fields by name: the arguments come before the envelope.
            assertThatThrownBy(() -> readRequest(bytes, stop)).isInstanceOf(ClassNotTrustedException.class);
            assertThat(methods).isEmpty();
            return;
        }

        MessageWrapper envelope = readRequest(bytes, stop);

        assertThat(methods).containsExactly("call");
        assertThat(envelope.getMetadata()).isEqualTo(new ServiceMetadata("test", "vectors", "1.0.0"));
        assertThat(envelope.getArgs()).isEmpty();
    }

    @Test
    void aClassNamedBeforeItsValueIsRefusedBeforeTheValueIsRead() {
        // Box is trusted, its content is not: had the Box been read, the content's class would have been refused.
        byte[] bytes = Samples.encode(s(), Samples.request(new Object[] {new Box(new Decoy("x"))}, null));
        Throwable thrown = catchThrowable(() -> readRequest(bytes, (app, service, method) -> expecting(String.class)));

        if (s().readsEnvelopeFirst()) {
            assertThat(thrown).isInstanceOf(ArgumentTypeException.class)
                    .hasMessageContaining("argument 1 of 1")
                    .hasMessageContaining(Box.class.getName());
        } else {
            assertThat(thrown).isInstanceOf(ClassNotTrustedException.class);
        }
    }

    /**
     * The defence against a request authorized on one method and dispatched on another (issue #25): for every
     * forged envelope, either the read is refused (a {@link SerializationException}: a provider answers
     * {@code BAD_REQUEST} and runs nothing), or the listener was asked exactly once and the message returned names
     * the service and method it was given, whether it let the read go on (the method it allows, {@code call}) or
     * stopped it (any other).
     */
    @Test
    void whatIsAuthorizedIsWhatIsReadOrTheRequestIsRefused() {
        byte[] written = Samples.encode(s(), Samples.request(new Object[] {"arg"}, null));
        List<ForgedEnvelope> forged = forgedEnvelopes(written);
        if (whyEnvelopesCannotBeForged() != null) {
            assertThat(forged).as(whyEnvelopesCannotBeForged()).isEmpty();
            return;
        }
        assertThat(forged).as("forged envelopes (or a reason there are none)").isNotEmpty();
        for (ForgedEnvelope envelope : forged) {
            List<String> authorized = new ArrayList<>();
            MessageWrapper[] read = new MessageWrapper[1];
            Throwable refused = catchThrowable(() -> read[0] = readRequest(envelope.body(), (app, service, method) -> {
                authorized.add(describe(service, method));
                return "call".equals(method) ? expecting(String.class) : null;
            }));

            if (refused != null) {
                assertThat(refused).as(envelope.what() + ": refused as a bad body")
                        .isInstanceOf(SerializationException.class);
                continue;
            }
            assertThat(authorized).as(envelope.what() + ": the listener is asked once").hasSize(1);
            assertThat(describe(read[0].getMetadata(), read[0].getMethodName()))
                    .as(envelope.what() + ": the envelope returned is the one the listener was given")
                    .isEqualTo(authorized.get(0));
        }
    }

    private static String describe(ServiceMetadata service, String method) {
        return (service == null ? "no service" : service.directory()) + " " + method;
    }

    @Test
    void aRequestInsideAnArgumentIsReadAsAValueNotAsTheEnvelope() {
        MessageWrapper inner = new MessageWrapper("inner", new ServiceMetadata("g", "n", "v"), "innerMethod",
                new Object[] {"i"}, null);
        byte[] bytes = Samples.encode(s(), Samples.request(new Object[] {inner}, null));
        List<String> methods = new ArrayList<>();

        MessageWrapper received = readRequest(bytes, (app, service, method) -> {
            methods.add(method);
            return expecting(Object.class);
        });

        assertThat(methods).containsExactly("call");
        assertThat(received.getArgs()).singleElement().isInstanceOfSatisfying(MessageWrapper.class,
                m -> assertThat(m.getMethodName()).isEqualTo("innerMethod"));
    }
}
