package io.jupiter.benchmark.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.StringValue;
import io.grpc.channelz.v1.ChannelRef;
import org.junit.jupiter.api.Test;

/** The benchmark's hand-written messages are the bytes protobuf's generated classes write and read. */
class BenchmarkMethodsTest {

    @Test
    void theRequestIsAStringValue() throws Exception {
        byte[] request = BenchmarkMethods.stringValue("jupiter");
        assertThat(request).isEqualTo(StringValue.of("jupiter").toByteArray());
        assertThat(StringValue.parseFrom(request).getValue()).isEqualTo("jupiter");
        String long1k = "x".repeat(1024);
        assertThat(BenchmarkMethods.stringValue(long1k)).isEqualTo(StringValue.of(long1k).toByteArray());
        assertThat(BenchmarkMethods.stringValue("")).isEqualTo(StringValue.of("").toByteArray());
    }

    @Test
    void aTickIsAChannelRefOfTheSendTimeAndThePayload() throws Exception {
        long before = System.nanoTime();
        byte[] tick = BenchmarkMethods.tick(BenchmarkMethods.stringValue("jupiter"));
        ChannelRef parsed = ChannelRef.parseFrom(tick);
        assertThat(parsed.getName()).isEqualTo("jupiter");
        assertThat(parsed.getChannelId()).isBetween(before, System.nanoTime());
        assertThat(BenchmarkMethods.sentNanos(tick)).isEqualTo(parsed.getChannelId());
        assertThat(tick).isEqualTo(parsed.toByteArray());

        byte[] written = ChannelRef.newBuilder().setChannelId(Long.MAX_VALUE).setName("jupiter").build().toByteArray();
        assertThat(BenchmarkMethods.sentNanos(written)).isEqualTo(Long.MAX_VALUE);
    }
}
