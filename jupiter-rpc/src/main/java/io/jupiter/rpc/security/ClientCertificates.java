package io.jupiter.rpc.security;

import io.jupiter.transport.Connection;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.security.auth.x500.X500Principal;

/** {@link CallerIdentifier#CLIENT_CERTIFICATE}: a caller's name from its verified client certificate. */
final class ClientCertificates {

    private ClientCertificates() {
    }

    static CallerIdentity identify(Connection connection) {
        List<X509Certificate> chain = connection.peerCertificates();
        if (chain.isEmpty()) {
            return CallerIdentity.ANONYMOUS;
        }
        String subject = chain.get(0).getSubjectX500Principal().getName(X500Principal.RFC2253);
        String commonName = commonName(subject);
        return CallerIdentity.of(commonName != null ? commonName : subject);
    }

    /** The subject's most specific {@code CN}, or {@code null}. */
    private static String commonName(String subject) {
        try {
            List<Rdn> rdns = new LdapName(subject).getRdns();
            // LdapName lists the most significant first, so the last CN is the most specific.
            for (int i = rdns.size() - 1; i >= 0; i--) {
                if (rdns.get(i).getType().equalsIgnoreCase("CN")) {
                    String value = String.valueOf(rdns.get(i).getValue()).trim();
                    return value.isEmpty() ? null : value;
                }
            }
        } catch (InvalidNameException e) {
            return null;
        }
        return null;
    }
}
