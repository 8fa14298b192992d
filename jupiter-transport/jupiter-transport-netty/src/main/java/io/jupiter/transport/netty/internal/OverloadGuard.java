package io.jupiter.transport.netty.internal;

import io.jupiter.transport.PeerIncident;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.LongSupplier;

/**
 * Closes a connection whose peer does not read. The water marks stop reading new requests from such a peer, not
 * answering those already taken, so its outbound bytes can still grow; past {@code maxPendingWriteBytes} (bytes in
 * the channel's outbound buffer plus those still queued by other threads) the connection is closed, with one WARN
 * line (throttled per peer, see {@link ConnectionIncidents}), and every frame refused is released. One stuck peer
 * cannot exhaust the process's memory.
 */
final class OverloadGuard {

    private static final AtomicIntegerFieldUpdater<OverloadGuard> TRIPPED =
            AtomicIntegerFieldUpdater.newUpdater(OverloadGuard.class, "tripped");

    private final Channel channel;
    private final long maxPendingWriteBytes;
    private final LongSupplier queuedBytes;
    /** 1 once the connection was closed for not reading. */
    private volatile int tripped;

    /** @param queuedBytes bytes queued for the channel by other threads and not yet handed to it */
    OverloadGuard(Channel channel, long maxPendingWriteBytes, LongSupplier queuedBytes) {
        this.channel = channel;
        this.maxPendingWriteBytes = maxPendingWriteBytes;
        this.queuedBytes = queuedBytes;
    }

    /** Whether {@code pendingBytes} waiting to be sent stay within the limit. */
    boolean admits(long pendingBytes) {
        return pendingBytes <= maxPendingWriteBytes;
    }

    /** Bytes in the channel's outbound buffer (readable from any thread: a volatile counter). */
    long outboundBytes() {
        ChannelOutboundBuffer outbound = channel.unsafe().outboundBuffer();
        return outbound == null ? 0 : outbound.totalPendingWriteBytes();
    }

    /** Event loop: releases {@code frame} and returns {@code true} if writing it would pass the limit. */
    boolean refuseIfOverloaded(ByteBuf frame) {
        if (admits(outboundBytes() + frame.readableBytes())) {
            return false;
        }
        refuse(frame);
        return true;
    }

    /** Releases {@code frame} and, the first time, closes the connection. */
    void refuse(ByteBuf frame) {
        if (TRIPPED.compareAndSet(this, 0, 1)) {
            ConnectionIncidents.of(channel).close(channel, PeerIncident.NOT_READING,
                    "closing {}: the peer is not reading ({} bytes waiting to be sent, limit {})",
                    Transports.peer(channel), outboundBytes() + queuedBytes.getAsLong(), maxPendingWriteBytes);
        }
        frame.release();
    }
}
