package io.jupiter.rpc.extension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.flow.FlowLimiter;
import io.jupiter.rpc.flow.FlowLimiters;
import org.junit.jupiter.api.Test;

class FlowLimitersTest {

    @Test
    void maxConcurrentAdmitsUpToTheLimitAndAgainAfterARelease() {
        FlowLimiter limiter = FlowLimiters.maxConcurrent(2);
        assertThat(limiter.tryAcquire()).isTrue();
        assertThat(limiter.tryAcquire()).isTrue();
        assertThat(limiter.tryAcquire()).isFalse();
        limiter.release();
        assertThat(limiter.tryAcquire()).isTrue();
        assertThat(limiter.tryAcquire()).isFalse();
    }

    @Test
    void tokenBucketStartsFullThenRefusesUntilItRefills() {
        // One token per 10 s: no refill can happen while the test runs.
        FlowLimiter limiter = FlowLimiters.tokenBucket(0.1, 3);
        assertThat(limiter.tryAcquire()).isTrue();
        assertThat(limiter.tryAcquire()).isTrue();
        assertThat(limiter.tryAcquire()).isTrue();
        assertThat(limiter.tryAcquire()).isFalse();
        limiter.release(); // a rate limiter gives nothing back
        assertThat(limiter.tryAcquire()).isFalse();
    }

    @Test
    void tokenBucketRefillsAtItsRate() {
        FlowLimiter limiter = FlowLimiters.tokenBucket(1_000, 1);
        assertThat(limiter.tryAcquire()).isTrue();
        long deadline = System.nanoTime() + 5_000_000_000L;
        boolean refilled = false;
        while (!refilled && System.nanoTime() - deadline < 0) {
            refilled = limiter.tryAcquire();
        }
        assertThat(refilled).isTrue();
    }

    @Test
    void perSecondAllowsABurstOfOneSecondsWorth() {
        FlowLimiter limiter = FlowLimiters.perSecond(0.5);
        assertThat(limiter.tryAcquire()).isTrue();
        assertThat(limiter.tryAcquire()).isFalse();
    }

    @Test
    void invalidSettingsAreRefused() {
        assertThatThrownBy(() -> FlowLimiters.maxConcurrent(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FlowLimiters.perSecond(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FlowLimiters.tokenBucket(10, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
