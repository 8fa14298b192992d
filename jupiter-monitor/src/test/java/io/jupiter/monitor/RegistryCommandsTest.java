package io.jupiter.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.junit5.JupiterServerExtension;
import io.jupiter.rpc.ServiceKey;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code registry} commands over a real console session. No registry module exists yet, so the view is a
 * fixed in-test implementation of {@link RegistryView}.
 */
class RegistryCommandsTest {

    @RegisterExtension
    static final JupiterServerExtension rpc = Fixture.rpc();

    private static final RegistryView VIEW = new RegistryView() {
        @Override
        public List<String> publisherAddresses() {
            return List.of("10.0.0.1:18090", "10.0.0.2:18090");
        }

        @Override
        public List<String> subscriberAddresses() {
            return List.of("10.0.0.9:51000");
        }

        @Override
        public List<String> providersOf(ServiceKey service) {
            return service.equals(new ServiceKey("test", "greeter", "1.0.0"))
                    ? List.of("10.0.0.1:18090", "10.0.0.2:18090") : List.of();
        }

        @Override
        public List<ServiceKey> servicesAt(String host, int port) {
            return host.equals("10.0.0.1") && port == 18090
                    ? List.of(new ServiceKey("test", "greeter", "1.0.0"), new ServiceKey("test", "echo", "2.0.0"))
                    : List.of();
        }
    };

    @Test
    void answersFromTheAttachedView() throws Exception {
        try (Fixture fixture = new Fixture(rpc, b -> b.registry(VIEW));
                ConsoleClient session = fixture.authenticated()) {
            assertThat(session.command("registry -address -p")).isEqualTo("10.0.0.1:18090\r\n10.0.0.2:18090\r\n");
            assertThat(session.command("registry -address -s")).isEqualTo("10.0.0.9:51000\r\n");
            assertThat(session.command("registry -address -p -grep 0.2:")).isEqualTo("10.0.0.2:18090\r\n");
            assertThat(session.command("registry -by_service test greeter 1.0.0 -grep 10.0.0.1"))
                    .isEqualTo("10.0.0.1:18090\r\n");
            assertThat(session.command("registry -by_service test nothing 1.0.0")).isEqualTo("(none)\r\n");
            assertThat(session.command("registry -by_address 10.0.0.1 18090"))
                    .isEqualTo("test-greeter-1.0.0\r\ntest-echo-2.0.0\r\n");
            assertThat(session.command("registry -by_address 10.0.0.1 notaport"))
                    .startsWith("usage: registry -by_address");
            assertThat(session.command("registry -address")).startsWith("usage: registry -address -p|-s");
            assertThat(session.command("registry -by_service test")).startsWith("usage: registry -by_service");
        }
    }
}
