package io.jupiter.rpc.internal.provider;

import io.jupiter.common.LogText;
import io.jupiter.common.ThrottledWarning;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.Frame;
import io.jupiter.transport.Status;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read stage: the serializer must be one this server accepts and the body readable ({@code BAD_REQUEST}
 * otherwise; the connection is closed unless the failure left the framing intact, {@link ProviderFailures}). The
 * serializer reads the envelope (service, method) first and runs the {@link LookupStage} before it reads any
 * argument ({@link Serializer#readRequest}; Java serialization and Kryo put the arguments first, so with them it runs
 * after). A body that names its service or method again once looked up is refused ({@code BAD_REQUEST},
 * connection kept): what was authorized is what runs. Always releases the frame.
 */
final class ReadStage {

    private static final Logger log = LoggerFactory.getLogger(ReadStage.class);
    /** Warnings a peer can trigger with every request it sends: at most one line a second per peer. */
    private static final ThrottledWarning badRequests = new ThrottledWarning(log, 1, TimeUnit.SECONDS);

    private final Serializer[] accepted = new Serializer[SerializerType.MAX_CODE + 1];
    private final ServiceRegistry services;
    private final RespondStage respond;

    ReadStage(Set<SerializerType> serializers, ServiceRegistry services, RespondStage respond) {
        for (SerializerType type : serializers) {
            accepted[type.code()] = Serializers.get(type);
        }
        this.services = services;
        this.respond = respond;
    }

    /** The serializer for a wire code if this server accepts it, else {@code null}. */
    Serializer acceptedSerializer(byte code) {
        return code >= 0 && code < accepted.length ? accepted[code] : null;
    }

    /** Reads the request's message into it; {@code false} once it was refused (and answered). */
    boolean read(ProviderRequest request) {
        Frame frame = request.frame;
        MessageWrapper message;
        try {
            Serializer serializer = acceptedSerializer(request.serializerCode);
            if (serializer == null) {
                refuseSerializer(request);
                return false;
            }
            request.serializer = serializer;
            message = serializer.readRequest(frame.body(), request);
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
            boolean close = ProviderFailures.breaksConnection(e);
            badRequests.warnFor(request.peer(), "{}{}: cannot read request {}: {}", close ? "closing " : "",
                    request.connection.remoteAddress(), request.id, LogText.of(e.getMessage()));
            respond.refuse(request, ProviderFailures.statusOf(e, ProviderFailures.Where.READ, null),
                    "the provider cannot read the request: " + e.getMessage(), close);
            return false;
        } finally {
            request.bodyDone();
        }
        if (request.refusedStatus != null) {
            if (request.refusedBecause instanceof Throwable) {
                respond.answerRefusal(request, request.refusedStatus, request.refusedBecause);
            } else {
                respond.refuse(request, request.refusedStatus, (String) request.refusedBecause,
                        request.refusedClose);
            }
            return false;
        }
        if (message == null || request.service == null) {
            respond.refuse(request, Status.BAD_REQUEST, "the request names no service", true);
            return false;
        }
        // The serializers hand the lookup the very objects they put in the message: a second look-up of the service
        // only when the message holds another one.
        ServiceMetadata read = message.getMetadata();
        if (!request.authorizedMethod.equals(message.getMethodName())
                || read != request.authorizedMetadata && services.find(read) != request.service) {
            // What was looked up and authorized must be what runs: a serializer that let a later field rename the
            // service or method is refused here, whichever serializer it is.
            badRequests.warnFor(request.peer(), "{}: request {} refused: its envelope changed after it was"
                    + " authorized ({}.{})", request.connection.remoteAddress(), request.id, request.service.key(),
                    LogText.of(request.authorizedMethod));
            respond.refuse(request, Status.BAD_REQUEST, "the request names another service or method after the one"
                    + " it was authorized for (" + request.service.key() + "." + request.authorizedMethod + ")",
                    false);
            return false;
        }
        request.message = message;
        return true;
    }

    private void refuseSerializer(ProviderRequest request) {
        Serializer known = Serializers.find(request.serializerCode);
        String why = known == null
                ? "the provider has no serializer with code " + request.serializerCode
                : "the provider does not accept the " + known.type().id() + " serializer"
                        + " (enable it with JupiterServer.Builder.serializers)";
        badRequests.warnFor(request.peer(), "closing {}: request {} refused: {}", request.connection.remoteAddress(),
                request.id, why);
        respond.refuse(request, Status.BAD_REQUEST, why, true);
    }
}
