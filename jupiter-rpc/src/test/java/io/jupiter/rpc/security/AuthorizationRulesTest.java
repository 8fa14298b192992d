package io.jupiter.rpc.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.ServiceKey;
import org.junit.jupiter.api.Test;

class AuthorizationRulesTest {

    private static final ServiceKey ORDERS = new ServiceKey("shop", "orders", "1.0.0");
    private static final ServiceKey STOCK = new ServiceKey("shop", "stock", "1.0.0");

    private final AuthorizationRules rules = AuthorizationRules.builder()
            .allow(ORDERS, "place", "CN=shop")
            .allow(ORDERS, AuthorizationRules.ANY_METHOD, "CN=admin")
            .build();

    @Test
    void aServiceNoRuleNamesIsOpenToEveryone() {
        assertThat(rules.permits(CallerIdentity.ANONYMOUS, STOCK, "count")).isTrue();
        assertThat(rules.permits(CallerIdentity.of("anyone"), STOCK, "count")).isTrue();
    }

    @Test
    void aNamedServiceIsOpenOnlyToTheCallersAllowedForTheMethod() {
        assertThat(rules.permits(CallerIdentity.of("CN=shop"), ORDERS, "place")).isTrue();
        assertThat(rules.permits(CallerIdentity.of("CN=shop"), ORDERS, "cancel")).isFalse();
        assertThat(rules.permits(CallerIdentity.of("CN=admin"), ORDERS, "cancel")).isTrue();
        assertThat(rules.permits(CallerIdentity.of("CN=other"), ORDERS, "place")).isFalse();
        assertThat(rules.permits(CallerIdentity.ANONYMOUS, ORDERS, "place")).isFalse();
    }

    @Test
    void rulesNeedCallers() {
        assertThatThrownBy(() -> AuthorizationRules.builder().allow(ORDERS, "place"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("callers");
        assertThatThrownBy(() -> CallerIdentity.of(" ")).isInstanceOf(IllegalArgumentException.class);
    }
}
