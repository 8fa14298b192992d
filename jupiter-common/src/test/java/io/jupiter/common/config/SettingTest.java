package io.jupiter.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SettingTest {

    private static final String KEY = "jupiter.test.setting.window";
    private static final String OLD_KEY = "jupiter.test.setting.oldWindow";

    private final Setting<Integer> window = Setting.of("window", ValueType.INT, 16)
            .bound(Bound.between(1, 64)).doc("test window").property(KEY).alias(OLD_KEY).build();

    @AfterEach
    void clearProperties() {
        System.clearProperty(KEY);
        System.clearProperty(OLD_KEY);
        System.clearProperty(JupiterSettings.INVOKE_TIMEOUT.property());
    }

    @Test
    void unsetPropertyGivesTheDefault() {
        assertThat(window.get()).isEqualTo(16);
        System.setProperty(KEY, "  ");
        assertThat(window.get()).isEqualTo(16);
    }

    @Test
    void propertyValueIsParsedAndTrimmed() {
        System.setProperty(KEY, " 32 ");
        assertThat(window.get()).isEqualTo(32);
    }

    @Test
    void outOfBoundsValueFailsWithTheSameMessageFromTheBuilderAndFromTheProperty() {
        for (int value : new int[] {0, -1, 65}) {
            System.setProperty(KEY, Integer.toString(value));
            String expected = "window: " + value + " (expected: 1..64)";
            assertThatThrownBy(() -> window.check(value)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(expected);
            assertThatThrownBy(window::get).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(expected + ", from -D" + KEY + "=" + value);
        }
        assertThat(window.check(64)).isEqualTo(64);
    }

    @Test
    void negativeInvokeTimeoutIsRefusedAsTheBuilderRefusesIt() {
        System.setProperty("jupiter.rpc.invoke.timeout", "-5");
        assertThatThrownBy(JupiterSettings.INVOKE_TIMEOUT::get)
                .hasMessage("timeoutMillis: -5 (expected: > 0), from -Djupiter.rpc.invoke.timeout=-5");
        assertThatThrownBy(() -> JupiterSettings.INVOKE_TIMEOUT.check(-5L))
                .hasMessage("timeoutMillis: -5 (expected: > 0)");
    }

    @Test
    void aliasIsReadWhenThePropertyIsUnset() {
        System.setProperty(OLD_KEY, "8");
        assertThat(window.get()).isEqualTo(8);
        System.setProperty(KEY, "4");
        assertThat(window.get()).as("the current name wins").isEqualTo(4);
    }

    @Test
    void aliasValueIsCheckedAndNamedInTheMessage() {
        System.setProperty(OLD_KEY, "100");
        assertThatThrownBy(window::get).hasMessage("window: 100 (expected: 1..64), from -D" + OLD_KEY + "=100");
    }

    @Test
    void malformedValueNamesTheProperty() {
        System.setProperty(KEY, "lots");
        assertThatThrownBy(window::get).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("window: 'lots' (expected: an integer), from -D" + KEY);
    }

    @Test
    void valueTypesParseWhatTheyPromise() {
        assertThat(ValueType.BOOLEAN.parse("TRUE")).isTrue();
        assertThatThrownBy(() -> ValueType.BOOLEAN.parse("yes")).isInstanceOf(IllegalArgumentException.class);
        assertThat(ValueType.SECONDS_AS_MILLIS.parse("60")).isEqualTo(60_000L);
        assertThatThrownBy(() -> ValueType.SECONDS_AS_MILLIS.parse(Long.toString(Long.MAX_VALUE)))
                .isInstanceOf(ArithmeticException.class);
        ValueType<String> mode = ValueType.oneOf("strict", "warn", "off");
        assertThat(mode.parse("WARN")).isEqualTo("warn");
        assertThat(mode.expected()).isEqualTo("strict, warn or off");
        assertThatThrownBy(() -> mode.parse("loose")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void defaultOutsideItsBoundsIsRefusedWhenDeclared() {
        assertThatThrownBy(() -> Setting.of("broken", ValueType.INT, 0).bound(Bound.positive()).doc("x")
                .property("jupiter.test.broken").build()).hasMessage("broken: 0 (expected: > 0)");
    }

    @Test
    void compositeSettingHasARowButNoValue() {
        Setting<Void> listen = JupiterSettings.LISTEN_ADDRESS;
        assertThat(listen.isComposite()).isTrue();
        assertThatThrownBy(listen::get).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void everyDeclaredSettingHasAUniqueNameAndPropertyAndAValidDefault() {
        Set<String> names = new HashSet<>();
        Set<String> properties = new HashSet<>();
        for (Setting<?> setting : JupiterSettings.all()) {
            assertThat(names.add(setting.name())).as("name %s declared once", setting.name()).isTrue();
            if (setting.property() != null) {
                assertThat(setting.property()).as("property of %s", setting.name())
                        .matches("(jupiter|io\\.protostuff)(\\.[a-z0-9_]+)+");
                assertThat(properties.add(setting.property())).as(setting.property()).isTrue();
                for (String alias : setting.aliases()) {
                    assertThat(properties.add(alias)).as(alias).isTrue();
                }
            }
            if (!setting.isComposite()) {
                setting.get(); // the default, or the property if a test set one; either way within the bounds
            }
        }
        assertThat(JupiterSettings.all()).contains(JupiterSettings.MAX_BODY_SIZE, JupiterSettings.LOCAL_ADDRESS);
    }
}
