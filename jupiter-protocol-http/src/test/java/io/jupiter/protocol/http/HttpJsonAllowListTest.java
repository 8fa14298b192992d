package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceProvider;
import io.jupiter.serialization.ClassAllowList;
import java.io.Serializable;
import org.junit.jupiter.api.Test;

/**
 * HTTP/JSON calls read their answers with the server's own allow-list, not the JVM's global one: a result whose class
 * only the server's list trusts (the service interface names it nowhere) is answered 200 with its JSON; on a server
 * whose list does not trust it, the same call fails with a 500 naming the class, and the global list is untouched.
 */
class HttpJsonAllowListTest {

    @Test
    void answersAreReadWithTheServersOwnAllowList() throws Exception {
        try (JupiterServer trusting = server(ClassAllowList.create(ClassAllowList.Mode.STRICT).trust(Parcel.class));
             JupiterServer strict = server(ClassAllowList.create(ClassAllowList.Mode.STRICT))) {
            String trustingUrl = url(trusting);
            String strictUrl = url(strict);
            Curl.Reply trusted = Curl.post(trustingUrl, "[\"box\"]");
            assertThat(trusted.status()).isEqualTo(200);
            assertThat(trusted.body()).isEqualTo("{\"label\":\"box\"}");

            Curl.Reply refused = Curl.post(strictUrl, "[\"box\"]");
            assertThat(refused.status()).isEqualTo(500);
            assertThat(refused.body()).contains(Parcel.class.getSimpleName());
        }
        assertThat(ClassAllowList.global().isTrusted(Parcel.class.getName())).isFalse();
    }

    private static JupiterServer server(ClassAllowList allowList) {
        return JupiterServer.builder().host("127.0.0.1").port(0).allowList(allowList)
                .protocols(HttpProtocols.httpAndGrpc()).build();
    }

    private static String url(JupiterServer server) {
        server.register(new ParcelsImpl(), Parcels.class);
        return "http://127.0.0.1:" + server.start().getPort() + "/" + Parcels.class.getName() + "/parcel";
    }

    /** A service whose interface does not name the class it returns. */
    @ServiceProvider
    public interface Parcels {
        Object parcel(String label);
    }

    static final class ParcelsImpl implements Parcels {
        @Override
        public Object parcel(String label) {
            return new Parcel(label);
        }
    }

    /** Trusted only where a list says so. */
    public static final class Parcel implements Serializable {
        private static final long serialVersionUID = 1L;
        private String label;

        public Parcel() {
        }

        Parcel(String label) {
            this.label = label;
        }

        public String getLabel() {
            return label;
        }
    }
}
