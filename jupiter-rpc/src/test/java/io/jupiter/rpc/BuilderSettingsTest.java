package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The RPC builders and the system properties behind their defaults refuse the same values with the same message. */
class BuilderSettingsTest {

    private static final String INVOKE_TIMEOUT = "jupiter.rpc.invoke.timeout";
    private static final String MAX_IN_FLIGHT = "jupiter.rpc.consumer.max.in.flight";
    private static final String MAX_IN_FLIGHT_BEFORE = "jupiter.rpc.consumer.max-in-flight";
    private static final String CONNECTION_COUNT = "jupiter.rpc.suggest.connection.count";

    @AfterEach
    void clearProperties() {
        for (String key : new String[] {INVOKE_TIMEOUT, MAX_IN_FLIGHT, MAX_IN_FLIGHT_BEFORE, CONNECTION_COUNT}) {
            System.clearProperty(key);
        }
    }

    @Test
    void negativeOrZeroInvokeTimeoutIsRefusedByTheBuilderAndThroughTheProperty() {
        try (JupiterClient client = JupiterClient.builder().consumerThreads(0).build()) {
            for (long timeout : new long[] {-1, 0}) {
                System.clearProperty(INVOKE_TIMEOUT);
                ProxyBuilder<EchoService> proxy = client.proxy(EchoService.class);
                assertThatThrownBy(() -> proxy.timeoutMillis(timeout)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("timeoutMillis: " + timeout + " (expected: > 0)");

                System.setProperty(INVOKE_TIMEOUT, Long.toString(timeout));
                assertThatThrownBy(() -> client.proxy(EchoService.class)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("timeoutMillis: " + timeout + " (expected: > 0), from -D" + INVOKE_TIMEOUT + "="
                                + timeout);
            }
            System.setProperty(INVOKE_TIMEOUT, "250");
            assertThatCode(() -> client.proxy(EchoService.class)).doesNotThrowAnyException();
        }
    }

    @Test
    void maxInFlightIsReadUnderItsFormerNameTooAndCheckedTheSame() {
        System.setProperty(MAX_IN_FLIGHT_BEFORE, "0");
        assertThatThrownBy(JupiterClient::builder).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxInFlight: 0 (expected: > 0), from -D" + MAX_IN_FLIGHT_BEFORE + "=0");
        System.setProperty(MAX_IN_FLIGHT, "64");
        assertThatCode(JupiterClient::builder).as("the current name wins over the former one")
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> JupiterClient.builder().maxInFlight(0))
                .hasMessage("maxInFlight: 0 (expected: > 0)");
    }

    @Test
    void connectionCountOutOfRangeIsRefusedByTheBuilderAndThroughTheProperty() {
        assertThatThrownBy(() -> JupiterServer.builder().connCount(65))
                .hasMessage("connCount: 65 (expected: 1..64)");
        System.setProperty(CONNECTION_COUNT, "65");
        assertThatThrownBy(JupiterServer::builder)
                .hasMessage("connCount: 65 (expected: 1..64), from -D" + CONNECTION_COUNT + "=65");
        System.setProperty(CONNECTION_COUNT, "x");
        assertThatThrownBy(JupiterServer::builder)
                .hasMessage("connCount: 'x' (expected: an integer), from -D" + CONNECTION_COUNT);
        System.setProperty(CONNECTION_COUNT, "64");
        assertThat(JupiterServer.builder()).isNotNull();
    }
}
