package io.jupiter.junit5;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A server on 127.0.0.1 and a free port for each test (an instance field). */
class TcpServerExtensionTest {

    @RegisterExtension
    final JupiterServerExtension server = JupiterServerExtension.builder().service(new Greeter.Impl()).tcp().build();

    @RepeatedTest(2)
    void eachTestGetsAFreshServer() {
        assertThat(server.address()).matches("127\\.0\\.0\\.1:\\d+");
        assertThat(server.server().connectionCount()).isZero();
        assertThat(server.proxy(Greeter.class).build().greet("ada")).isEqualTo("hello, ada");
        assertThat(server.server().connectionCount()).isEqualTo(1);
    }
}
