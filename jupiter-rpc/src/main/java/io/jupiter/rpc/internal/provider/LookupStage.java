package io.jupiter.rpc.internal.provider;

import io.jupiter.common.LogText;
import io.jupiter.common.ThrottledWarning;
import io.jupiter.rpc.internal.AdaptiveConcurrencyLimit;
import io.jupiter.rpc.security.Authorizer;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.serialization.ArgumentTypes;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.Status;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lookup stage, run by the serializer as soon as the envelope is read, before any argument: the service
 * ({@code SERVICE_NOT_FOUND}), the serializers it is pinned to ({@code BAD_REQUEST}), the method
 * ({@code SERVICE_UNEXPECTED_ERROR} with a {@code NoSuchMethodException}, as in 1.3.1), the {@link Authorizer}
 * ({@code BAD_REQUEST}), the method's own adaptive concurrency limit if it has one ({@code SERVER_BUSY};
 * {@link io.jupiter.rpc.AdaptiveConcurrency}). What it authorized is what runs: the {@link ReadStage} refuses a
 * body that names another service or method once read. A refusal is recorded on the request and answered by the
 * {@link ReadStage} once the body is released; a request refused here has no argument read.
 */
final class LookupStage {

    private static final Logger log = LoggerFactory.getLogger(LookupStage.class);
    /** Warnings a peer can trigger with every request it sends: at most one line a second per peer. */
    private static final ThrottledWarning refusals = new ThrottledWarning(log, 1, TimeUnit.SECONDS);

    private final ServiceRegistry services;
    /** {@code null}: every caller may call every method. */
    private final Authorizer authorizer;

    LookupStage(ServiceRegistry services, Authorizer authorizer) {
        this.services = services;
        this.authorizer = authorizer;
    }

    /** What the arguments may be, once the request may go on; {@code null} once its refusal is recorded. */
    ArgumentTypes envelopeRead(ProviderRequest request, ServiceMetadata metadata, String methodName) {
        if (metadata == null) {
            request.refuseLater(Status.BAD_REQUEST, "the request names no service", true);
            return null;
        }
        ServiceEntry service = services.find(metadata);
        if (service == null) {
            request.refuseLater(Status.SERVICE_NOT_FOUND, "service not found: " + metadata.directory(), false);
            return null;
        }
        if (!service.acceptsSerializer(request.serializerCode)) {
            SerializerType used = SerializerType.fromCode(request.serializerCode);
            request.refuseLater(Status.BAD_REQUEST, "service " + service.key() + " accepts only "
                    + service.pinnedSerializers() + " serializers, not " + (used == null ? "code "
                    + request.serializerCode : used.id()), false);
            return null;
        }
        ArgumentTypes types = service.argumentTypes(methodName);
        if (types == null) {
            request.refuseLater(Status.SERVICE_UNEXPECTED_ERROR, new NoSuchMethodException(
                    service.serviceInterface().getName() + "." + methodName), false);
            return null;
        }
        if (authorizer != null) {
            CallerIdentity caller = request.caller();
            if (!authorizer.permits(caller, service.key(), methodName)) {
                refusals.warnFor(request.peer(), "{}: request {} refused: caller {} may not call {}.{}",
                        request.connection.remoteAddress(), request.id, LogText.of(caller.toString()),
                        service.key(), LogText.of(methodName));
                request.refuseLater(Status.BAD_REQUEST, "caller " + caller + " is not authorized to call "
                        + service.key() + "." + methodName, false);
                return null;
            }
        }
        AdaptiveConcurrencyLimit limit = service.concurrencyLimit(methodName);
        if (limit != null && !request.methodPermit(limit)) {
            request.refuseLater(Status.SERVER_BUSY, "provider busy: " + limit.inFlight() + " calls of "
                    + service.serviceInterface().getSimpleName() + "." + methodName
                    + " in flight, at its adaptive concurrency limit of " + limit.limit(), false);
            return null;
        }
        request.service = service;
        request.authorizedMetadata = metadata;
        request.authorizedMethod = methodName;
        request.dispatch = service.dispatch(methodName);
        return types;
    }
}
