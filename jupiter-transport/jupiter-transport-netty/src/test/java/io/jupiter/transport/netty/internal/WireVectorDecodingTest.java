package io.jupiter.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jupiter.testkit.WireVector;
import io.jupiter.transport.Frame;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.TransportConfig;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The 213 frames captured from real Jupiter 1.3.1 peers go through {@link FrameDecoder} and come out with the
 * captured header fields and body; {@link Frames} rebuilds them byte for byte.
 */
class WireVectorDecodingTest {

    // Message codes of the embedded registry (declared in jupiter-registry-default, which this module cannot see).
    private static final byte REGISTRY_PUBLISH_SERVICE = 0x03;
    private static final byte REGISTRY_PUBLISH_CANCEL_SERVICE = 0x04;
    private static final byte REGISTRY_SUBSCRIBE_SERVICE = 0x05;
    private static final byte REGISTRY_OFFLINE_NOTICE = 0x06;
    private static final byte REGISTRY_ACK = 0x07;

    private static final TransportConfig RPC = TransportConfig.defaults();
    private static final TransportConfig REGISTRY = TransportConfig.builder()
            .acceptedMessageCodes(ProtocolHeader.messageCodeMask(REGISTRY_PUBLISH_SERVICE,
                    REGISTRY_PUBLISH_CANCEL_SERVICE, REGISTRY_SUBSCRIBE_SERVICE,
                    REGISTRY_OFFLINE_NOTICE, REGISTRY_ACK, ProtocolHeader.HEARTBEAT))
            .build();

    @Test
    void allVectorsAreThere() {
        assertThat(WireVector.all()).hasSize(213);
    }

    @Test
    void everyVectorDecodesToItsHeader() {
        int decoded = 0;
        for (WireVector vector : WireVector.all()) {
            EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(configFor(vector)));
            channel.writeInbound(Unpooled.wrappedBuffer(vector.frame()));
            assertThat(channel.isOpen()).as(vector.name()).isTrue();
            Frame frame = channel.readInbound();
            if (isHeartbeat(vector)) {
                assertThat(frame).as(vector.name()).isNull();
            } else {
                try {
                    assertMatches(frame, vector);
                } finally {
                    frame.release();
                }
                decoded++;
            }
            assertThat(channel.finishAndReleaseAll()).as(vector.name()).isFalse();
        }
        assertThat(decoded).isEqualTo(211);
    }

    @Test
    void vectorsOfOneFileBackToBackInOneStream() {
        for (String file : WireVector.FILES) {
            List<WireVector> vectors = WireVector.load(file);
            EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(configFor(vectors.get(0))));
            ByteBuf stream = Unpooled.buffer();
            for (WireVector vector : vectors) {
                stream.writeBytes(vector.frame());
            }
            // Fed in 1000-byte pieces, so that frames straddle reads.
            while (stream.isReadable()) {
                channel.writeInbound(stream.readRetainedSlice(Math.min(1000, stream.readableBytes())));
            }
            stream.release();
            for (WireVector vector : vectors) {
                if (isHeartbeat(vector)) {
                    continue;
                }
                Frame frame = channel.readInbound();
                try {
                    assertMatches(frame, vector);
                } finally {
                    frame.release();
                }
            }
            assertThat(inbound(channel)).as(file).isNull();
            assertThat(channel.finishAndReleaseAll()).as(file).isFalse();
        }
    }

    @Test
    void framesRebuildsEveryVectorByteForByte() {
        for (WireVector vector : WireVector.all()) {
            JsonNode header = vector.header();
            ByteBuf built;
            if (isHeartbeat(vector)) {
                built = Frames.heartbeat(UnpooledByteBufAllocator.DEFAULT);
            } else {
                byte[] body = vector.body();
                built = Frames.newFrame(UnpooledByteBufAllocator.DEFAULT, body.length).writeBytes(body);
                Frames.fillHeader(built, hexByte(header.get("sign")), hexByte(header.get("status")), id(header));
            }
            try {
                assertThat(ByteBufUtil.hexDump(built)).as(vector.name())
                        .isEqualTo(ByteBufUtil.hexDump(vector.frame()));
            } finally {
                built.release();
            }
        }
    }

    private static void assertMatches(Frame frame, WireVector vector) {
        JsonNode header = vector.header();
        byte sign = hexByte(header.get("sign"));
        assertThat(frame).as(vector.name()).isNotNull();
        assertThat(frame.messageCode()).as(vector.name()).isEqualTo(ProtocolHeader.messageCode(sign));
        assertThat(frame.serializerCode()).as(vector.name()).isEqualTo(ProtocolHeader.serializerCode(sign));
        assertThat(frame.serializerCode()).as(vector.name()).isEqualTo((byte) header.get("serializerCode").asInt());
        assertThat(frame.status()).as(vector.name()).isEqualTo(hexByte(header.get("status")));
        assertThat(frame.id()).as(vector.name()).isEqualTo(id(header));
        assertThat(frame.body().readableBytes()).as(vector.name()).isEqualTo(header.get("bodyLength").asInt());
        assertThat(ByteBufUtil.getBytes(frame.body())).as(vector.name()).isEqualTo(vector.body());
    }

    private static TransportConfig configFor(WireVector vector) {
        return vector.file().equals("registry.json") ? REGISTRY : RPC;
    }

    private static boolean isHeartbeat(WireVector vector) {
        return hexByte(vector.header().get("messageCode")) == ProtocolHeader.HEARTBEAT;
    }

    /** A byte written as {@code "0x1f"}. */
    private static byte hexByte(JsonNode node) {
        String text = node.asText();
        return (byte) Integer.parseInt(text.startsWith("0x") ? text.substring(2) : text, 16);
    }

    /** The id, written as a number or as a decimal string. */
    private static long id(JsonNode header) {
        return Long.parseLong(header.get("id").asText());
    }

    /** The next inbound message, typed as {@code Object} so that AssertJ does not assume a type. */
    private static Object inbound(EmbeddedChannel channel) {
        return channel.readInbound();
    }
}
