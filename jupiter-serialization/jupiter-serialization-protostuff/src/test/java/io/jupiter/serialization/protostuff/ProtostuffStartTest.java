package io.jupiter.serialization.protostuff;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * When {@link ProtostuffStart} chooses protostuff's reflective mode. (That the reflective mode then writes the
 * {@code Unsafe} mode's bytes is {@link UnsafeModeIdentityTest}'s; that a server and client start and call without
 * a warning on JDK 25 is {@code Jdk25StartWarningsTest}'s, in jupiter-rpc.)
 */
class ProtostuffStartTest {

    @Test
    void reflectiveOnlyWhenTheUserChoseNothingAndThePackagesAreOpen() {
        assertThat(ProtostuffStart.reflective(null, true)).isTrue();
        assertThat(ProtostuffStart.reflective(null, false)).isFalse();
        assertThat(ProtostuffStart.reflective("true", true)).isFalse();
        assertThat(ProtostuffStart.reflective("false", false)).isFalse();
    }

    @Test
    void notOpenedWhileOneModuleOfTheListDoesNotOpenItsPackage() {
        // java.base's packages are open to java.base itself, but java.sql does not open java.sql to it.
        assertThat(ProtostuffStart.opened(Object.class.getModule())).isFalse();
        ModuleLayer.boot().findModule("java.sql").ifPresent(sql -> assertThat(sql.isOpen("java.sql",
                Object.class.getModule())).isFalse());
    }

    @Test
    void protostuffsPropertyIsLeftAsItWas() {
        String before = System.getProperty(ProtostuffStart.UNSAFE_PROPERTY);
        ProtostuffStart.ensure();
        assertThat(System.getProperty(ProtostuffStart.UNSAFE_PROPERTY)).isEqualTo(before);
    }
}
