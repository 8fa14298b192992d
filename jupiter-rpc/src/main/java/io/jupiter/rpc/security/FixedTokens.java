package io.jupiter.rpc.security;

import io.jupiter.common.Requires;
import io.jupiter.transport.ProtocolHeader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@link TokenAuthenticator#of}: a fixed set of tokens, each naming a caller, compared in constant time. */
final class FixedTokens implements TokenAuthenticator {

    /** A known token, kept only as its digest. */
    private record Known(byte[] digest, CallerIdentity caller) {
    }

    private final List<Known> known;

    FixedTokens(Map<String, String> callersByToken) {
        Requires.notNull(callersByToken, "callersByToken");
        Requires.argument(!callersByToken.isEmpty(), "callersByToken: empty (expected: at least one token)");
        List<Known> all = new ArrayList<>();
        callersByToken.forEach((token, name) -> {
            // The token itself is never part of a message: it is a secret.
            Requires.argument(token != null && !token.isBlank(), "callersByToken: a blank token (for caller "
                    + name + ")");
            byte[] bytes = token.getBytes(StandardCharsets.UTF_8);
            Requires.argument(bytes.length <= ProtocolHeader.MAX_CALLER_TOKEN_SIZE, "callersByToken: the token of "
                    + name + " is " + bytes.length + " bytes (expected: at most "
                    + ProtocolHeader.MAX_CALLER_TOKEN_SIZE + ")");
            all.add(new Known(sha256(bytes), CallerIdentity.of(name)));
        });
        this.known = List.copyOf(all);
    }

    @Override
    public CallerIdentity authenticate(String token) {
        byte[] presented = sha256(token.getBytes(StandardCharsets.UTF_8));
        CallerIdentity match = null;
        // Every known token is compared, the match or not: the time taken does not say which one matched.
        for (Known k : known) {
            if (MessageDigest.isEqual(k.digest(), presented)) {
                match = k.caller();
            }
        }
        return match;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    @Override
    public String toString() {
        return "TokenAuthenticator.of(" + known.size() + " tokens)";
    }
}
