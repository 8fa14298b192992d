package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The curl call on the README's first page works as written (on the port the test's server got). */
class ReadmeCurlTest {

    @Test
    void theReadmesCurlCallWorksAsWritten() throws Exception {
        List<String> readme = Files.readAllLines(Path.of("..", "README.md"));
        int heading = readme.indexOf("## Call it from any language");
        assertThat(heading).as("the README's section").isPositive();
        int curl = heading;
        while (!readme.get(curl).startsWith("curl ")) {
            curl++;
        }
        String command = readme.get(curl);
        String expected = readme.get(curl + 1).replaceFirst("^# ", "");
        assertThat(command).contains("127.0.0.1:18090/com.example.Calculator/add");

        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0)
                .protocols(HttpProtocols.httpAndGrpc()).build()) {
            server.register(new CalculatorImpl(), Calculator.class,
                    new ServiceKey(ServiceKey.DEFAULT_GROUP, "com.example.Calculator", ServiceKey.DEFAULT_VERSION));
            int port = server.start().getPort();
            Curl.Reply reply = Curl.run(List.of("bash", "-c", command.replace(":18090/", ":" + port + "/")
                    + " -w '\\n%{http_code}'"));
            assertThat(reply.body()).isEqualTo(expected);
            assertThat(reply.status()).isEqualTo(200);
        }
    }
}
