package io.jupiter.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.testkit.Await;
import io.jupiter.testkit.FaultProxy;
import io.jupiter.testkit.FaultProxy.Direction;
import io.jupiter.transport.TransportConfig;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Our consumer's keepalive against a real Jupiter 1.3.1 provider, with a {@link FaultProxy} in the path to count the
 * bytes: 1.3.1 takes the probe ping for the heartbeat it is and answers nothing, so our consumer treats it as a
 * provider that does not answer pings and never closes its idle connection for silence.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class LegacyKeepaliveTest {

    private static final long KEEPALIVE_MILLIS = 1_000;

    @Test
    void ourConsumerKeepsAnIdleConnectionToA131ProviderAndGetsNothingButResponses() throws Exception {
        int port = LegacyJvm.freePort();
        try (LegacyJvm provider = LegacyJvm.start("LegacyProvider", String.valueOf(port))) {
            provider.awaitLine("ready", 60);
            try (FaultProxy proxy = FaultProxy.start(port);
                 JupiterClient client = JupiterClient.builder().appName("compat-keepalive")
                         .transportConfig(TransportConfig.builder().keepaliveTimeoutMillis(KEEPALIVE_MILLIS).build())
                         .build()) {
                CompatService service = client.proxy(CompatService.class).address("127.0.0.1", proxy.port())
                        .timeoutMillis(20_000).connections(1).build();
                // The first calls into a fresh 1.3.1 JVM can take seconds.
                assertThat(service.str("before")).isEqualTo("before");
                long answered = proxy.forwardedBytes(Direction.TARGET_TO_CLIENT);
                long sentBefore = proxy.forwardedBytes(Direction.CLIENT_TO_TARGET);

                // Three keepalive timeouts of silence: the probe went out when the connection opened, unanswered.
                assertThat(Await.holdsFor(Duration.ofMillis(3 * KEEPALIVE_MILLIS),
                        () -> proxy.acceptedConnections() == 1 && proxy.openConnections() == 1))
                        .as("the connection to 1.3.1 stayed open, nothing reconnected").isTrue();
                assertThat(proxy.forwardedBytes(Direction.TARGET_TO_CLIENT))
                        .as("1.3.1 sent nothing while idle (no pong, nothing else)").isEqualTo(answered);
                long sentIdle = proxy.forwardedBytes(Direction.CLIENT_TO_TARGET) - sentBefore;
                assertThat(sentIdle % 16).as("only 16-byte heartbeat frames while idle: %d bytes", sentIdle).isZero();

                assertThat(service.str("after")).isEqualTo("after");
                assertThat(proxy.acceptedConnections()).isEqualTo(1);
            }
        }
    }
}
