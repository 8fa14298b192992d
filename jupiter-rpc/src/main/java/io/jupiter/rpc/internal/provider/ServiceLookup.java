package io.jupiter.rpc.internal.provider;

import io.jupiter.common.LogText;
import io.jupiter.rpc.internal.AdaptiveConcurrencyLimit;
import io.jupiter.rpc.internal.RefusalLog;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.protocol.RefusalReason;
import io.jupiter.rpc.protocol.RefusalReasons;
import io.jupiter.rpc.security.Authorizer;
import io.jupiter.serialization.ArgumentTypes;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.wire.ServiceMetadata;

/**
 * The service lookup, part of the {@link ReadStage}: run by the serializer as soon as the envelope is read, before
 * any argument, for calls and stream opens alike. The service ({@code SERVICE_NOT_FOUND}), the serializers it is
 * pinned to ({@code BAD_REQUEST}), the method (a call: {@code SERVICE_UNEXPECTED_ERROR} with a
 * {@code NoSuchMethodException}, as in 1.3.1; a stream's open: {@code BAD_REQUEST} unless it names a stream method),
 * the {@link Authorizer} ({@code BAD_REQUEST}), a call's method's own adaptive concurrency limit if it has one
 * ({@code SERVER_BUSY}; {@link io.jupiter.rpc.AdaptiveConcurrency}). What it authorized is what runs: the
 * {@link ReadStage} refuses a body that names another service or method once read. A refusal is left on the
 * request as a {@link Refusal}, answered by the {@link ReadStage} once the body is released; a request refused here
 * has no argument read.
 */
final class ServiceLookup {

    private final ServiceRegistry services;
    /** {@code null}: every caller may call every method. */
    private final Authorizer authorizer;
    /** A peer can send a refused request at will: the server's refusal lines. */
    private final RefusalLog refusals;
    /** Where an unauthorized caller's refusal is noted as such, for other protocols. */
    private final RefusalReasons reasons;

    ServiceLookup(ServiceRegistry services, Authorizer authorizer, RefusalLog refusals, RefusalReasons reasons) {
        this.services = services;
        this.authorizer = authorizer;
        this.refusals = refusals;
        this.reasons = reasons;
    }

    /** What the arguments may be, once the request may go on; {@code null} once its refusal is left on it. */
    ArgumentTypes envelopeRead(ProviderRequest request, ServiceMetadata metadata, String methodName) {
        if (metadata == null) {
            request.refused(Refusal.closing(StatusTable.BAD_REQUEST.status(), "the " + request.what()
                    + " names no service"));
            return null;
        }
        ServiceEntry service = services.find(metadata);
        if (service == null) {
            request.refused(Refusal.of(StatusTable.SERVICE_NOT_FOUND.status(), "service not found: "
                    + metadata.directory()));
            return null;
        }
        if (!service.acceptsSerializer(request.serializerCode())) {
            SerializerType used = SerializerType.fromCode(request.serializerCode());
            request.refused(Refusal.of(StatusTable.BAD_REQUEST.status(), "service " + service.key() + " accepts only "
                    + service.pinnedSerializers() + " serializers, not " + (used == null ? "code "
                    + request.serializerCode() : used.id())));
            return null;
        }
        ArgumentTypes types = request.opensStream() ? service.openArgumentTypes(methodName)
                : service.argumentTypes(methodName);
        if (types == null) {
            request.refused(request.opensStream()
                    ? Refusal.of(StatusTable.BAD_REQUEST.status(), service.key() + "." + methodName
                            + " is not a stream method")
                    : Refusal.carrying(StatusTable.SERVICE_UNEXPECTED_ERROR.status(), new NoSuchMethodException(
                            service.serviceInterface().getName() + "." + methodName)));
            return null;
        }
        if (authorizer != null && !authorizer.permits(request.caller(), service.key(), methodName)) {
            refusals.refused(request.connection(), request.opensStream() ? RefusalLog.Cause.STREAM_NOT_AUTHORIZED
                    : RefusalLog.Cause.CALL_NOT_AUTHORIZED, "{}: {} refused: caller {} may not call {}.{}",
                    request.connection().remoteAddress(), request.opensStream() ? "stream" : "request " + request.id(),
                    LogText.of(request.caller().toString()), service.key(), LogText.of(methodName));
            reasons.refused(request.connection(), request.id(), RefusalReason.NOT_AUTHORIZED);
            request.refused(Refusal.of(StatusTable.BAD_REQUEST.status(), "caller " + request.caller()
                    + " is not authorized to call " + service.key() + "." + methodName));
            return null;
        }
        AdaptiveConcurrencyLimit limit = request.opensStream() ? null : service.concurrencyLimit(methodName);
        if (limit != null && !request.methodPermit(limit)) {
            request.refused(Refusal.of(StatusTable.SERVER_BUSY.status(), "provider busy: " + limit.inFlight()
                    + " calls of "
                    + service.serviceInterface().getSimpleName() + "." + methodName
                    + " in flight, at its adaptive concurrency limit of " + limit.limit()));
            return null;
        }
        request.service = service;
        request.authorizedMethod = methodName;
        request.dispatch = request.opensStream() ? null : service.dispatch(methodName);
        return types;
    }
}
