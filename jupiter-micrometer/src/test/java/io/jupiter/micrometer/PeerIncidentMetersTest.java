package io.jupiter.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.junit5.JupiterServerExtension;
import io.jupiter.serialization.SerializerType;
import io.jupiter.testkit.Await;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A peer that breaks the protocol over a real socket shows up in the server's incident counter, by cause. */
class PeerIncidentMetersTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @RegisterExtension
    final JupiterServerExtension rpc = JupiterServerExtension.builder()
            .service((Greeter) name -> "Hello, " + name)
            .tcp()
            .server(b -> b.serializers(SerializerType.PROTOSTUFF))
            .build();

    @Test
    void aFrameWithABadMagicIsCountedAsMalformed() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (JupiterMeterBinder binder = JupiterMeterBinder.of(rpc.server())) {
            binder.bindTo(registry);
            assertThat(malformed(registry)).isZero();

            InetSocketAddress address = (InetSocketAddress) rpc.server().boundAddress();
            try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
                socket.setSoTimeout((int) WAIT.toMillis());
                OutputStream out = socket.getOutputStream();
                out.write(new byte[16]); // a 16-byte header whose magic is 0x0000, not 0xbabe
                out.flush();
                InputStream in = socket.getInputStream();
                assertThat(in.read()).as("the server closes the connection").isEqualTo(-1);
            }
            Await.until("the malformed frame is counted", WAIT, () -> malformed(registry) == 1.0);
            assertThat(registry.get(JupiterMeterBinder.SERVER_PEER_INCIDENTS)
                    .tags(JupiterMeterBinder.INCIDENT_TAG, "too_many_heartbeats").functionCounter().count())
                    .isZero();
            assertThat(registry.find(JupiterMeterBinder.SERVER_LOG_LINES_SUPPRESSED).functionCounter())
                    .isNotNull();
        }
        assertThat(registry.getMeters()).as("close removes the counters").isEmpty();
    }

    private static double malformed(SimpleMeterRegistry registry) {
        FunctionCounter counter = registry.find(JupiterMeterBinder.SERVER_PEER_INCIDENTS)
                .tags(JupiterMeterBinder.INCIDENT_TAG, "malformed_frame").functionCounter();
        return counter == null ? -1 : counter.count();
    }
}
