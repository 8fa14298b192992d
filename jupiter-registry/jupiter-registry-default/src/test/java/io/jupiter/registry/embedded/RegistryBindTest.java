package io.jupiter.registry.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Where the registry listens by default, and the WARN line when it listens beyond loopback without a secret. */
class RegistryBindTest {

    private final Logger logger = (Logger) LoggerFactory.getLogger(RegistryServer.class);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    @BeforeEach
    void capture() {
        // the logging thread appends while the test reads: a list that iterates over a snapshot
        appender.list = new CopyOnWriteArrayList<>();
        appender.start();
        logger.addAppender(appender);
    }

    @AfterEach
    void release() {
        logger.detachAppender(appender);
    }

    @Test
    void bindsLoopbackByDefaultWithoutWarning() {
        try (RegistryServer server = RegistryServer.builder().port(0).build()) {
            assertThat(server.start().getAddress().getHostAddress()).isEqualTo(RegistryServer.DEFAULT_HOST);
        }
        assertThat(warnings()).isEmpty();
    }

    @Test
    void warnsOnceWhenItListensBeyondLoopbackWithoutASecret() {
        // Bound to every interface for the length of a start and a close, on a port the system picks.
        try (RegistryServer open = RegistryServer.builder().host("0.0.0.0").port(0).build()) {
            open.start();
        }
        assertThat(warnings()).singleElement().asString().contains("without a secret")
                .contains("JUPITER_REGISTRY_SECRET");
        appender.list.clear();
        try (RegistryServer closed = RegistryServer.builder().host("0.0.0.0").port(0)
                .secret("a long enough registry secret").build()) {
            closed.start();
        }
        assertThat(warnings()).isEmpty();
    }

    private List<String> warnings() {
        return appender.list.stream().filter(e -> e.getLevel().toString().equals("WARN"))
                .map(ILoggingEvent::getFormattedMessage).toList();
    }
}
