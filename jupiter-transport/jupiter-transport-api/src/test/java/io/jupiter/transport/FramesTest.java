package io.jupiter.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/** The header {@link Frames#fillHeader} writes is the 16 bytes of the wire format, wherever the frame starts. */
class FramesTest {

    @Test
    void theHeaderIsMagicSignStatusIdAndBodySizeBigEndian() {
        ByteBuf frame = Unpooled.buffer();
        try {
            frame.writeZero(3).readerIndex(3);
            frame.writeZero(ProtocolHeader.HEADER_SIZE).writeBytes(new byte[] {1, 2, 3, 4, 5});
            Frames.fillHeader(frame, (byte) 0xf1, (byte) 0x80, 0x0102030405060708L);

            assertThat(ByteBufUtil.hexDump(frame, 3, ProtocolHeader.HEADER_SIZE))
                    .isEqualTo("babe" + "f1" + "80" + "0102030405060708" + "00000005");
            assertThat(frame.getByte(2)).as("nothing before the frame's start").isZero();
        } finally {
            frame.release();
        }
    }
}
