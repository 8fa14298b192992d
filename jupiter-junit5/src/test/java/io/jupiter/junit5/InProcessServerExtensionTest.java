package io.jupiter.junit5;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.transport.InProcessAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** One in-process server for the whole class (a static field). */
class InProcessServerExtensionTest {

    @RegisterExtension
    static final JupiterServerExtension server = JupiterServerExtension.builder()
            .service(new Greeter.Impl())
            .server(b -> b.providerThreads(2))
            .build();

    @Test
    void callsReachTheServiceInProcess() {
        Greeter greeter = server.proxy(Greeter.class).build();
        assertThat(greeter.greet("ada")).isEqualTo("hello, ada");
        assertThat(server.address()).startsWith("inprocess:junit-");
        assertThat(server.server().boundAddress()).isInstanceOf(InProcessAddress.class);
    }

    @Test
    void theServerServesEveryTestOfTheClass() {
        assertThat(server.proxy(Greeter.class).build().greet("bob")).isEqualTo("hello, bob");
        assertThat(server.server().connectionCount()).isEqualTo(1);
    }
}
