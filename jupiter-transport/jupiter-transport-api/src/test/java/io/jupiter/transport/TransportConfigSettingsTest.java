package io.jupiter.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A system property and a builder setter accept and refuse the same values, with the same message. */
class TransportConfigSettingsTest {

    private static final String MAX_BODY_SIZE = "jupiter.io.decoder.max.body.size";
    private static final String READER_IDLE_SECONDS = "jupiter.io.reader.idle.time.seconds";
    private static final String IO_THREADS = "jupiter.io.threads";
    private static final String WRITE_BATCHING = "jupiter.io.write.batching";

    @AfterEach
    void clearProperties() {
        for (String key : new String[] {MAX_BODY_SIZE, READER_IDLE_SECONDS, IO_THREADS, WRITE_BATCHING}) {
            System.clearProperty(key);
        }
    }

    @Test
    void negativeAndZeroBodySizeAreRefusedTheSameWayByPropertyAndBuilder() {
        for (int size : new int[] {0, -1}) {
            System.clearProperty(MAX_BODY_SIZE);
            TransportConfig.Builder builder = TransportConfig.builder();
            assertThatThrownBy(() -> builder.maxBodySize(size)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("maxBodySize: " + size + " (expected: > 0)");

            System.setProperty(MAX_BODY_SIZE, Integer.toString(size));
            assertThatThrownBy(TransportConfig::builder).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("maxBodySize: " + size + " (expected: > 0), from -D" + MAX_BODY_SIZE + "=" + size);
        }
    }

    @Test
    void propertyValuesWithinBoundsAreUsedAndSettersWinOverThem() {
        System.setProperty(MAX_BODY_SIZE, "1024");
        System.setProperty(READER_IDLE_SECONDS, "5");
        System.setProperty(WRITE_BATCHING, "Enable");
        TransportConfig fromProperties = TransportConfig.builder().maxPendingWriteBytes(4L << 20).build();
        assertThat(fromProperties.maxBodySize()).isEqualTo(1024);
        assertThat(fromProperties.readerIdleMillis()).isEqualTo(5_000);
        assertThat(fromProperties.writeBatching()).isEqualTo(WriteBatching.ENABLE);

        assertThat(TransportConfig.builder().maxBodySize(2048).build().maxBodySize()).isEqualTo(2048);
    }

    @Test
    void malformedPropertyNamesThePropertyAndWhatWasExpected() {
        System.setProperty(IO_THREADS, "many");
        assertThatThrownBy(TransportConfig::builder).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ioThreads: 'many' (expected: an integer), from -D" + IO_THREADS);
        System.clearProperty(IO_THREADS);

        System.setProperty(WRITE_BATCHING, "sometimes");
        assertThatThrownBy(TransportConfig::builder).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("writeBatching: 'sometimes' (expected: auto, enable or disable), from -D" + WRITE_BATCHING);
    }

    @Test
    void defaultsAreTheDeclaredOnes() {
        TransportConfig config = TransportConfig.builder().build();
        assertThat(config.maxBodySize()).isEqualTo(TransportConfig.DEFAULT_MAX_BODY_SIZE).isEqualTo(5 * 1024 * 1024);
        assertThat(config.readerIdleMillis()).isEqualTo(60_000);
        assertThat(config.bodyTimeoutMillis()).isEqualTo(10_000);
    }
}
