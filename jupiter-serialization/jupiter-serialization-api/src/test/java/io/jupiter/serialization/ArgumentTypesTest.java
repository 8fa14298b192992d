package io.jupiter.serialization;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArgumentTypesTest {

    private static ArgumentTypes of(Class<?>... parameterTypes) {
        return ArgumentTypes.of("m", List.<Class<?>[]>of(parameterTypes));
    }

    @Test
    void primitivesTakeTheirBoxedClassOnly() {
        ArgumentTypes types = of(int.class, long.class);

        assertThatCode(() -> types.checkValues(new Object[] {1, 2L})).doesNotThrowAnyException();
        assertThatThrownBy(() -> types.checkValues(new Object[] {1L, 2L}))
                .isInstanceOf(ArgumentTypeException.class)
                .hasMessage("argument 1 of 2 for m(Integer, Long) is a java.lang.Long (expected: a value assignable"
                        + " to the declared parameter type java.lang.Integer)");
    }

    @Test
    void subtypesAndObjectParametersAreAccepted() {
        ArgumentTypes types = of(List.class, Serializable.class, Object.class);

        assertThatCode(() -> types.checkValues(new Object[] {new ArrayList<>(), "s", new Object()}))
                .doesNotThrowAnyException();
        assertThatCode(() -> types.checkClass(3, 2, Thread.class)).as("Object leaves it to the allow-list")
                .doesNotThrowAnyException();
    }

    @Test
    void nullsAreNotCheckedButTheCountIs() {
        ArgumentTypes types = of(String.class, int.class);

        assertThatCode(() -> types.checkValues(new Object[] {null, null})).doesNotThrowAnyException();
        assertThatThrownBy(() -> types.checkValues(new Object[] {"a"}))
                .isInstanceOf(ArgumentTypeException.class)
                .hasMessageContaining("1 argument(s) for m(String, Integer)");
    }

    @Test
    void overloadsAcceptWhatAnyOverloadOfThatCountAccepts() {
        ArgumentTypes types = ArgumentTypes.of("describe",
                List.of(new Class<?>[] {int.class}, new Class<?>[] {String.class}, new Class<?>[] {int.class,
                        int.class}));

        assertThatCode(() -> types.checkValues(new Object[] {1})).doesNotThrowAnyException();
        assertThatCode(() -> types.checkValues(new Object[] {"s"})).doesNotThrowAnyException();
        assertThatThrownBy(() -> types.checkValues(new Object[] {2L}))
                .isInstanceOf(ArgumentTypeException.class)
                .hasMessageContaining("describe(Integer | String | Integer, Integer)");
        assertThatThrownBy(() -> types.checkValues(new Object[] {"s", 1}))
                .isInstanceOf(ArgumentTypeException.class);
    }

    @Test
    void anyChecksNothing() {
        assertThatCode(() -> ArgumentTypes.ANY.checkValues(new Object[] {1, "x", 2L})).doesNotThrowAnyException();
        assertThatCode(() -> ArgumentTypes.ANY.checkCount(7)).doesNotThrowAnyException();
    }
}
