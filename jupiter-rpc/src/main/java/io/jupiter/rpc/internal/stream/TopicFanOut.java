package io.jupiter.rpc.internal.stream;

import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The streams of one topic and the fan-out of a message to them: the message is serialized once per serializer in
 * use into a pooled buffer, each stream gets a frame of its own 16-byte header and the body (copied when small, else
 * a retained duplicate of that buffer: {@link OutboundStream#offerShared}), and the buffer is released once every
 * stream has its frame. The streams are a concurrent set, not a
 * copy-on-write list: 10,000 subscribers joining and leaving one at a time would copy the list 20,000 times.
 * {@code publish} goes through an array copied from the set, again only when the set changed since the last
 * publish: walking a concurrent set of 10,000 visits as many scattered nodes every time.
 */
public final class TopicFanOut {

    private static final Snapshot NONE = new Snapshot(-1, new OutboundStream[0]);

    private final Set<OutboundStream> streams = ConcurrentHashMap.newKeySet();
    private final AtomicLong serializations = new AtomicLong();
    /** Counts the changes of {@link #streams}, each made after the change itself. */
    private final AtomicInteger version = new AtomicInteger();
    /** {@link #streams} as copied at some version; streams that ended since are told apart by their offer. */
    private volatile Snapshot snapshot = NONE;

    private record Snapshot(int version, OutboundStream[] streams) {
    }

    /** Adds a stream until it ends. */
    public void add(OutboundStream stream) {
        streams.add(stream);
        version.incrementAndGet();
        stream.onEnd((status, reason) -> {
            streams.remove(stream);
            version.incrementAndGet();
            snapshot = NONE; // holds no ended stream until the next publish
        });
    }

    /**
     * The streams now: the last copy if the set did not change since it was made, else a new copy. A stream added
     * before this call counted a version the copy was not made at, so it is in the new copy.
     */
    private OutboundStream[] streams() {
        int now = version.get();
        Snapshot last = snapshot;
        if (last.version() == now) {
            return last.streams();
        }
        OutboundStream[] copy = streams.toArray(new OutboundStream[0]);
        snapshot = new Snapshot(now, copy);
        return copy;
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
            for (OutboundStream stream : streams()) {
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
                try {
                    if (stream.offerShared(code, body)) {
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
