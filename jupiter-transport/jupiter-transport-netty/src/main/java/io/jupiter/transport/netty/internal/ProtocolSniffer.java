package io.jupiter.transport.netty.internal;

import io.jupiter.transport.PortProtocol;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.netty.NettyPortProtocol;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Only on an acceptor serving other protocols ({@link TransportConfig#protocols()}): reads a connection's first
 * bytes, then replaces itself with the 1.3.1 {@link FrameDecoder} or with the handlers of the protocol that claims
 * them, handing them every byte it held, unchanged.
 *
 * <p>A first byte {@code 0xba} (the 1.3.1 magic's) is 1.3.1 at once, so a 1.3.1 peer's bytes meet the same decoder
 * as without other protocols. Bytes no protocol claims, or still undecided after {@value #MAX_SNIFF_BYTES} bytes,
 * also go to the frame decoder, which refuses them as any bad frame. What the server writes before then is held
 * ({@link FirstWritesHold}).
 */
final class ProtocolSniffer extends ByteToMessageDecoder {

    /** The most bytes held before deciding; the longest prefix a protocol needs (HTTP/2's preface) is 24. */
    static final int MAX_SNIFF_BYTES = 64;

    /** The name of the frame dispatcher, before which a protocol installs its handlers. */
    static final String DISPATCHER = "dispatcher";

    private final TransportConfig config;
    private final String decoderName;
    private final FirstWritesHold hold;

    /** @param hold the hold of what the server writes meanwhile, after this sniffer in the pipeline */
    ProtocolSniffer(TransportConfig config, String decoderName, FirstWritesHold hold) {
        this.config = config;
        this.decoderName = decoderName;
        this.hold = hold;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (!in.isReadable()) {
            return;
        }
        ChannelPipeline pipeline = ctx.pipeline();
        if (in.getByte(in.readerIndex()) != (byte) (ProtocolHeader.MAGIC >> 8)) {
            hold.peerSpoke();
            boolean undecided = false;
            for (PortProtocol protocol : config.protocols()) {
                PortProtocol.Detection detection = protocol.detect(in);
                if (detection == PortProtocol.Detection.MATCH) {
                    if (pipeline.get("coalesce") != null) {
                        pipeline.remove("coalesce"); // batches 1.3.1 frames; this protocol writes its own bytes
                    }
                    // What the server wrote meanwhile goes through the protocol's handlers, after their own writes.
                    Runnable replay = hold.openFor(pipeline.context(DISPATCHER));
                    NettyConnection connection = NettyConnection.of(ctx.channel());
                    connection.takenOver();
                    ((NettyPortProtocol) protocol).install(pipeline, DISPATCHER, config, in, connection);
                    replay.run();
                    pipeline.remove(this);
                    return;
                }
                undecided |= detection == PortProtocol.Detection.NEED_MORE;
            }
            if (undecided && in.readableBytes() < MAX_SNIFF_BYTES) {
                return;
            }
        }
        pipeline.addAfter(ctx.name(), decoderName, new FrameDecoder(config, true));
        hold.release();
        pipeline.remove(this);
    }
}
