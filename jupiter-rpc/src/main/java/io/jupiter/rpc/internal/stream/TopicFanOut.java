package io.jupiter.rpc.internal.stream;

import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The streams of one topic and the fan-out of a message to them: the message is serialized once per serializer in
 * use into a pooled buffer, each stream gets a frame of its own 16-byte header and a retained duplicate of that
 * buffer, and the buffer is released once every stream has its reference. The streams are a concurrent set, not a
 * copy-on-write list: 10,000 subscribers joining and leaving one at a time would copy the list 20,000 times.
 */
public final class TopicFanOut {

    private final Set<OutboundStream> streams = ConcurrentHashMap.newKeySet();
    private final AtomicLong serializations = new AtomicLong();

    /** Adds a stream until it ends. */
    public void add(OutboundStream stream) {
        streams.add(stream);
        stream.onEnd((status, reason) -> streams.remove(stream));
    }

    public int size() {
        return streams.size();
    }

    public long serializations() {
        return serializations.get();
    }

    /** Sends {@code message} to every stream; returns how many took it. */
    public int publish(Object message) throws InterruptedException {
        ByteBuf[] bodies = new ByteBuf[SerializerType.MAX_CODE + 1];
        int taken = 0;
        try {
            for (OutboundStream stream : streams) {
                Serializer serializer = stream.serializer();
                byte code = serializer.type().code();
                ByteBuf body = bodies[code];
                if (body == null) {
                    body = ByteBufAllocator.DEFAULT.heapBuffer(128);
                    try {
                        serializer.write(body, message);
                    } catch (RuntimeException e) {
                        body.release();
                        throw e;
                    }
                    bodies[code] = body;
                    serializations.incrementAndGet();
                }
                if (body.readableBytes() > stream.connection().maxBodySize()) {
                    stream.end(StatusTable.SERVER_ERROR.status(), "a topic message of "
                            + body.readableBytes() + " bytes is above the body cap");
                    continue;
                }
                ByteBuf frame = StreamFrames.sharedMessage(stream.connection().alloc(), code, stream.id(), body);
                try {
                    if (stream.offer(frame)) {
                        taken++;
                    }
                } catch (StreamException e) {
                    // the stream ended meanwhile; it leaves the topic on its own
                }
            }
        } finally {
            for (ByteBuf body : bodies) {
                if (body != null) {
                    body.release();
                }
            }
        }
        return taken;
    }

    /** Completes every stream. */
    public void completeAll() {
        for (OutboundStream stream : streams) {
            stream.complete();
        }
    }
}
