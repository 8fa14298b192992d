package io.jupiter.junit5;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.stream.StreamIterator;
import io.jupiter.rpc.stream.Streams;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Server streams tested with the extension: a stream read to its end and a stream its reader abandons both leave
 * nothing behind when the extension stops (no connection, thread or leaked buffer), in process and over TCP.
 */
class StreamsWithTheExtensionTest {

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aStreamReadToItsEndLeavesNothingBehind(boolean tcp) throws Exception {
        Counter.Impl counter = new Counter.Impl();
        JupiterServerExtension extension = extension(counter, tcp);
        extension.start();
        try {
            Counter proxy = extension.proxy(Counter.class).build();
            try (StreamIterator<Integer> it = Streams.iterate(proxy.upTo(1_000), 16)) {
                List<Integer> got = new ArrayList<>();
                it.forEachRemaining(got::add);
                assertThat(got).containsExactlyElementsOf(IntStream.range(0, 1_000).boxed().toList());
            }
            assertThat(counter.producersEnded.await(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            extension.stop();
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aStreamItsReaderAbandonsStopsItsProducerAndLeavesNothingBehind(boolean tcp) throws Exception {
        Counter.Impl counter = new Counter.Impl();
        JupiterServerExtension extension = extension(counter, tcp);
        extension.start();
        try {
            Counter proxy = extension.proxy(Counter.class).build();
            // A stream far longer than the reader wants: closing the iterator cancels it on the provider.
            try (StreamIterator<Integer> it = Streams.iterate(proxy.upTo(Integer.MAX_VALUE), 4)) {
                for (int i = 0; i < 10; i++) {
                    assertThat(it.next()).isEqualTo(i);
                }
            }
            assertThat(counter.producersEnded.await(10, TimeUnit.SECONDS))
                    .as("the producer stopped once the stream was cancelled").isTrue();
        } finally {
            extension.stop();
        }
    }

    @Test
    void aSecondStreamAfterACancelledOneWorksOnTheSameConnections() throws Exception {
        Counter.Impl counter = new Counter.Impl();
        JupiterServerExtension extension = extension(counter, false);
        extension.start();
        try {
            Counter proxy = extension.proxy(Counter.class).build();
            try (StreamIterator<Integer> it = Streams.iterate(proxy.upTo(Integer.MAX_VALUE), 4)) {
                assertThat(it.next()).isZero();
            }
            assertThat(counter.producersEnded.await(10, TimeUnit.SECONDS)).isTrue();
            counter.producersEnded = new CountDownLatch(1);
            try (StreamIterator<Integer> it = Streams.iterate(proxy.upTo(3))) {
                List<Integer> got = new ArrayList<>();
                it.forEachRemaining(got::add);
                assertThat(got).containsExactly(0, 1, 2);
            }
        } finally {
            extension.stop();
        }
    }

    private static JupiterServerExtension extension(Counter.Impl counter, boolean tcp) {
        JupiterServerExtension.Builder builder = JupiterServerExtension.builder().service(counter);
        return (tcp ? builder.tcp() : builder).build();
    }
}
