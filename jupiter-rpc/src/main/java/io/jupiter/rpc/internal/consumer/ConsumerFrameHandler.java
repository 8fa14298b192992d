package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.exception.ConnectionException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.stream.ConsumerStreams;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.FrameHandler;
import io.jupiter.transport.ProtocolHeader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's side of every connection: matches each response to its call by invoke id (on the IO thread, without
 * reading the body) and fails the calls of a connection that closes at once, rather than at their timeouts. With a
 * caller token, sends it first on every connection that opens. Learns which providers take call cancels
 * ({@link CallCancels}).
 */
final class ConsumerFrameHandler implements FrameHandler {

    private static final Logger log = LoggerFactory.getLogger(ConsumerFrameHandler.class);

    private final InFlightCalls calls;
    private final CallCancels cancels;
    private final RpcMetrics metrics;
    /** {@code null}: no caller token, nothing is sent when a connection opens (as 1.3.1). */
    private final CallerTokenSender callerToken;
    /** Stream frames and providers' announcements go here. */
    private final ConsumerStreams streams;

    ConsumerFrameHandler(InFlightCalls calls, CallCancels cancels, RpcMetrics metrics, CallerTokenSender callerToken,
                         ConsumerStreams streams) {
        this.streams = streams;
        this.calls = calls;
        this.cancels = cancels;
        this.metrics = metrics;
        this.callerToken = callerToken;
    }

    @Override
    public void connected(Connection connection) {
        streams.connected(connection);
        // Called before the connection is offered to calls, so the token goes before any request.
        if (callerToken != null) {
            callerToken.send(connection);
        }
    }

    @Override
    public void frameReceived(Connection connection, Frame frame) {
        if (frame.messageCode() != ProtocolHeader.RESPONSE) {
            cancels.heard(connection, frame);
            if (streams.received(connection, frame)) {
                return;
            }
            log.warn("dropping a frame with message code 0x{} from {}: a client accepts only responses",
                    Integer.toHexString(frame.messageCode()), connection.remoteAddress());
            frame.release();
            return;
        }
        metrics.response(frame.status(), frame.body().readableBytes(), 0L);
        cancels.responded(connection);
        PendingCall call = calls.remove(frame.id());
        if (call == null) {
            log.debug("dropping the response {} from {}: its call already ended (timed out?)", frame.id(),
                    connection.remoteAddress());
            frame.release();
            return;
        }
        call.responded(frame);
    }

    @Override
    public void disconnected(Connection connection) {
        streams.disconnected(connection);
        cancels.disconnected(connection);
        for (PendingCall call : calls.removeAll(c -> c.connection == connection)) {
            call.failed(new ConnectionException(StatusTable.CLIENT_ERROR.status(),
                    "connection to " + connection.remoteAddress()
                    + " closed before the response to " + call.method + " (invoke id " + call.id + ") arrived"));
        }
    }
}
