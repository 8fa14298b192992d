package io.jupiter.registry.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RegistryUrlTest {

    @Test
    void anAddressWithoutQueryHasNoParameters() {
        RegistryUrl url = RegistryUrl.parse(" shop ");
        assertThat(url.address()).isEqualTo(" shop ");
        assertThat(url.parameters()).isEmpty();
    }

    @Test
    void parametersKeepTheirOrderAndRepeats() {
        RegistryUrl url = RegistryUrl.parse("a.b:80?refreshMillis=x&nameServer=h:53&refreshMillis=100&flag");
        assertThat(url.address()).isEqualTo("a.b:80");
        assertThat(url.parameters()).containsExactly(Map.entry("refreshMillis", "x"), Map.entry("nameServer", "h:53"),
                Map.entry("refreshMillis", "100"), Map.entry("flag", ""));
    }

    @Test
    void aValueMaySplitAtItsFirstEqualsOnly() {
        assertThat(RegistryUrl.parse("ns?apiServer=https://h:6443/?a=b").parameters())
                .isEqualTo(List.of(Map.entry("apiServer", "https://h:6443/?a=b")));
    }

    @Test
    void aBlankUrlIsRefused() {
        assertThatThrownBy(() -> RegistryUrl.parse("  ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("address");
    }
}
