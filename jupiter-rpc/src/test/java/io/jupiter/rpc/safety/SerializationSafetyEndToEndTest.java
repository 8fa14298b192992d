package io.jupiter.rpc.safety;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.exception.BadRequestException;
import io.jupiter.rpc.exception.SerializationFailedException;
import io.jupiter.rpc.safety.ParcelService.Label;
import io.jupiter.rpc.safety.ParcelService.Parcel;
import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.SerializerType;
import io.jupiter.transport.Status;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

/**
 * The process-wide allow-list in its default STRICT mode, end to end on 127.0.0.1 with each serializer (Java
 * serialization enabled on this provider): a service's own types travel with no configuration, a class no service
 * mentions is refused with a message naming it, on the provider ({@code BAD_REQUEST}) and on the consumer
 * ({@code DESERIALIZATION_FAIL}), and WARN mode logs and lets it through.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SerializationSafetyEndToEndTest {

    private JupiterServer server;
    private JupiterClient client;
    private String address;

    @BeforeAll
    void start() {
        assertThat(ClassAllowList.global().mode()).isEqualTo(ClassAllowList.Mode.STRICT);
        server = JupiterServer.builder().host("127.0.0.1").port(0).serializers(SerializerType.values()).build();
        server.register(new ParcelServiceImpl());
        address = "127.0.0.1:" + server.start().getPort();
        client = JupiterClient.builder().build();
    }

    @AfterAll
    void stop() {
        client.close();
        server.close();
    }

    private ParcelService proxy(SerializerType serializer) {
        return client.proxy(ParcelService.class).address(address).serializer(serializer).timeoutMillis(10_000)
                .build();
    }

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void theServicesOwnTypesTravelWithNoConfiguration(SerializerType serializer) {
        ParcelService parcels = proxy(serializer);
        Parcel parcel = new Parcel("p-1", new Label("fragile"), "books");

        assertThat(parcels.send(parcel)).isEqualTo(parcel);
        assertThat(parcels.sendAll(List.of(parcel, new Parcel("p-2", null, 42)))).hasSize(2).contains(parcel);
        assertThat(parcels.describe(new Label("in an Object argument"))).startsWith(Label.class.getName());
    }

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void anUntrustedClassInARequestIsABadRequestNamingIt(SerializerType serializer) {
        ParcelService parcels = proxy(serializer);

        assertThatThrownBy(() -> parcels.describe(new Contraband()))
                .isInstanceOfSatisfying(BadRequestException.class,
                        e -> assertThat(e.status()).isEqualTo(Status.BAD_REQUEST))
                .hasMessageContaining("'" + Contraband.class.getName() + "' is not trusted")
                .hasMessageContaining("trust(Contraband.class)");
        // Also when hidden in an Object field of a trusted type.
        assertThatThrownBy(() -> parcels.send(new Parcel("p-3", null, new Contraband())))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining(Contraband.class.getName());
        // The refusal answered the call and kept the connection: the next call works.
        assertThat(parcels.describe("fine")).isEqualTo("fine");
    }

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void anUntrustedClassInAResponseFailsTheCallOnTheConsumer(SerializerType serializer) {
        ParcelService parcels = proxy(serializer);

        assertThatThrownBy(() -> parcels.open("contraband"))
                .isInstanceOfSatisfying(SerializationFailedException.class,
                        e -> assertThat(e.status()).isEqualTo(Status.DESERIALIZATION_FAIL))
                .hasMessageContaining("'" + Contraband.class.getName() + "' is not trusted");
        assertThat(parcels.open("letters")).isEqualTo("letters");
    }

    @Test
    void warnModeLogsOnceAndLetsItThrough() {
        Logger logger = (Logger) LoggerFactory.getLogger(ClassAllowList.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        // the logging thread appends while the test reads: a list that iterates over a snapshot
        appender.list = new CopyOnWriteArrayList<>();
        appender.start();
        logger.addAppender(appender);
        ClassAllowList.global().mode(ClassAllowList.Mode.WARN);
        try {
            for (SerializerType serializer : SerializerType.values()) {
                ParcelService parcels = proxy(serializer);
                assertThat(parcels.describe(new WarnOnlyContraband())).as("%s", serializer)
                        .isEqualTo("WarnOnlyContraband");
                assertThat(parcels.describe(new WarnOnlyContraband())).isEqualTo("WarnOnlyContraband");
            }
        } finally {
            ClassAllowList.global().mode(ClassAllowList.Mode.STRICT);
            logger.detachAppender(appender);
        }
        // One line per class name, not per call.
        assertThat(appender.list).filteredOn(e -> e.getFormattedMessage()
                        .contains("'" + WarnOnlyContraband.class.getName() + "'"))
                .singleElement()
                .satisfies(e -> assertThat(e.getFormattedMessage()).contains("WARN mode"));
        // Back in STRICT mode the same class is refused again.
        assertThatThrownBy(() -> proxy(SerializerType.PROTOSTUFF).describe(new WarnOnlyContraband()))
                .isInstanceOf(BadRequestException.class);
    }
}
