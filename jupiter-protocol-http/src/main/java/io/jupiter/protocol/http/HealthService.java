package io.jupiter.protocol.http;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.protocol.ServiceCatalog;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * gRPC's health service ({@code grpc.health.v1.Health}, method {@code Check}): {@code SERVING} for the server (the
 * empty service name) and for each service registered under the name asked; an unknown name fails
 * {@code NOT_FOUND}, as the health protocol says. {@code Watch} is not served ({@code UNIMPLEMENTED}).
 *
 * <p>Messages, written here with protobuf's wire codec: {@code HealthCheckRequest {string service = 1;}},
 * {@code HealthCheckResponse {ServingStatus status = 1;}} ({@code SERVING = 1}).
 */
final class HealthService implements BuiltInService {

    static final String NAME = "grpc.health.v1.Health";
    static final int SERVING = 1;
    /** gRPC's NOT_FOUND, which the health protocol prescribes for a service the server does not know. */
    static final int GRPC_NOT_FOUND = 5;

    private final ServiceCatalog catalog;

    HealthService(ServiceCatalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean serves(String method) {
        return "Check".equals(method);
    }

    @Override
    public byte[] answer(String method, byte[] request) {
        String service = requestedService(request);
        if (!service.isEmpty() && catalog.named(service).isEmpty()) {
            throw new ForeignCallException(StatusTable.SERVICE_NOT_FOUND.status(), GRPC_NOT_FOUND,
                    "no service " + service);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(4);
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        try {
            out.writeEnum(1, SERVING);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static String requestedService(byte[] request) {
        CodedInputStream in = CodedInputStream.newInstance(request);
        String service = "";
        try {
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                if (tag == ProtoTags.lengthDelimited(1)) {
                    service = in.readStringRequireUtf8();
                } else if (!in.skipField(tag)) {
                    break;
                }
            }
        } catch (InvalidProtocolBufferException e) {
            throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), "request message: " + e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return service;
    }
}
