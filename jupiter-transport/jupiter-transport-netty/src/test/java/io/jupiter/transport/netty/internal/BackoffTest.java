package io.jupiter.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The reconnect delay of {@link NettyConnectionGroup}. */
class BackoffTest {

    @Test
    void doublesFromTheInitialDelayUpToTheCap() {
        // random 0.5 gives a factor of exactly 1.
        assertThat(NettyConnectionGroup.backoffMillis(10, 10_000, 0, 0.5)).isEqualTo(10);
        assertThat(NettyConnectionGroup.backoffMillis(10, 10_000, 1, 0.5)).isEqualTo(20);
        assertThat(NettyConnectionGroup.backoffMillis(10, 10_000, 5, 0.5)).isEqualTo(320);
        assertThat(NettyConnectionGroup.backoffMillis(10, 10_000, 10, 0.5)).isEqualTo(10_000);
        assertThat(NettyConnectionGroup.backoffMillis(10, 10_000, 1_000, 0.5)).isEqualTo(10_000);
        // No overflow when initial * 2^attempt would not fit in a long.
        assertThat(NettyConnectionGroup.backoffMillis(1L << 40, 1L << 50, 40, 0.5)).isEqualTo(1L << 50);
    }

    @Test
    void jitterStaysWithinHalfEitherSide() {
        assertThat(NettyConnectionGroup.backoffMillis(100, 10_000, 2, 0.0)).isEqualTo(200);
        assertThat(NettyConnectionGroup.backoffMillis(100, 10_000, 2, 0.999_999)).isEqualTo(599);
        assertThat(NettyConnectionGroup.backoffMillis(1, 10_000, 0, 0.0)).isEqualTo(1);
    }
}
