package io.jupiter.protocol.http;

import com.google.protobuf.Message;
import io.jupiter.common.LogText;
import io.jupiter.common.ThrottledWarning;
import io.jupiter.rpc.internal.DecodedRequest;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.protocol.RefusalReason;
import io.jupiter.transport.Frame;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.jupiter.transport.TransportConfig;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2FrameStreamException;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * gRPC unary calls over HTTP/2, one per connection, after Netty's {@code Http2FrameCodec}: each call's request
 * message, parsed, becomes a request frame that carries it already read ({@link DecodedRequest}; invoke id: the
 * HTTP/2 stream id) fired to the frame dispatcher, so the provider chain serves it as a 1.3.1 request of this
 * connection without reading a body; the answer it hands back ({@link #answerDecoded}) becomes the response message
 * and trailers. {@code grpc-timeout} travels as the deadline attachment, and answers
 * {@code DEADLINE_EXCEEDED} here when it passes first; custom ASCII metadata travels as attachments.
 *
 * <p>A server-streaming method opens a Jupiter stream instead (the open, then credit as messages reach the socket),
 * whose messages and end become the response messages and trailers. A client- or bidirectional-streaming method
 * opens its stream when the call's headers arrive; the client's messages go to it through {@link ClientMessages}, as
 * its reader asks for them. A client's {@code RST_STREAM}, or the deadline, sends the provider the cancel a Jupiter
 * consumer would. On a server with token authentication, the {@code authorization: Bearer} token of the
 * connection's first call goes to the provider first ({@link CallerTokens}). The health and reflection services
 * ({@link BuiltInService}) are answered here, message by message. A stream whose {@code content-type} is
 * {@code application/json} is an HTTP/JSON call ({@link Http2JsonCalls}); any other but gRPC's is answered {@code 415}.
 *
 * <p>Limits: a request message larger than the body cap resets the stream ({@code RESOURCE_EXHAUSTED}); at most
 * {@value #MAX_CONCURRENT_STREAMS} calls per connection at once (HTTP/2 setting), headers of at most
 * {@value #MAX_HEADER_LIST_SIZE} bytes, {@value GrpcMetadata#MAX_ATTACHMENTS} metadata entries.
 */
final class GrpcHandler extends ChannelDuplexHandler {

    static final int MAX_CONCURRENT_STREAMS = 100;
    static final int MAX_HEADER_LIST_SIZE = 8192;
    /**
     * The connection's HTTP/2 receive window, raised to this once the connection opens a client stream: streams whose
     * methods read slowly each hold their stream's window (64 KiB) unread, and sixteen of them may do so before the
     * connection's other calls wait.
     */
    static final int CONNECTION_WINDOW = 1 << 20;

    private static final Logger logger = LoggerFactory.getLogger(GrpcHandler.class);
    /** A peer can break the HTTP/2 protocol at will: one line a minute per peer host. */
    private static final ThrottledWarning protocolErrors = new ThrottledWarning(logger, 1, TimeUnit.MINUTES);
    private static final AsciiString GRPC = AsciiString.cached("application/grpc");
    private static final AsciiString GRPC_STATUS = AsciiString.cached("grpc-status");
    private static final AsciiString GRPC_MESSAGE = AsciiString.cached("grpc-message");
    private static final AsciiString GRPC_TIMEOUT = AsciiString.cached("grpc-timeout");
    private static final AsciiString GRPC_ENCODING = AsciiString.cached("grpc-encoding");
    private static final AsciiString GRPC_ACCEPT_ENCODING = AsciiString.cached("grpc-accept-encoding");
    private static final AsciiString CONTENT_TYPE = AsciiString.cached("content-type");
    private static final AsciiString AUTHORIZATION = AsciiString.cached("authorization");

    /** One call: its stream, the request bytes so far, its deadline timer. */
    private static final class Call {
        final Http2FrameStream stream;
        final Http2Headers headers;
        CompositeByteBuf data;
        int bytes;
        ScheduledFuture<?> deadline;
        /** The service answering the call here, or {@code null} for a call of the provider's. */
        BuiltInService builtIn;
        String builtInMethod;
        boolean headersSent;
        /** Whether its request frame went to the provider (so a cancel may still drop it there). */
        boolean forwarded;
        /** For a server stream: the class of its messages; {@code null} for a unary call. */
        Class<?> streamMessages;
        /** For a stream of answers: the credit the provider has for them, bounded in bytes; else {@code null}. */
        ServerStreamCredit credit;
        /** The provider's method it calls; {@code null} for a built-in service's. */
        CallTarget target;
        /** For a client or bidirectional stream: the client's messages on their way; else {@code null}. */
        ClientMessages inbound;
        /** How its request messages may be compressed ({@code grpc-encoding}). */
        MessageEncoding encoding = MessageEncoding.IDENTITY;

        Call(Http2FrameStream stream, Http2Headers headers) {
            this.stream = stream;
            this.headers = headers;
        }

        /** Frees the buffered bytes and the timer; returns how many bytes were buffered. */
        int release() {
            int freed = bytes;
            bytes = 0;
            if (data != null) {
                data.release();
                data = null;
            }
            if (inbound != null) {
                inbound.release();
            }
            if (deadline != null) {
                deadline.cancel(false);
            }
            return freed;
        }
    }

    private final MethodLookup lookup;
    private final RequestFrames frames;
    private final ProtobufMethods protobuf;
    private final Map<String, BuiltInService> builtIns;
    private final Http2FrameCodec codec;
    private final int maxMessageSize;
    /** Bytes of a server stream's messages held here, written, not yet on the socket ({@link ServerStreamCredit}). */
    private final long streamWindowBytes;
    private final Map<Integer, Call> calls = new HashMap<>();
    /** Unary answers written and waiting for the client's window, at most the transport's maxPendingWriteBytes. */
    private final OwedAnswers owedAnswers;
    private final CallerTokens tokens;
    private final ConnectionRefusals refusals;
    /** The connection's HTTP/JSON calls (streams whose content type is JSON). */
    private final Http2JsonCalls json;
    /**
     * Request bytes buffered over the gRPC calls of the connection; with its JSON calls', at most the body cap, as
     * the frame decoder's.
     */
    private long buffered;
    private boolean connectionWindowRaised;
    /** This handler's context, for the provider's answers to unary calls ({@link #answerDecoded}). */
    private ChannelHandlerContext ctx;
    /** Where the provider's answers to this connection's unary calls (sent already read) go. */
    private final DecodedRequest.Answers answers = this::answerDecoded;

    private GrpcHandler(MethodLookup lookup, RequestFrames frames, ProtobufMethods protobuf,
                        Map<String, BuiltInService> builtIns, Http2FrameCodec codec, int maxMessageSize,
                        long streamWindowBytes, CallerTokens tokens, ConnectionRefusals refusals,
                        Http2JsonCalls json, OwedAnswers owedAnswers) {
        this.streamWindowBytes = streamWindowBytes;
        this.owedAnswers = owedAnswers;
        this.json = json;
        this.tokens = tokens;
        this.refusals = refusals;
        this.lookup = lookup;
        this.frames = frames;
        this.protobuf = protobuf;
        this.builtIns = builtIns;
        this.codec = codec;
        this.maxMessageSize = maxMessageSize;
    }

    /**
     * Installs the HTTP/2 codec and a gRPC handler before {@code beforeName}.
     *
     * @param builtIns the services answered here (health, reflection), by gRPC service name
     * @param refusals why the provider refused this connection's calls, as it notes it
     * @param jsonCalls the HTTP/JSON calls over HTTP/2 ({@link Http2JsonCalls})
     * @param streamWindowBytes bytes of a server stream's messages held here, written and not yet on the socket,
     *                          beyond which the provider gets no more credit ({@link ServerStreamCredit})
     */
    static void install(ChannelPipeline pipeline, String beforeName, TransportConfig config, MethodLookup lookup,
                        RequestFrames frames, ProtobufMethods protobuf, Map<String, BuiltInService> builtIns,
                        ConnectionRefusals refusals, JsonExchange jsonCalls, long streamWindowBytes) {
        Http2Settings settings = Http2Settings.defaultSettings()
                .maxConcurrentStreams(MAX_CONCURRENT_STREAMS)
                .maxHeaderListSize(MAX_HEADER_LIST_SIZE);
        Http2FrameCodec codec = Http2FrameCodecBuilder.forServer()
                .initialSettings(settings).validateHeaders(true).build();
        pipeline.addBefore(beforeName, "h2-codec", codec);
        // The provider flushes each frame it writes; the codec writes out what its flow controller queued on each
        // flush, so one flush per batch lets a stream's messages of that batch leave as one DATA frame.
        pipeline.addBefore(beforeName, "h2-flush", new FlushConsolidationHandler(
                FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
        pipeline.addBefore(beforeName, "h2-pings", new PingFloodGuard(codec.connection()));
        CallerTokens tokens = new CallerTokens(config);
        pipeline.addBefore(beforeName, "grpc", new GrpcHandler(lookup, frames, protobuf, builtIns, codec,
                config.maxBodySize(), streamWindowBytes, tokens, refusals,
                new Http2JsonCalls(jsonCalls, tokens, refusals, config.maxBodySize()),
                new OwedAnswers(config.maxPendingWriteBytes())));
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        refusals.watch();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof Http2HeadersFrame headers) {
                onHeaders(ctx, headers);
            } else if (msg instanceof Http2DataFrame data) {
                onData(ctx, data);
            } else if (msg instanceof Http2ResetFrame reset) {
                Call call = calls.remove(reset.stream().id());
                if (call != null) {
                    buffered -= call.release();
                    cancelAtProvider(ctx, call);
                } else {
                    json.onReset(ctx, reset.stream().id());
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void onHeaders(ChannelHandlerContext ctx, Http2HeadersFrame frame) {
        int id = frame.stream().id();
        Call call = calls.get(id);
        if (call == null && json.onHeaders(ctx, frame, buffered)) {
            return;
        }
        if (call == null) {
            Http2Headers headers = frame.headers();
            call = new Call(frame.stream(), headers);
            calls.put(id, call);
            CharSequence type = headers.get(CONTENT_TYPE);
            if (!"POST".contentEquals(headers.method() == null ? "" : headers.method())
                    || type == null || !AsciiString.of(type).startsWith(GRPC)) {
                calls.remove(id);
                json.unsupported(ctx, frame.stream(), headers);
                return;
            }
            try {
                call.encoding = MessageEncoding.of(headers.get(GRPC_ENCODING));
            } catch (ForeignCallException e) {
                fail(ctx, call, e.status(), e.grpcCode(), e.getMessage());
                return;
            }
            if (!routeToBuiltIn(ctx, call) || call.builtIn == null && !place(ctx, call)) {
                return;
            }
        }
        if (frame.isEndStream()) {
            end(ctx, call);
        }
    }

    /**
     * Marks {@code call} as one of a built-in service's when its path names one; returns {@code false} if it names
     * a method that service lacks (the call is then ended {@code UNIMPLEMENTED}).
     */
    private boolean routeToBuiltIn(ChannelHandlerContext ctx, Call call) {
        String path = String.valueOf(call.headers.path());
        int slash = path.lastIndexOf('/');
        BuiltInService builtIn = slash > 1 ? builtIns.get(path.substring(1, slash)) : null;
        if (builtIn == null) {
            return true;
        }
        String method = path.substring(slash + 1);
        if (!builtIn.serves(method)) {
            fail(ctx, call, StatusTable.SERVICE_NOT_FOUND.status(), StatusCodes.grpc(
                    StatusTable.SERVICE_NOT_FOUND.status()), "no method " + method + " in " + builtIn.name());
            return false;
        }
        ForeignCallException refused = builtIn.needsCaller()
                ? tokens.beforeOwnCall(ctx, call.headers.get(AUTHORIZATION), refusals) : null;
        if (refused != null) {
            fail(ctx, call, refused.status(), refused.grpcCode(), refused.getMessage());
            return false;
        }
        call.builtIn = builtIn;
        call.builtInMethod = method;
        return true;
    }

    /**
     * The client half-closed {@code call}: a provider's call is made (a client stream's end follows its messages),
     * a built-in one ends {@code OK}.
     */
    private void end(ChannelHandlerContext ctx, Call call) {
        if (call.inbound != null) {
            onMessages(ctx, call, in -> in.received(ctx, Unpooled.EMPTY_BUFFER, 0, true));
        } else if (call.builtIn == null) {
            call(ctx, call);
        } else {
            endOk(ctx, call);
        }
    }

    /** Ends {@code call} {@code OK}, after the messages written so far. */
    private void endOk(ChannelHandlerContext ctx, Call call) {
        calls.remove(call.stream.id());
        buffered -= call.release();
        sendHeadersOnce(ctx, call);
        ctx.write(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().setInt(GRPC_STATUS, 0), true)
                .stream(call.stream));
        ctx.flush();
    }

    private static void sendHeadersOnce(ChannelHandlerContext ctx, Call call) {
        if (!call.headersSent) {
            call.headersSent = true;
            ctx.write(new DefaultHttp2HeadersFrame(responseHeaders()).stream(call.stream));
        }
    }

    /**
     * Answers each complete request message buffered for a built-in {@code call}; returns {@code false} if the call
     * failed. A client that does not read the answers (its stream's window is full) has its call ended
     * {@code RESOURCE_EXHAUSTED} rather than answers queued without bound.
     */
    private boolean answerBuiltIn(ChannelHandlerContext ctx, Call call) {
        CompositeByteBuf data = call.data;
        int consumed = 0;
        while (data.readableBytes() >= 5) {
            int start = data.readerIndex();
            long length = GrpcMessages.length(data, start);
            if (data.readableBytes() - 5 < length) {
                break;
            }
            if (!codec.encoder().flowController().isWritable(codec.connection().stream(call.stream.id()))) {
                fail(ctx, call, StatusTable.SLOW_CONSUMER.status(), StatusCodes.grpc(StatusTable.SLOW_CONSUMER
                        .status()), "the client does not read the answers");
                return false;
            }
            byte[] response;
            try {
                byte[] request = ByteBufUtil.getBytes(call.encoding.payload(data, start, (int) length,
                        maxMessageSize));
                data.skipBytes(5 + (int) length);
                consumed += 5 + (int) length;
                response = call.builtIn.answer(call.builtInMethod, request);
            } catch (ForeignCallException e) {
                fail(ctx, call, e.status(), e.grpcCode(), e.getMessage());
                return false;
            }
            sendHeadersOnce(ctx, call);
            ctx.write(new DefaultHttp2DataFrame(GrpcMessages.frame(ctx.alloc(), response)).stream(call.stream));
        }
        data.discardReadComponents();
        call.bytes -= consumed;
        buffered -= consumed;
        return true;
    }

    private static Http2Headers responseHeaders() {
        return new DefaultHttp2Headers().status(HttpResponseStatus.OK.codeAsText()).set(CONTENT_TYPE, GRPC)
                .set(GRPC_ACCEPT_ENCODING, MessageEncoding.ACCEPTED);
    }

    private void onData(ChannelHandlerContext ctx, Http2DataFrame frame) {
        if (json.onData(ctx, frame, buffered)) {
            return;
        }
        Call call = calls.get(frame.stream().id());
        int bytes = frame.initialFlowControlledBytes();
        if (call != null && call.inbound != null) {
            onStreamData(ctx, call, frame, bytes);
            return;
        }
        if (bytes > 0) {
            ctx.write(new DefaultHttp2WindowUpdateFrame(bytes).stream(frame.stream()));
        }
        if (call == null) {
            return;
        }
        if (call.data == null) {
            call.data = ctx.alloc().compositeBuffer();
        }
        int incoming = frame.content().readableBytes();
        if (call.bytes + incoming > maxMessageSize + 5) {
            fail(ctx, call, StatusTable.BAD_REQUEST.status(),
                    8, "request message over the " + maxMessageSize + "-byte cap");
            return;
        }
        if (buffered + json.buffered() + incoming > maxMessageSize + 5) {
            fail(ctx, call, StatusTable.BAD_REQUEST.status(), 8, "the connection's calls buffer more than the "
                    + maxMessageSize + "-byte cap at once");
            return;
        }
        buffered += incoming;
        call.bytes += incoming;
        call.data.addComponent(true, frame.content().retain());
        if (call.builtIn != null && !answerBuiltIn(ctx, call)) {
            return;
        }
        if (frame.isEndStream()) {
            end(ctx, call);
        } else {
            ctx.flush();
        }
    }

    /**
     * A DATA frame of a client stream: its window goes back as its messages go to the method ({@link ClientMessages}),
     * within the same cap on the bytes the connection's calls buffer as a unary call's.
     */
    private void onStreamData(ChannelHandlerContext ctx, Call call, Http2DataFrame frame, int bytes) {
        if (buffered + json.buffered() + frame.content().readableBytes() > maxMessageSize + 5) {
            onMessages(ctx, call, in -> {
                in.received(ctx, Unpooled.EMPTY_BUFFER, bytes, false);
                throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), 8, "the connection's calls buffer"
                        + " more than the " + maxMessageSize + "-byte cap at once");
            });
            return;
        }
        onMessages(ctx, call, in -> in.received(ctx, frame.content(), bytes, frame.isEndStream()));
    }

    /**
     * Runs {@code step} on a client stream's messages, keeping the connection's count of buffered bytes; a step that
     * refuses the client's messages ends the call with its status and cancels the stream at the provider.
     */
    private void onMessages(ChannelHandlerContext ctx, Call call, Consumer<ClientMessages> step) {
        ForeignCallException refused = null;
        try {
            step.accept(call.inbound);
        } catch (ForeignCallException e) {
            refused = e;
            call.inbound.stopped(ctx);
        }
        int held = call.inbound.held();
        buffered += held - call.bytes;
        call.bytes = held;
        if (refused != null && calls.get(call.stream.id()) == call) {
            fail(ctx, call, refused.status(), refused.grpcCode(), refused.getMessage());
            cancelAtProvider(ctx, call);
        }
    }

    /**
     * Finds the provider's method {@code call} names (before any of its messages is read); a client or
     * bidirectional stream opens at once, with no argument (its messages follow), and credit for the answers.
     * Returns {@code false} if the call was refused.
     */
    private boolean place(ChannelHandlerContext ctx, Call call) {
        try {
            call.target = target(call);
            Method method = call.target.method();
            var parser = protobuf.parameterParser(method);
            if (ProtobufMethods.serverStreaming(method) || ProtobufMethods.clientStreaming(method)) {
                call.streamMessages = ProtobufMethods.responseType(method);
            }
            if (!ProtobufMethods.clientStreaming(method)) {
                return true;
            }
            presentToken(ctx, call);
            Frame open = frames.streamOpen(ctx.alloc(), call.stream.id(), call.target, new Object[0],
                    GrpcMetadata.attachments(call.headers));
            raiseConnectionWindow(ctx);
            call.inbound = new ClientMessages(call.stream.id(), call.stream, parser, call.encoding, frames,
                    maxMessageSize);
            armDeadline(ctx, call);
            call.forwarded = true;
            ctx.fireChannelRead(open);
            if (ProtobufMethods.serverStreaming(method)) {
                call.credit = new ServerStreamCredit(streamWindowBytes);
                giveCredit(ctx, call, call.credit.first());
            } else {
                giveCredit(ctx, call, 1); // its one answer
            }
            return true;
        } catch (ForeignCallException e) {
            fail(ctx, call, e.status(), e.grpcCode(), e.getMessage());
        } catch (RuntimeException e) { // the open cannot be written in the server's serializer
            fail(ctx, call, StatusTable.SERVER_ERROR.status(), StatusCodes.grpc(StatusTable.SERVER_ERROR.status()),
                    e.getMessage());
        }
        return false;
    }

    private void raiseConnectionWindow(ChannelHandlerContext ctx) {
        if (!connectionWindowRaised) {
            connectionWindowRaised = true;
            ctx.write(new DefaultHttp2WindowUpdateFrame(CONNECTION_WINDOW - Http2CodecUtil.DEFAULT_WINDOW_SIZE));
        }
    }

    private void call(ChannelHandlerContext ctx, Call call) {
        Frame request;
        try {
            presentToken(ctx, call);
            request = toFrame(ctx, call);
        } catch (ForeignCallException e) {
            fail(ctx, call, e.status(), e.grpcCode(), e.getMessage());
            return;
        } catch (RuntimeException e) { // the arguments cannot be written in the server's serializer
            fail(ctx, call, StatusTable.SERVER_ERROR.status(),
                    StatusCodes.grpc(StatusTable.SERVER_ERROR.status()), e.getMessage());
            return;
        } finally {
            buffered -= call.release(); // the request is read (or refused): its bytes are free
        }
        armDeadline(ctx, call);
        ctx.flush();
        call.forwarded = true;
        ctx.fireChannelRead(request);
        if (call.streamMessages != null) {
            call.credit = new ServerStreamCredit(streamWindowBytes);
            giveCredit(ctx, call, call.credit.first());
        }
    }

    /** Ends {@code call} {@code DEADLINE_EXCEEDED} when its {@code grpc-timeout} passes, and cancels it there. */
    private void armDeadline(ChannelHandlerContext ctx, Call call) {
        long timeout = GrpcTimeout.millis(call.headers.get(GRPC_TIMEOUT));
        if (timeout > 0) {
            call.deadline = ctx.executor().schedule(() -> {
                if (calls.get(call.stream.id()) == call) {
                    fail(ctx, call, StatusTable.SERVER_TIMEOUT.status(), StatusCodes.GRPC_DEADLINE_EXCEEDED,
                            "deadline of " + timeout + " ms exceeded");
                    cancelAtProvider(ctx, call);
                }
            }, timeout, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Lets the provider send {@code messages} more of a server stream (the credit a Jupiter consumer gives); none
     * for 0.
     */
    private static void giveCredit(ChannelHandlerContext ctx, Call call, int messages) {
        if (messages > 0) {
            ctx.fireChannelRead(RequestFrames.credit(ctx.alloc(), call.stream.id(), messages));
        }
    }

    /**
     * Tells the provider that nobody waits for {@code call} any more (the client reset its stream, or its deadline
     * passed): the cancel a Jupiter consumer sends ({@link ProtocolHeader#STREAM_CANCEL} with status
     * {@link ProtocolHeader#CALL_CANCEL} and the invoke id), so a call still queued for a thread is dropped there
     * unanswered. A call already running runs to its end; its answer finds no call here and is dropped. A server
     * stream gets the stream's cancel (status 0), which ends it at the provider (its producer's send throws).
     */
    private static void cancelAtProvider(ChannelHandlerContext ctx, Call call) {
        if (call.forwarded) {
            call.forwarded = false;
            ctx.fireChannelRead(RequestFrames.cancel(call.stream.id(), call.streamMessages == null));
        }
    }

    /** The call's caller token before its first frame goes to the provider ({@link CallerTokens}). */
    private void presentToken(ChannelHandlerContext ctx, Call call) {
        ForeignCallException refused = tokens.beforeCall(ctx, call.headers.get(AUTHORIZATION));
        if (refused != null) {
            throw refused;
        }
    }

    private CallTarget target(Call call) {
        String path = String.valueOf(call.headers.path());
        int slash = path.lastIndexOf('/');
        if (!path.startsWith("/") || slash <= 1 || slash == path.length() - 1) {
            throw new ForeignCallException(StatusTable.SERVICE_NOT_FOUND.status(), "path " + path
                    + " (expected: /{service}/{method})");
        }
        return lookup.find(path.substring(1, slash), path.substring(slash + 1), null, null, 1);
    }

    private Frame toFrame(ChannelHandlerContext ctx, Call call) {
        CallTarget target = call.target;
        var parser = protobuf.parameterParser(target.method());
        Object[] args = {GrpcMessages.single(parser, call.data, call.encoding, maxMessageSize)};
        Map<String, String> attachments = GrpcMetadata.attachments(call.headers);
        return call.streamMessages == null
                ? frames.decoded(call.stream.id(), target, args, attachments, call.bytes, answers)
                : frames.streamOpen(ctx.alloc(), call.stream.id(), target, args, attachments);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof ByteBuf frame)) {
            ctx.write(msg, promise);
            return;
        }
        if (json.write(ctx, frame, promise)) {
            return;
        }
        byte code = ProtocolHeader.messageCode(frame.getByte(frame.readerIndex() + ProtocolHeader.SIGN_OFFSET));
        if (code == ProtocolHeader.STREAM_MESSAGE || code == ProtocolHeader.STREAM_END) {
            writeStreamFrame(ctx, frame, code, promise);
            return;
        }
        if (code == ProtocolHeader.STREAM_CREDIT || code == ProtocolHeader.STREAM_CANCEL) {
            clientMessagesFlow(ctx, frame, code, promise);
            return;
        }
        answered(ctx, Answer.take(frame, frames.serializer()), promise);
    }

    /**
     * The provider's answer to a unary call it got already read ({@link DecodedRequest}), from any thread: written
     * on the connection's IO thread as a response frame's would be; then the connection closes if the provider says
     * so (as its {@code writeAndClose} of a response frame would). Dropped once the connection's IO thread is gone.
     */
    private void answerDecoded(long id, Status status, Object result, boolean close) {
        ChannelHandlerContext context = ctx;
        Runnable write = () -> {
            answered(context, new Answer(id, status, result), context.voidPromise());
            if (close) {
                context.channel().close();
            }
        };
        if (context.executor().inEventLoop()) {
            write.run();
        } else {
            try {
                context.executor().execute(write);
            } catch (RejectedExecutionException e) {
                // the event loop stopped: the connection is closed, nobody waits for the answer (it holds no buffer)
            }
        }
    }

    /** Writes the provider's answer to its call as the response message and trailers; {@code null}: no call's. */
    private void answered(ChannelHandlerContext ctx, Answer answer, ChannelPromise promise) {
        // Taken whether or not the call still waits, so that no reason outlives its answer.
        RefusalReason reason = answer == null || answer.status() == Status.OK ? null : refusals.take(answer.id());
        Call call = answer == null || answer.id() > Integer.MAX_VALUE ? null : calls.get((int) answer.id());
        if (call == null) {
            promise.trySuccess(); // a heartbeat, or a call reset or timed out meanwhile
            return;
        }
        if (answer.status() != Status.OK) {
            String message = answer.errorMessage();
            fail(ctx, call, answer.status(), StatusCodes.grpc(answer.status(), reason), message);
            promise.trySuccess();
            return;
        }
        if (!(answer.result() instanceof Message message)) {
            fail(ctx, call, StatusTable.SERVER_ERROR.status(), 13, "the result is not a protobuf message");
            promise.trySuccess();
            return;
        }
        int size = message.getSerializedSize();
        if (size > maxMessageSize) { // the body cap the provider applied to a response frame's body
            Answer tooLarge = new Answer(answer.id(), StatusTable.SERVER_ERROR.status(), new IllegalStateException(
                    "the result is " + size + " bytes, above the " + maxMessageSize + "-byte body cap"));
            fail(ctx, call, tooLarge.status(), StatusCodes.grpc(tooLarge.status()), tooLarge.errorMessage());
            promise.trySuccess();
            return;
        }
        calls.remove(call.stream.id());
        buffered -= call.release();
        if (!owedAnswers.take(ctx, size)) {
            promise.trySuccess(); // the connection closes: its peer does not read what it asked for
            return;
        }
        ctx.write(new DefaultHttp2HeadersFrame(responseHeaders()).stream(call.stream));
        owedAnswers.settle(ctx.write(new DefaultHttp2DataFrame(GrpcMessages.frame(ctx.alloc(), message))
                .stream(call.stream)), size);
        ctx.write(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().setInt(GRPC_STATUS, 0), true)
                .stream(call.stream), promise);
        ctx.flush();
    }

    /**
     * A server stream's message or end, from the provider: a message becomes a response message, written against
     * the client's HTTP/2 window; the provider gets credit back as the bytes written and not yet on the socket leave
     * room for more ({@link ServerStreamCredit}). The end becomes the trailers, with its status.
     */
    private void writeStreamFrame(ChannelHandlerContext ctx, ByteBuf frame, byte code, ChannelPromise promise) {
        Call call;
        Status status;
        Object value = null;
        String reason = null;
        RefusalReason refused = null;
        try {
            int start = frame.readerIndex();
            long id = frame.getLong(start + ProtocolHeader.ID_OFFSET);
            status = Status.fromByte(frame.getByte(start + ProtocolHeader.STATUS_OFFSET));
            if (code == ProtocolHeader.STREAM_END && status != Status.OK) {
                refused = refusals.take(id); // whether or not the call still waits
            }
            call = id > Integer.MAX_VALUE ? null : calls.get((int) id);
            if (call == null || call.streamMessages == null) {
                promise.trySuccess(); // a stream reset or timed out meanwhile
                return;
            }
            ByteBuf body = frame.slice(start + ProtocolHeader.HEADER_SIZE,
                    frame.readableBytes() - ProtocolHeader.HEADER_SIZE);
            if (code == ProtocolHeader.STREAM_END) {
                reason = body.toString(StandardCharsets.UTF_8);
            } else {
                try {
                    value = frames.serializer().read(body, call.streamMessages);
                } catch (RuntimeException e) {
                    status = StatusTable.SERVER_ERROR.status();
                    reason = "a stream message could not be read: " + e.getMessage();
                }
            }
        } finally {
            frame.release();
        }
        promise.trySuccess();
        if (code == ProtocolHeader.STREAM_END && status == Status.OK) {
            endOk(ctx, call);
        } else if (reason != null) {
            String message = reason.isEmpty() ? status.name() : reason;
            fail(ctx, call, status, StatusCodes.grpc(status, refused), message);
            if (code == ProtocolHeader.STREAM_MESSAGE) {
                cancelAtProvider(ctx, call);
            }
        } else if (value instanceof Message message) {
            sendHeadersOnce(ctx, call);
            ByteBuf out = GrpcMessages.frame(ctx.alloc(), message);
            int bytes = out.readableBytes();
            // Not flushed here: the provider's write flushes (Connection.write).
            ChannelFuture written = ctx.write(new DefaultHttp2DataFrame(out).stream(call.stream));
            ServerStreamCredit credit = call.credit;
            if (credit != null) {
                giveCredit(ctx, call, credit.written(bytes));
                written.addListener(done -> {
                    int more = credit.sent(bytes);
                    if (calls.get(call.stream.id()) == call) {
                        giveCredit(ctx, call, more);
                    }
                });
            }
        } else {
            fail(ctx, call, StatusTable.SERVER_ERROR.status(), StatusCodes.grpc(StatusTable.SERVER_ERROR.status()),
                    "a stream message is not a protobuf message");
            cancelAtProvider(ctx, call);
        }
    }

    /**
     * The provider's credit for a client stream's messages (its method's reader asks for more), or its cancel of them
     * (the method reads no more; the stream goes on and answers).
     */
    private void clientMessagesFlow(ChannelHandlerContext ctx, ByteBuf frame, byte code, ChannelPromise promise) {
        long id;
        int messages;
        try {
            int start = frame.readerIndex();
            id = frame.getLong(start + ProtocolHeader.ID_OFFSET);
            messages = code == ProtocolHeader.STREAM_CREDIT && frame.readableBytes() >= ProtocolHeader.HEADER_SIZE + 4
                    ? frame.getInt(start + ProtocolHeader.HEADER_SIZE) : 0;
        } finally {
            frame.release();
        }
        promise.trySuccess();
        Call call = id > Integer.MAX_VALUE ? null : calls.get((int) id);
        if (call == null || call.inbound == null) {
            return; // ended meanwhile
        }
        if (code == ProtocolHeader.STREAM_CANCEL) {
            onMessages(ctx, call, in -> in.stopped(ctx));
        } else if (messages > 0) {
            onMessages(ctx, call, in -> in.credit(ctx, messages));
        }
    }

    /** Ends {@code call} with a trailers-only response carrying {@code grpcCode}. */
    private void fail(ChannelHandlerContext ctx, Call call, Status status, int grpcCode, String message) {
        calls.remove(call.stream.id());
        buffered -= call.release();
        Http2Headers trailers = call.headersSent ? new DefaultHttp2Headers() : responseHeaders();
        trailers.setInt(GRPC_STATUS, grpcCode)
                .set(GRPC_MESSAGE, GrpcMetadata.percentEncode(status.name() + ": " + message));
        ctx.write(new DefaultHttp2HeadersFrame(trailers, true).stream(call.stream));
        if (grpcCode == 8 && (status == StatusTable.BAD_REQUEST.status()
                || status == StatusTable.SLOW_CONSUMER.status())) { // the reset frees what the stream queued
            ctx.write(new DefaultHttp2ResetFrame(Http2Error.CANCEL).stream(call.stream));
        }
        ctx.flush();
    }

    /**
     * A stream error Netty's codec raised (a client that sent beyond its stream's HTTP/2 window, say): that call
     * ends {@code RESOURCE_EXHAUSTED} and its stream is reset; the connection serves on. A connection error the
     * peer caused (a window past 2^31-1, a frame out of place) is the codec's to answer: it sends a {@code GOAWAY}
     * saying why and closes the connection; here it is one throttled line per peer, without a stack trace.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof Http2Exception error) {
            SocketAddress peer = ctx.channel().remoteAddress();
            protocolErrors.warnFor(peer instanceof InetSocketAddress inet ? inet.getAddress() : peer,
                    "{}: closing: HTTP/2 {}: {}",
                    ctx.channel().remoteAddress(), error.error(), LogText.of(error.getMessage()));
            return;
        }
        if (!(cause instanceof Http2FrameStreamException error)) {
            ctx.fireExceptionCaught(cause);
            return;
        }
        Call call = calls.get(error.stream().id());
        if (call != null) { // its trailers say why, then the reset
            fail(ctx, call, StatusTable.BAD_REQUEST.status(), 8, "HTTP/2 " + error.error() + ": "
                    + error.getMessage());
            cancelAtProvider(ctx, call);
        } else {
            json.onReset(ctx, error.stream().id());
            ctx.write(new DefaultHttp2ResetFrame(error.error()).stream(error.stream()));
            ctx.flush();
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        calls.values().forEach(Call::release);
        calls.clear();
        json.release();
        refusals.forget();
    }
}
