package io.jupiter.rpc.internal.provider;

import io.jupiter.common.LogText;
import io.jupiter.rpc.internal.DecodedRequest;
import io.jupiter.rpc.internal.RefusalLog;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.serialization.ArgumentTypes;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.Serializers;
import io.jupiter.serialization.wire.MessageWrapper;

/**
 * The read stage, for calls and stream opens alike: the serializer must be one this server accepts and the body
 * readable ({@code BAD_REQUEST} otherwise; a call's connection is closed unless the failure left the framing intact,
 * {@link ProviderFailures}). The serializer reads the envelope (service, method) first and tells the request, whose
 * service lookup runs before any argument is read ({@link Serializer#readRequest}; Java serialization and Kryo put
 * the arguments first, so with them it runs after). A lookup's refusal is answered here once the body is released.
 * A body that names its service or method again once looked up is refused ({@code BAD_REQUEST}, connection kept):
 * what was authorized is what runs. A call a protocol of this process read already ({@link #readDecoded}) goes
 * through the same lookup, without a body to read. Always releases a call's frame.
 */
final class ReadStage extends ProviderStage {


    private final AcceptedSerializers accepted;
    private final ServiceRegistry services;
    private final Responder responder;
    /** A peer can send a bad request at will: the server's refusal lines. */
    private final RefusalLog badRequests;

    ReadStage(AcceptedSerializers accepted, ServiceRegistry services, Responder responder, RefusalLog badRequests,
              ProviderStage next) {
        super(next);
        this.accepted = accepted;
        this.services = services;
        this.responder = responder;
        this.badRequests = badRequests;
    }

    @Override
    void serve(ProviderRequest request) {
        if (read(request)) {
            next.serve(request);
        }
    }

    /** Reads the request's message into it; {@code false} once it was refused (and answered). */
    private boolean read(ProviderRequest request) {
        MessageWrapper message;
        try {
            Serializer serializer = accepted.get(request.serializerCode());
            if (serializer == null) {
                refuseSerializer(request);
                return false;
            }
            request.serializer = serializer;
            DecodedRequest decoded = request.decoded();
            message = decoded != null ? readDecoded(request, decoded.message())
                    : serializer.readRequest(request.body(), request);
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
            boolean close = ProviderFailures.breaksConnection(e);
            // A stream's open never closes its connection (Responder.refuse): the line says so only for a call.
            badRequests.refused(request.connection(), RefusalLog.Cause.UNREADABLE, "{}{}: cannot read {} {}: {}",
                    close && !request.opensStream() ? "closing " : "",
                    request.connection().remoteAddress(), request.what(), request.id(), LogText.of(e.getMessage()));
            responder.refuse(request, new Refusal(ProviderFailures.statusOf(e, ProviderFailures.Where.READ, null),
                    "the provider cannot read the " + request.what() + ": " + e.getMessage(), null, close));
            return false;
        } finally {
            request.bodyDone();
        }
        Refusal refusal = request.refusal();
        if (refusal != null) {
            responder.refuse(request, refusal);
            return false;
        }
        if (message == null || request.service == null) {
            responder.refuse(request, Refusal.closing(StatusTable.BAD_REQUEST.status(), "the " + request.what()
                    + " names no service"));
            return false;
        }
        if (!request.authorizedMethod.equals(message.getMethodName())
                || services.find(message.getMetadata()) != request.service) {
            // What was looked up and authorized must be what runs: a serializer that let a later field rename the
            // service or method is refused here, whichever serializer it is.
            badRequests.refused(request.connection(), RefusalLog.Cause.ENVELOPE_CHANGED,
                    "{}: {} {} refused: its envelope changed after it was"
                    + " authorized ({}.{})", request.connection().remoteAddress(), request.what(), request.id(),
                    request.service.key(), LogText.of(request.authorizedMethod));
            responder.refuse(request, Refusal.of(StatusTable.BAD_REQUEST.status(), "the " + request.what()
                    + " names another"
                    + " service or method after the one it was authorized for (" + request.service.key() + "."
                    + request.authorizedMethod + ")"));
            return false;
        }
        request.message = message;
        return true;
    }

    /**
     * A call a protocol of this process read already ({@link io.jupiter.rpc.internal.DecodedRequest}): what
     * {@link Serializer#readRequest} does once the body is read, the same lookup and authorization
     * ({@link ProviderRequest#envelopeRead}) and the same check of the arguments against the method's declared
     * parameter types. The serializer's class allow-list and read limits have nothing to add: the arguments were not
     * read from bytes that name classes, but parsed by the protocol for the declared parameter type of the very
     * method it names (a gRPC unary call's protobuf message, bounded by the protocol's message size cap), and what
     * the lookup authorized is what runs (checked below as for a serializer's message).
     */
    private static MessageWrapper readDecoded(ProviderRequest request, MessageWrapper message) {
        ArgumentTypes types = request.envelopeRead(message.getAppName(), message.getMetadata(),
                message.getMethodName());
        if (types != null) {
            types.checkValues(message.getArgs());
        }
        return message;
    }

    private void refuseSerializer(ProviderRequest request) {
        Serializer known = Serializers.find(request.serializerCode());
        String why = known == null
                ? "the provider has no serializer with code " + request.serializerCode()
                : "the provider does not accept the " + known.type().id() + " serializer"
                        + " (enable it with JupiterServer.Builder.serializers)";
        badRequests.refused(request.connection(), RefusalLog.Cause.SERIALIZER_REFUSED,
                "{}{}: {} {} refused: {}", request.opensStream() ? "" : "closing ",
                request.connection().remoteAddress(), request.what(), request.id(), why);
        responder.refuse(request, Refusal.closing(StatusTable.BAD_REQUEST.status(), why));
    }
}
