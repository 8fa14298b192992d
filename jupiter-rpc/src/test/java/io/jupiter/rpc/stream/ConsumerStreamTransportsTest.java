package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.transport.TransportAddresses;
import io.netty.channel.epoll.Epoll;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Issue #28: client and bidirectional streams over the in-process transport and a Unix domain socket, as over TCP. */
@Timeout(60)
class ConsumerStreamTransportsTest {

    enum Kind { IN_PROCESS, UNIX_SOCKET }

    @TempDir
    Path dir;

    private JupiterServer server;
    private JupiterClient client;

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private IntakeService start(Kind kind) {
        JupiterServer.Builder builder = JupiterServer.builder();
        if (kind == Kind.UNIX_SOCKET) {
            assumeTrue(Epoll.isAvailable(), () -> "native epoll is unavailable: " + Epoll.unavailabilityCause());
            builder.unixSocket(dir.resolve("intake.sock"));
        } else {
            builder.inProcess("intake-test");
        }
        server = builder.build();
        server.register(new IntakeServiceImpl());
        server.start();
        client = JupiterClient.builder().build();
        return client.proxy(IntakeService.class).address(TransportAddresses.format(server.boundAddress()))
                .timeoutMillis(10_000).build();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void clientAndBidirectionalStreamsWorkOverEveryTransport(Kind kind) {
        IntakeService intake = start(kind);
        Sender numbers = new Sender(500, 8);
        assertThat(intake.sum(numbers.publisher)).isEqualTo(499L * 500 / 2);

        List<String> words = IntStream.range(0, 300).mapToObj(i -> "w" + i).toList();
        List<String> got = new ArrayList<>();
        try (StreamIterator<String> it = Streams.iterate(intake.shout(Streams.produce(sink -> {
            for (String word : words) {
                sink.send(word);
            }
        })), 8)) {
            it.forEachRemaining(got::add);
        }
        assertThat(got).containsExactlyElementsOf(words.stream().map(String::toUpperCase).toList());
    }
}
