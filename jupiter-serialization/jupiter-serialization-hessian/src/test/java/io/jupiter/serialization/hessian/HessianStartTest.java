package io.jupiter.serialization.hessian;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * What {@link HessianStart} holds back while Hessian initialises: only Hessian's traces of reflection refused on
 * {@code StackTraceElement}'s fields are dropped. (That Hessian then starts and calls without {@code Unsafe} is
 * shown in a fresh JVM by {@code Jdk25StartWarningsTest} in jupiter-rpc.)
 */
class HessianStartTest {

    private static final String REFUSAL = "java.lang.reflect.InaccessibleObjectException: Unable to make field"
            + " private java.lang.String java.lang.StackTraceElement.moduleName accessible: module java.base does not"
            + " \"opens java.lang\" to unnamed module @5b87ed94\n"
            + "\tat java.base/java.lang.reflect.AccessibleObject.throwInaccessibleObjectException("
            + "AccessibleObject.java:353)\n"
            + "\tat com.caucho.hessian.io.FieldDeserializer2Factory.create(FieldDeserializer2Factory.java:77)\n";

    @Test
    void hessiansStackTraceElementRefusalsAreDropped() {
        assertThat(HessianStart.onlyStackTraceElementRefusals("")).isTrue();
        assertThat(HessianStart.onlyStackTraceElementRefusals(REFUSAL + REFUSAL)).isTrue();
    }

    @Test
    void anythingElseIsWrittenOn() {
        assertThat(HessianStart.onlyStackTraceElementRefusals(REFUSAL + "another thread's line\n")).isFalse();
        assertThat(HessianStart.onlyStackTraceElementRefusals(REFUSAL.replace("StackTraceElement", "Throwable")))
                .isFalse();
        assertThat(HessianStart.onlyStackTraceElementRefusals("java.lang.IllegalStateException: x\n\tat a.B(B.java:1)"))
                .isFalse();
    }

    @Test
    void hessiansPropertyIsLeftAsItWas() {
        String before = System.getProperty(HessianStart.UNSAFE_PROPERTY);
        HessianStart.ensure();
        assertThat(System.getProperty(HessianStart.UNSAFE_PROPERTY)).isEqualTo(before);
    }
}
