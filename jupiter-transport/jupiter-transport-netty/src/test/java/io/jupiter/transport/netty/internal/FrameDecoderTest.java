package io.jupiter.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.transport.Frame;
import io.jupiter.transport.Frames;
import io.jupiter.transport.PeerIncident;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.TransportConfig;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link FrameDecoder} on an {@link EmbeddedChannel}: splitting, coalescing, heartbeats and every rejection. */
class FrameDecoderTest {

    // Message codes of the embedded registry (declared in jupiter-registry-default, which this module cannot see).
    private static final byte REGISTRY_ACK = 0x07;

    private static final TransportConfig RPC = TransportConfig.builder().maxBodySize(1024).build();
    private static final byte REQUEST_SIGN = ProtocolHeader.toSign(1, ProtocolHeader.REQUEST);

    private EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(RPC));

    @AfterEach
    void finish() {
        channel.finishAndReleaseAll();
    }

    @Test
    void decodesOneFrame() {
        channel.writeInbound(frame(REQUEST_SIGN, (byte) 0, 42L, "hello jupiter"));

        Frame frame = channel.readInbound();
        try {
            assertThat(frame.messageCode()).isEqualTo(ProtocolHeader.REQUEST);
            assertThat(frame.serializerCode()).isEqualTo((byte) 1);
            assertThat(frame.status()).isZero();
            assertThat(frame.id()).isEqualTo(42L);
            assertThat(frame.body().toString(StandardCharsets.UTF_8)).isEqualTo("hello jupiter");
            assertThat(frame.receivedNanos()).isLessThanOrEqualTo(System.nanoTime());
            // Zero copy: the body is a view of the receive buffer, not a copy.
            assertThat(frame.body().unwrap()).isNotNull();
        } finally {
            frame.release();
        }
        assertThat(inbound(channel)).isNull();
    }

    @Test
    void frameFedOneByteAtATime() {
        byte[] bytes = toBytes(
                frame(ProtocolHeader.toSign(2, ProtocolHeader.RESPONSE), (byte) 0x20, -5L, "byte by byte"));
        for (int i = 0; i < bytes.length - 1; i++) {
            channel.writeInbound(Unpooled.wrappedBuffer(bytes, i, 1));
            assertThat(inbound(channel)).as("after %d bytes", i + 1).isNull();
        }
        channel.writeInbound(Unpooled.wrappedBuffer(bytes, bytes.length - 1, 1));

        Frame frame = channel.readInbound();
        try {
            assertThat(frame.messageCode()).isEqualTo(ProtocolHeader.RESPONSE);
            assertThat(frame.serializerCode()).isEqualTo((byte) 2);
            assertThat(frame.status()).isEqualTo((byte) 0x20);
            assertThat(frame.id()).isEqualTo(-5L);
            assertThat(frame.body().toString(StandardCharsets.UTF_8)).isEqualTo("byte by byte");
        } finally {
            frame.release();
        }
    }

    @Test
    void frameSplitAtEveryPoint() {
        byte[] bytes = toBytes(frame(REQUEST_SIGN, (byte) 0, Long.MAX_VALUE, "split me anywhere"));
        for (int split = 1; split < bytes.length; split++) {
            EmbeddedChannel split2 = new EmbeddedChannel(new FrameDecoder(RPC));
            split2.writeInbound(Unpooled.wrappedBuffer(bytes, 0, split));
            assertThat(inbound(split2)).as("first %d bytes", split).isNull();
            split2.writeInbound(Unpooled.wrappedBuffer(bytes, split, bytes.length - split));

            Frame frame = split2.readInbound();
            try {
                assertThat(frame.id()).isEqualTo(Long.MAX_VALUE);
                assertThat(frame.body().toString(StandardCharsets.UTF_8)).isEqualTo("split me anywhere");
            } finally {
                frame.release();
            }
            assertThat(split2.finishAndReleaseAll()).isFalse();
        }
    }

    @Test
    void manyFramesCoalescedInOneBuffer() {
        ByteBuf all = Unpooled.buffer();
        for (int i = 0; i < 100; i++) {
            ByteBuf one = i % 10 == 0
                    ? Frames.heartbeat(UnpooledByteBufAllocator.DEFAULT)
                    : frame(REQUEST_SIGN, (byte) 0, i, body(i));
            all.writeBytes(one);
            one.release();
        }
        channel.writeInbound(all);

        for (int i = 0; i < 100; i++) {
            if (i % 10 == 0) {
                continue;
            }
            Frame frame = channel.readInbound();
            try {
                assertThat(frame.id()).isEqualTo(i);
                assertThat(frame.body().toString(StandardCharsets.UTF_8)).isEqualTo(body(i));
            } finally {
                frame.release();
            }
        }
        assertThat(inbound(channel)).isNull();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void emptyBody() {
        channel.writeInbound(frame(REQUEST_SIGN, (byte) 0, 7L, ""));

        Frame frame = channel.readInbound();
        try {
            assertThat(frame.id()).isEqualTo(7L);
            assertThat(frame.body().readableBytes()).isZero();
        } finally {
            frame.release();
        }
    }

    @Test
    void bodyExactlyAtTheCapIsAccepted() {
        channel.writeInbound(frame(REQUEST_SIGN, (byte) 0, 1L, "c".repeat(1024)));

        Frame frame = channel.readInbound();
        assertThat(frame.body().readableBytes()).isEqualTo(1024);
        frame.release();
    }

    @Test
    void heartbeatIsConsumedSilently() {
        ByteBuf in = Unpooled.buffer();
        ByteBuf heartbeat = Frames.heartbeat(UnpooledByteBufAllocator.DEFAULT);
        in.writeBytes(heartbeat);
        heartbeat.release();
        ByteBuf request = frame(REQUEST_SIGN, (byte) 0, 9L, "after");
        in.writeBytes(request);
        request.release();
        channel.writeInbound(in);

        Frame frame = channel.readInbound();
        assertThat(frame.id()).isEqualTo(9L);
        frame.release();
        assertThat(inbound(channel)).isNull();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void oneHeartbeatMoreThanTheLimitWithinASecondClosesTheConnection() {
        channel.finishAndReleaseAll();
        channel = new EmbeddedChannel(new FrameDecoder(RPC.toBuilder().maxHeartbeatsPerSecond(10).build()));
        ByteBuf in = Unpooled.buffer();
        for (int i = 0; i < 10; i++) {
            ByteBuf heartbeat = Frames.heartbeat(UnpooledByteBufAllocator.DEFAULT, i % 2 == 0 ? 0 : i);
            in.writeBytes(heartbeat);
            heartbeat.release();
        }
        channel.writeInbound(in);
        assertThat(channel.isOpen()).as("10 heartbeats: at the limit").isTrue();
        try (LogCapture log = new LogCapture()) {
            // The 11th, and a request behind it in the same read: dropped unread.
            ByteBuf more = Unpooled.buffer();
            ByteBuf heartbeat = Frames.heartbeat(UnpooledByteBufAllocator.DEFAULT);
            ByteBuf request = frame(REQUEST_SIGN, (byte) 0, 9L, "too late");
            more.writeBytes(heartbeat).writeBytes(request);
            heartbeat.release();
            request.release();
            channel.writeInbound(more);
            assertThat(log.lines("WARN")).singleElement().asString()
                    .contains("closing embedded: more than 10 heartbeats within one second");
        }
        assertThat(channel.isOpen()).isFalse();
        assertThat(inbound(channel)).isNull();
        assertThat(ConnectionIncidents.of(channel).count(PeerIncident.TOO_MANY_HEARTBEATS)).isEqualTo(1);
    }

    @Test
    void anAnnouncementIsPassedOnAndNeverTakenForAPingOrAPong() {
        // A server's decoder: an announcement (status 0x01), even one with an id, is emitted and not answered; a ping
        // (status 0, id 7) right after it is answered with its pong.
        channel = new EmbeddedChannel(new FrameDecoder(RPC, true));
        ByteBuf in = Unpooled.buffer();
        ByteBuf announcement = Frames.announcement(UnpooledByteBufAllocator.DEFAULT, ProtocolHeader.STREAMS_ANNOUNCED);
        in.writeBytes(announcement);
        announcement.release();
        ByteBuf withId = Frames.announcement(UnpooledByteBufAllocator.DEFAULT, ProtocolHeader.STREAMS_ANNOUNCED);
        withId.setLong(4, 5L);
        in.writeBytes(withId);
        withId.release();
        ByteBuf ping = Frames.heartbeat(UnpooledByteBufAllocator.DEFAULT, 7L);
        in.writeBytes(ping);
        ping.release();
        channel.writeInbound(in);

        for (long id : new long[] {0L, 5L}) {
            Frame frame = channel.readInbound();
            assertThat(frame.messageCode()).isEqualTo(ProtocolHeader.HEARTBEAT);
            assertThat(frame.status()).isEqualTo(ProtocolHeader.STREAMS_ANNOUNCED);
            assertThat(frame.id()).isEqualTo(id);
            assertThat(frame.body().readableBytes()).isZero();
            frame.release();
        }
        assertThat(inbound(channel)).as("the ping itself is not emitted").isNull();
        ByteBuf pong = channel.readOutbound();
        assertThat(pong.getLong(4)).as("one pong, for the ping only").isEqualTo(7L);
        assertThat(pong.getByte(ProtocolHeader.STATUS_OFFSET)).isZero();
        pong.release();
        Object more = channel.readOutbound();
        assertThat(more).isNull();

        // A client's decoder: an announcement with an id is no pong.
        List<Object> events = new ArrayList<>();
        EmbeddedChannel client = new EmbeddedChannel(new FrameDecoder(RPC, false),
                new ChannelInboundHandlerAdapter() {
                    @Override
                    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
                        events.add(event);
                    }
                });
        ByteBuf toClient = Frames.announcement(UnpooledByteBufAllocator.DEFAULT, ProtocolHeader.STREAMS_ANNOUNCED);
        toClient.setLong(4, 9L);
        client.writeInbound(toClient);
        Frame frame = client.readInbound();
        assertThat(frame.status()).isEqualTo(ProtocolHeader.STREAMS_ANNOUNCED);
        frame.release();
        assertThat(events).doesNotContain(FrameDecoder.PONG);
        client.writeInbound(Frames.heartbeat(UnpooledByteBufAllocator.DEFAULT, 9L));
        assertThat(events).containsExactly(FrameDecoder.PONG);
        client.finishAndReleaseAll();
    }

    @Test
    void heartbeatBodyIsSkippedAsItArrives() {
        ByteBuf heartbeat = Unpooled.buffer();
        heartbeat.writeShort(ProtocolHeader.MAGIC).writeByte(ProtocolHeader.HEARTBEAT).writeByte(0).writeLong(0)
                .writeInt(3);
        channel.writeInbound(heartbeat);
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {1, 2}));
        ByteBuf rest = Unpooled.buffer().writeByte(3);
        ByteBuf request = frame(REQUEST_SIGN, (byte) 0, 10L, "next");
        rest.writeBytes(request);
        request.release();
        channel.writeInbound(rest);

        Frame frame = channel.readInbound();
        assertThat(frame.id()).isEqualTo(10L);
        frame.release();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void badMagicClosesTheChannel() {
        ByteBuf bad = frame(REQUEST_SIGN, (byte) 0, 1L, "body");
        bad.setShort(0, 0xcafe);

        assertRejected(bad, "bad magic 0xcafe");
    }

    @Test
    void unacceptedMessageCodeClosesTheChannel() {
        // ACK (0x07) is a registry message; an RPC port does not accept it.
        assertRejected(frame(REGISTRY_ACK, (byte) 0, 1L, ""), "message code 0x7 is not accepted");
    }

    @Test
    void negativeBodySizeClosesTheChannel() {
        ByteBuf header = header(REQUEST_SIGN, 1L, -1);

        assertRejected(header, "negative body size -1");
    }

    @Test
    void oversizedBodyIsRejectedOnTheHeaderAlone() {
        // The cap is checked on the header: no body byte is awaited before closing.
        assertRejected(header(REQUEST_SIGN, 1L, 1025), "body size 1025 exceeds the 1024-byte cap");
    }

    @Test
    void oversizedHeartbeatIsRejectedToo() {
        assertRejected(header(ProtocolHeader.HEARTBEAT, 0L, 1025), "body size 1025 exceeds the 1024-byte cap");
    }

    @Test
    void rejectionAfterGoodFramesKeepsThemAndDropsEverythingAfter() {
        ByteBuf in = Unpooled.buffer();
        ByteBuf good = frame(REQUEST_SIGN, (byte) 0, 1L, "good");
        in.writeBytes(good);
        good.release();
        in.writeBytes(new byte[16]);
        ByteBuf after = frame(REQUEST_SIGN, (byte) 0, 2L, "after the bad one");
        in.writeBytes(after);
        after.release();

        channel.writeInbound(in);

        Frame frame = channel.readInbound();
        assertThat(frame.id()).isEqualTo(1L);
        frame.release();
        assertThat(inbound(channel)).isNull();
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void registryConfigAcceptsRegistryCodes() {
        TransportConfig registry = TransportConfig.builder()
                .acceptedMessageCodes(ProtocolHeader.messageCodeMask((byte) 3, (byte) 4, (byte) 5, (byte) 6, (byte) 7,
                        ProtocolHeader.HEARTBEAT))
                .build();
        channel.finishAndReleaseAll();
        channel = new EmbeddedChannel(new FrameDecoder(registry));
        channel.writeInbound(frame(REGISTRY_ACK, (byte) 0, 3L, ""));

        Frame ack = channel.readInbound();
        assertThat(ack.messageCode()).isEqualTo(REGISTRY_ACK);
        assertThat(ack.id()).isEqualTo(3L);
        ack.release();

        // ... and refuses RPC requests.
        channel.writeInbound(frame(REQUEST_SIGN, (byte) 0, 1L, ""));
        assertThat(inbound(channel)).isNull();
        assertThat(channel.isOpen()).isFalse();
    }

    /** A provider's config with the caller token as first frame: requests and heartbeats, the token first only. */
    private static final TransportConfig WITH_TOKEN = TransportConfig.builder().maxBodySize(1024)
            .acceptedMessageCodes(ProtocolHeader.PROVIDER_MESSAGE_CODES)
            .firstFrameOnly(ProtocolHeader.CALLER_TOKEN, 16).build();
    private static final byte TOKEN_SIGN = ProtocolHeader.toSign(0, ProtocolHeader.CALLER_TOKEN);

    private void useTokenConfig() {
        channel.finishAndReleaseAll();
        channel = new EmbeddedChannel(new FrameDecoder(WITH_TOKEN));
    }

    @Test
    void aFirstFrameOnlyCodeIsPassedOnAsTheFirstFrame() {
        useTokenConfig();
        channel.writeInbound(frame(TOKEN_SIGN, (byte) 0, 0L, "s3cret"), frame(REQUEST_SIGN, (byte) 0, 1L, "call"));

        Frame token = channel.readInbound();
        assertThat(token.messageCode()).isEqualTo(ProtocolHeader.CALLER_TOKEN);
        assertThat(token.body().toString(StandardCharsets.UTF_8)).isEqualTo("s3cret");
        token.release();
        Frame request = channel.readInbound();
        assertThat(request.id()).isEqualTo(1L);
        request.release();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void aFirstFrameOnlyCodeAfterTheFirstFrameClosesTheChannel() {
        useTokenConfig();
        channel.writeInbound(frame(REQUEST_SIGN, (byte) 0, 1L, "call"));
        Frame request = channel.readInbound();
        request.release();

        assertRejected(frame(TOKEN_SIGN, (byte) 0, 0L, "late"), "message code 0x9 is not accepted");
    }

    @Test
    void aFirstFrameOnlyCodeHasItsOwnCapCheckedOnTheHeader() {
        useTokenConfig();
        // 17 bytes declared, none sent: refused on the 16 header bytes, nothing buffered for the body.
        assertRejected(header(TOKEN_SIGN, 0L, 17), "body size 17 exceeds the 16-byte cap");
    }

    @Test
    void withoutAFirstFrameOnlyCodeTheTokenIsRefusedLikeAnyUnacceptedCode() {
        assertRejected(frame(TOKEN_SIGN, (byte) 0, 0L, "s3cret"), "message code 0x9 is not accepted");
    }

    /** Bodies of varied sizes, every third one empty. */
    private static String body(int i) {
        return i % 3 == 0 ? "" : "#" + i + "x".repeat(i);
    }

    private void assertRejected(ByteBuf bad, String reason) {
        // A valid frame right behind the bad bytes: it must be dropped with them.
        ByteBuf in = Unpooled.buffer().writeBytes(bad);
        bad.release();
        ByteBuf valid = frame(REQUEST_SIGN, (byte) 0, 2L, "ignored");
        in.writeBytes(valid);
        valid.release();

        List<String> warnings;
        try (LogCapture log = new LogCapture()) {
            channel.writeInbound(in);
            warnings = log.lines("WARN");
        }
        assertThat(inbound(channel)).isNull();
        assertThat(channel.isOpen()).isFalse();
        assertThat(warnings).singleElement().asString().contains("closing embedded: " + reason);
    }

    @Test
    void rejectionWithOnlyTheHeaderBuffered() {
        // The header alone, body never sent: the channel closes at once; later bytes are dropped.
        List<String> warnings;
        try (LogCapture log = new LogCapture()) {
            channel.writeInbound(header(REQUEST_SIGN, 1L, 5_000_000));
            warnings = log.lines("WARN");
        }
        assertThat(channel.isOpen()).isFalse();
        assertThat(inbound(channel)).isNull();
        assertThat(warnings).singleElement().asString()
                .contains("closing embedded: body size 5000000 exceeds the 1024-byte cap");
    }

    @Test
    void aFewBadBytesAreRejectedBeforeAWholeHeaderArrives() {
        // One wrong first byte is enough: the peer is not left holding the connection until the idle timeout.
        try (LogCapture log = new LogCapture()) {
            channel.writeInbound(Unpooled.buffer(1).writeByte(0x00));
            assertThat(log.lines("WARN")).singleElement().asString()
                    .contains("closing embedded: bad magic 0x0.. (expected: 0xbabe)");
        }
        assertThat(channel.isOpen()).isFalse();
        assertThat(inbound(channel)).isNull();
    }

    @Test
    void anUnacceptedSignIsRejectedOnTheThirdByte() {
        try (LogCapture log = new LogCapture()) {
            channel.writeInbound(Unpooled.buffer(3).writeShort(ProtocolHeader.MAGIC).writeByte(REGISTRY_ACK));
            assertThat(log.lines("WARN")).singleElement().asString()
                    .contains("closing embedded: message code 0x7 is not accepted");
        }
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void aGoodPrefixWaitsForTheRestOfTheHeader() {
        channel.writeInbound(Unpooled.buffer(3).writeShort(ProtocolHeader.MAGIC).writeByte(REQUEST_SIGN));
        assertThat(channel.isOpen()).isTrue();
        assertThat(inbound(channel)).isNull();
    }

    static ByteBuf frame(byte sign, byte status, long id, String body) {
        ByteBuf frame = Frames.newFrame(UnpooledByteBufAllocator.DEFAULT, body.length());
        frame.writeCharSequence(body, StandardCharsets.UTF_8);
        return Frames.fillHeader(frame, sign, status, id);
    }

    private static ByteBuf header(byte sign, long id, int bodySize) {
        return Unpooled.buffer(16).writeShort(ProtocolHeader.MAGIC).writeByte(sign).writeByte(0).writeLong(id)
                .writeInt(bodySize);
    }

    private static byte[] toBytes(ByteBuf buf) {
        byte[] bytes = ByteBufUtil.getBytes(buf);
        buf.release();
        return bytes;
    }

    /** The next inbound message, typed as {@code Object} so that AssertJ does not assume a type. */
    private static Object inbound(EmbeddedChannel channel) {
        return channel.readInbound();
    }
}
