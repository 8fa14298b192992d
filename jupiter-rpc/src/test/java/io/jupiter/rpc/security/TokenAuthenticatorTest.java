package io.jupiter.rpc.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link TokenAuthenticator#of}: exact matches only, and the tokens stay out of every message. */
class TokenAuthenticatorTest {

    private final TokenAuthenticator tokens = TokenAuthenticator.of(Map.of("alpha-1", "alice", "beta-2", "bob"));

    @Test
    void eachTokenNamesItsCaller() {
        assertThat(tokens.authenticate("alpha-1")).isEqualTo(CallerIdentity.of("alice"));
        assertThat(tokens.authenticate("beta-2")).isEqualTo(CallerIdentity.of("bob"));
    }

    @Test
    void anythingElseIsRefused() {
        assertThat(tokens.authenticate("alpha-")).isNull();
        assertThat(tokens.authenticate("alpha-11")).isNull();
        assertThat(tokens.authenticate("ALPHA-1")).isNull();
        assertThat(tokens.authenticate("")).isNull();
    }

    @Test
    void theTokensAreNotInItsToString() {
        assertThat(tokens.toString()).doesNotContain("alpha-1").doesNotContain("beta-2").contains("2 tokens");
    }

    @Test
    void badTokensAreRefusedWithoutQuotingThem() {
        assertThatThrownBy(() -> TokenAuthenticator.of(Map.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TokenAuthenticator.of(Map.of(" ", "alice")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blank token");
        String tooLong = "t".repeat(4097);
        assertThatThrownBy(() -> TokenAuthenticator.of(Map.of(tooLong, "alice")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining(tooLong)
                .hasMessageContaining("4097 bytes");
        Map<String, String> blankName = new HashMap<>();
        blankName.put("gamma-3", " ");
        assertThatThrownBy(() -> TokenAuthenticator.of(blankName))
                .isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining("gamma-3");
    }
}
