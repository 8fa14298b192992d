package io.jupiter.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.WriteBatching;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

/** Which connections may hold a flush to gather frames, by mode and by side. */
class WriteBatchingSideTest {

    private static boolean holds(WriteBatching batching, boolean accepted) {
        EmbeddedChannel channel = new EmbeddedChannel();
        try {
            NettyConnection.configure(channel, TransportConfig.builder().writeBatching(batching).build(), accepted);
            return NettyConnection.of(channel).holdsFlushUnderLoad();
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void autoHoldsOnClientConnectionsOnly() {
        assertThat(holds(WriteBatching.AUTO, false)).as("client connection").isTrue();
        assertThat(holds(WriteBatching.AUTO, true)).as("accepted connection").isFalse();
    }

    @Test
    void enableHoldsAndDisableNeverDoesOnEitherSide() {
        assertThat(holds(WriteBatching.ENABLE, false)).isTrue();
        assertThat(holds(WriteBatching.ENABLE, true)).isTrue();
        assertThat(holds(WriteBatching.DISABLE, false)).isFalse();
        assertThat(holds(WriteBatching.DISABLE, true)).isFalse();
    }
}
