package io.jupiter.registry.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.embedded.internal.PushData;
import io.jupiter.registry.embedded.internal.RegistryCodec;
import io.jupiter.registry.embedded.internal.RegistryCodecException;
import io.jupiter.registry.embedded.internal.RegistryFrames;
import io.jupiter.registry.embedded.internal.RegistryMessage;
import io.jupiter.testkit.WireVector;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every registry frame captured from 1.3.1 is read, and written again byte for byte. */
class RegistryWireVectorTest {

    private static final ServiceMeta VECTORS = new ServiceMeta("test", "vectors", "1.0.0");

    static Stream<WireVector> vectors() {
        return WireVector.load("registry.json").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void readsAndRewritesEveryVector(WireVector vector) {
        byte code = (byte) (vector.frame()[2] & 0x0f);
        ByteBuf ours;
        if (code == 0x07) {
            long sequence = vector.header().get("id").asLong();
            ours = RegistryFrames.ackFrame(PooledByteBufAllocator.DEFAULT, sequence);
        } else {
            RegistryMessage message = RegistryCodec.decode(Unpooled.wrappedBuffer(vector.body()));
            assertThat(message.sequence()).isEqualTo(vector.decoded().get("sequence").asLong());
            assertThat(message.version()).isEqualTo(vector.decoded().get("version").asLong());
            assertThat(message.messageCode()).isEqualTo(code);
            ours = RegistryFrames.frame(PooledByteBufAllocator.DEFAULT, message);
        }
        try {
            assertThat(ByteBufUtil.hexDump(ours)).isEqualTo(HexFormat.of().formatHex(vector.frame()));
        } finally {
            ours.release();
        }
    }

    @Test
    void decodesTheValuesOfThePushes() {
        WireVector fullList = byName("registry/push-full-list");
        RegistryMessage message = RegistryCodec.decode(Unpooled.wrappedBuffer(fullList.body()));
        RegisterMeta provider = new RegisterMeta(new ProviderAddress("127.0.0.1", 18090), VECTORS, 50, 4);
        assertThat(message.data()).isEqualTo(new PushData(VECTORS, List.of(provider)));

        WireVector publish = byName("registry/publish");
        assertThat(RegistryCodec.decode(Unpooled.wrappedBuffer(publish.body())).data())
                .isEqualTo(new RegisterMeta(new ProviderAddress(null, 18090), VECTORS, 50, 4));

        WireVector offline = byName("registry/offline-notice");
        assertThat(RegistryCodec.decode(Unpooled.wrappedBuffer(offline.body())).data())
                .isEqualTo(new ProviderAddress("127.0.0.1", 18090));
    }

    @Test
    void writesAnEmptyListAndReadsItBack() {
        RegistryMessage message = new RegistryMessage(9, (byte) 1, (byte) 3, 4, new PushData(VECTORS, List.of()));
        ByteBuf buf = Unpooled.buffer();
        RegistryCodec.encode(buf, message);
        assertThat(RegistryCodec.decode(buf)).isEqualTo(message);
    }

    @Test
    void rejectsTruncatedAndForeignBodies() {
        byte[] body = byName("registry/push-full-list").body();
        for (int length = 1; length < body.length; length++) {
            ByteBuf truncated = Unpooled.wrappedBuffer(body, 0, length);
            try {
                RegistryCodec.decode(truncated);
                // A cut that ends exactly after a complete top-level field may decode to a partial message.
            } catch (RegistryCodecException expected) {
                assertThat(expected.getMessage()).isNotBlank();
            }
        }
        byte[] foreign = byName("registry/subscribe").body().clone();
        // Rename the class in the body: org.jupiter.registry.RegisterMeta$ServiceMeta -> ...$ServiceMetX
        int at = new String(foreign, StandardCharsets.ISO_8859_1).indexOf("ServiceMeta") + 10;
        foreign[at] = 'X';
        assertThatThrownBy(() -> RegistryCodec.decode(Unpooled.wrappedBuffer(foreign)))
                .isInstanceOf(RegistryCodecException.class).hasMessageContaining("unexpected type");
    }

    private static WireVector byName(String name) {
        return vectors().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
    }
}
