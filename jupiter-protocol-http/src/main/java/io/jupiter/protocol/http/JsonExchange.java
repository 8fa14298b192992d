package io.jupiter.protocol.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.stream.StreamShape;
import io.jupiter.rpc.protocol.RefusalReason;
import io.jupiter.transport.Frame;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;

/**
 * HTTP/JSON calls as the provider sees them, whatever the HTTP version: a request ({@code POST /{service}/{method}},
 * the body a JSON array of the arguments) becomes the request frame (or a server stream's open, and its credit) fired
 * to the frame dispatcher; the frames the provider writes back become the call's {@link JsonResponse}, or its
 * stream's lines. {@link HttpJsonHandler} (HTTP/1.1) and {@link Http2JsonCalls} (HTTP/2) only read requests and
 * write answers in their own framing, so both serve the same rules, limits and errors.
 */
final class JsonExchange {

    static final String JSON = "application/json";
    static final String NDJSON = "application/x-ndjson";

    private final MethodLookup lookup;
    private final RequestFrames frames;
    private final JsonCalls json;

    JsonExchange(MethodLookup lookup, RequestFrames frames, JsonCalls json) {
        this.lookup = lookup;
        this.frames = frames;
        this.json = json;
    }

    /**
     * Hands {@code call}'s request on to the provider: its caller token first ({@link CallerTokens}), then its
     * request frame (or its stream's open and credit), with the deadline and attachments its headers give
     * ({@link JsonMetadata}). Returns {@code false} if it was refused here; its {@link JsonCall#response} then says
     * why. A call (not a stream: the provider ends a stream at its deadline) still unanswered at its deadline is
     * answered {@code 504} ({@code SERVER_TIMEOUT}) and cancelled at the provider; {@code timedOut} then writes
     * that answer.
     *
     * @param authorization the request's {@code authorization} header, or {@code null}
     * @param headers the request's headers
     * @param uri the request's path and query
     * @param body the request's body (not released here)
     */
    boolean forward(ChannelHandlerContext ctx, CallerTokens tokens, CharSequence authorization,
                    Iterator<Map.Entry<CharSequence, CharSequence>> headers, JsonCall call, String method, String uri,
                    ByteBuf body, Runnable timedOut) {
        Frame frame;
        long timeout;
        try {
            ForeignCallException refused = tokens.beforeCall(ctx, authorization);
            if (refused != null) {
                throw refused;
            }
            Map<String, String> attachments = JsonMetadata.attachments(headers);
            timeout = JsonMetadata.timeoutMillis(attachments);
            frame = toFrame(ctx, call, method, uri, body, attachments);
        } catch (ForeignCallException e) {
            call.response = error(e.status(), e.reason(), e.getMessage());
            return false;
        } catch (RuntimeException e) { // the arguments cannot be written in the server's serializer
            call.response = error(StatusTable.SERVER_ERROR.status(), null, String.valueOf(e.getMessage()));
            return false;
        }
        if (timeout > 0 && call.streamMessages == null) {
            call.deadline = ctx.executor().schedule(() -> {
                call.deadline = null;
                if (call.response == null) {
                    call.response = error(StatusTable.SERVER_TIMEOUT.status(), null, "deadline of " + timeout
                            + " ms exceeded");
                    ctx.fireChannelRead(RequestFrames.cancel(call.id, true));
                    timedOut.run();
                }
            }, timeout, TimeUnit.MILLISECONDS);
        }
        ctx.fireChannelRead(frame);
        if (call.streamMessages != null) {
            ctx.fireChannelRead(RequestFrames.credit(ctx.alloc(), call.id, JsonCall.STREAM_WINDOW));
        }
        return true;
    }

    private Frame toFrame(ChannelHandlerContext ctx, JsonCall call, String method, String uri, ByteBuf content,
                          Map<String, String> attachments) {
        if (!"POST".equals(method)) {
            throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), method + " " + uri
                    + " (expected: POST /{service}/{method} with a JSON array of the arguments)");
        }
        QueryStringDecoder decoded = new QueryStringDecoder(uri);
        String[] parts = decoded.path().split("/", -1);
        if (parts.length != 3 || !parts[0].isEmpty() || parts[1].isEmpty() || parts[2].isEmpty()) {
            throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), "path " + decoded.path()
                    + " (expected: /{service}/{method})");
        }
        JsonNode[] values = json.values(new ByteBufInputStream(content.duplicate()), !content.isReadable());
        CallTarget target = lookup.find(parts[1], parts[2], parameter(decoded, "group"),
                parameter(decoded, "version"), values.length);
        Object[] args = json.arguments(target.method(), values);
        if (StreamShape.of(target.method()) == StreamShape.SERVER) {
            call.streamMessages = StreamShape.messageType(target.method().getGenericReturnType());
            return frames.streamOpen(ctx.alloc(), call.id, target, args, attachments);
        }
        if (StreamShape.of(target.method()) != StreamShape.NONE) {
            throw new ForeignCallException(StatusTable.SERVICE_NOT_FOUND.status(), target.method().getName()
                    + " takes a stream: not callable over HTTP/JSON");
        }
        return frames.request(ctx.alloc(), call.id, target, args, attachments);
    }

    private static String parameter(QueryStringDecoder uri, String name) {
        List<String> values = uri.parameters().get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /**
     * A frame the provider writes to the connection, read for the JSON calls: a call's answer becomes its
     * {@link JsonCall#response}; a server stream's message a line (or event), its end the last line or the call's
     * error response. Releases {@code frame}.
     *
     * @param find the call waiting for an invoke id, or {@code null}
     * @return the call it concerns, updated; {@code null} if no call waits for it (a heartbeat, a call gone)
     */
    JsonCall answered(ChannelHandlerContext ctx, ByteBuf frame, ConnectionRefusals refusals,
                      LongFunction<? extends JsonCall> find) {
        byte code = ProtocolHeader.messageCode(frame.getByte(frame.readerIndex() + ProtocolHeader.SIGN_OFFSET));
        if (code == ProtocolHeader.STREAM_MESSAGE || code == ProtocolHeader.STREAM_END) {
            JsonCall call;
            try {
                call = streamFrame(frame, code, refusals, find);
            } finally {
                frame.release();
            }
            if (call != null && call.cancelAtProvider) { // out of the frame's reading: the provider may answer at once
                call.cancelAtProvider = false;
                ctx.fireChannelRead(RequestFrames.cancel(call.id, false));
            }
            return call;
        }
        Answer answer = Answer.take(frame, frames.serializer());
        // Taken whether or not the call still waits, so that no reason outlives its answer.
        RefusalReason reason = answer == null || answer.status() == Status.OK ? null : refusals.take(answer.id());
        JsonCall call = answer == null ? null : find.apply(answer.id());
        if (call == null || call.response != null) {
            return null; // no call waits for it, or its deadline answered it
        }
        call.cancelDeadline();
        call.response = answer.status() == Status.OK ? ok(answer.result())
                : error(answer.status(), reason, answer.errorMessage());
        return call;
    }

    /**
     * A server stream's message (a JSON line) or end. An error before the first line is the call's error response;
     * after it, a last line {@code {"status", "message"}} (or an {@code error} event).
     */
    private JsonCall streamFrame(ByteBuf frame, byte code, ConnectionRefusals refusals,
                                 LongFunction<? extends JsonCall> find) {
        int start = frame.readerIndex();
        long id = frame.getLong(start + ProtocolHeader.ID_OFFSET);
        Status status = Status.fromByte(frame.getByte(start + ProtocolHeader.STATUS_OFFSET));
        RefusalReason refused = code == ProtocolHeader.STREAM_END && status != Status.OK ? refusals.take(id) : null;
        JsonCall call = find.apply(id);
        if (call == null || call.streamMessages == null || call.ended) {
            return null;
        }
        ByteBuf body = frame.slice(start + ProtocolHeader.HEADER_SIZE, frame.readableBytes()
                - ProtocolHeader.HEADER_SIZE);
        String reason = null;
        if (code == ProtocolHeader.STREAM_MESSAGE) {
            try {
                byte[] value = json.result(frames.serializer().read(body, call.streamMessages));
                call.lines.add(call.events ? ServerSentEvents.message(value) : line(value));
                return call;
            } catch (Exception e) {
                status = StatusTable.SERVER_ERROR.status();
                reason = "a stream message could not be written as JSON: " + e.getMessage();
                call.cancelAtProvider = true;
            }
        } else if (status != Status.OK) {
            reason = body.toString(StandardCharsets.UTF_8);
        }
        call.ended = true;
        if (reason != null) {
            String message = reason.isEmpty() ? status.name() : reason;
            if (call.headSent || !call.lines.isEmpty()) {
                byte[] error = json.error(status, message);
                call.lines.add(call.events ? ServerSentEvents.error(error) : line(error));
            } else {
                call.response = error(status, refused, message);
            }
        } else if (call.events) {
            call.lines.add(ServerSentEvents.end());
        }
        return call;
    }

    private static byte[] line(byte[] json) {
        byte[] line = Arrays.copyOf(json, json.length + 1);
        line[json.length] = '\n';
        return line;
    }

    private JsonResponse ok(Object result) {
        try {
            return new JsonResponse(StatusCodes.http(Status.OK), json.result(result));
        } catch (Exception e) {
            return error(StatusTable.SERVER_ERROR.status(), null,
                    "the result cannot be written as JSON: " + e.getMessage());
        }
    }

    /**
     * The error response for {@code status}; {@code reason}, the caller's refusal the provider noted (or
     * {@code null}), chooses {@code 401} or {@code 403}.
     */
    JsonResponse error(Status status, RefusalReason reason, String message) {
        return new JsonResponse(StatusCodes.http(status, reason), json.error(status, message));
    }

    /** An error response with an HTTP status of its own ({@code 413}, {@code 415}). */
    JsonResponse error(Status status, String message, int httpStatus) {
        return new JsonResponse(httpStatus, json.error(status, message));
    }
}
