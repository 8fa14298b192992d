package io.jupiter.protocol.http;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.InvalidProtocolBufferException;
import io.jupiter.rpc.internal.StatusTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * gRPC's server-reflection service, method {@code ServerReflectionInfo} (a bidirectional stream: one response per
 * request), as {@code grpc.reflection.v1alpha.ServerReflection} and {@code grpc.reflection.v1.ServerReflection}
 * (the same messages), over the {@link ServiceDescriptors} of the server: enough for grpcurl's {@code list} and
 * {@code describe}.
 *
 * <ul>
 *   <li>{@code list_services}: the services callable over gRPC (not this one, nor the health service);</li>
 *   <li>{@code file_containing_symbol}, {@code file_by_filename}: the file and every file it imports;</li>
 *   <li>{@code all_extension_numbers_of_type}: none, for a message type the services use;</li>
 *   <li>anything else: an {@code error_response} with gRPC's {@code NOT_FOUND}.</li>
 * </ul>
 *
 * <p>Messages, read and written here with protobuf's wire codec: {@code ServerReflectionRequest {string host = 1;
 * oneof {string file_by_filename = 3; string file_containing_symbol = 4; ExtensionRequest file_containing_extension
 * = 5; string all_extension_numbers_of_type = 6; string list_services = 7;}}} and {@code ServerReflectionResponse
 * {string valid_host = 1; ServerReflectionRequest original_request = 2; oneof {FileDescriptorResponse
 * file_descriptor_response = 4; ExtensionNumberResponse all_extension_numbers_response = 5; ListServiceResponse
 * list_services_response = 6; ErrorResponse error_response = 7;}}}.
 */
final class ReflectionService implements BuiltInService {

    static final String V1ALPHA = "grpc.reflection.v1alpha.ServerReflection";
    static final String V1 = "grpc.reflection.v1.ServerReflection";

    private static final int FILE_BY_FILENAME = 3;
    private static final int FILE_CONTAINING_SYMBOL = 4;
    private static final int FILE_CONTAINING_EXTENSION = 5;
    private static final int ALL_EXTENSION_NUMBERS_OF_TYPE = 6;
    private static final int LIST_SERVICES = 7;

    private final String name;
    private final ServiceDescriptors descriptors;

    ReflectionService(String name, ServiceDescriptors descriptors) {
        this.name = name;
        this.descriptors = descriptors;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean serves(String method) {
        return "ServerReflectionInfo".equals(method);
    }

    /** The names of the services are not for strangers: on a server with caller tokens, a token it accepted. */
    @Override
    public boolean needsCaller() {
        return true;
    }

    /** What a request asks: its host, which question (field number) and the question's text. */
    private record Question(String host, int kind, String text) {
    }

    @Override
    public byte[] answer(String method, byte[] request) {
        Question question = read(request);
        ByteString.Output bytes = ByteString.newOutput();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        try {
            if (!question.host().isEmpty()) {
                out.writeString(1, question.host());
            }
            out.writeByteArray(2, request);
            switch (question.kind()) {
                case LIST_SERVICES -> out.writeBytes(6, serviceList());
                case FILE_CONTAINING_SYMBOL -> files(out, descriptors.fileContaining(question.text()),
                        "symbol " + question.text());
                case FILE_BY_FILENAME -> files(out, descriptors.fileNamed(question.text()),
                        "file " + question.text());
                case ALL_EXTENSION_NUMBERS_OF_TYPE -> {
                    if (descriptors.isMessageType(question.text())) {
                        out.writeBytes(5, message(o -> o.writeString(1, question.text())));
                    } else {
                        error(out, "type " + question.text());
                    }
                }
                case FILE_CONTAINING_EXTENSION -> error(out, "extension");
                default -> error(out, "request");
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteString().toByteArray();
    }

    private ByteString serviceList() throws IOException {
        return message(o -> {
            for (String service : descriptors.serviceNames()) {
                o.writeBytes(1, message(s -> s.writeString(1, service)));
            }
        });
    }

    private static void files(CodedOutputStream out, List<FileDescriptorProto> files, String what)
            throws IOException {
        if (files.isEmpty()) {
            error(out, what);
            return;
        }
        out.writeBytes(4, message(o -> {
            for (FileDescriptorProto file : files) {
                o.writeBytes(1, file.toByteString());
            }
        }));
    }

    private static void error(CodedOutputStream out, String what) throws IOException {
        out.writeBytes(7, message(o -> {
            o.writeInt32(1, HealthService.GRPC_NOT_FOUND);
            o.writeString(2, what + " not found");
        }));
    }

    @FunctionalInterface
    private interface Fields {
        void write(CodedOutputStream out) throws IOException;
    }

    private static ByteString message(Fields fields) throws IOException {
        ByteString.Output bytes = ByteString.newOutput();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        fields.write(out);
        out.flush();
        return bytes.toByteString();
    }

    private static Question read(byte[] request) {
        CodedInputStream in = CodedInputStream.newInstance(request);
        String host = "";
        int kind = 0;
        String text = "";
        try {
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                int field = tag >>> 3;
                if (tag == ProtoTags.lengthDelimited(1)) {
                    host = in.readStringRequireUtf8();
                } else if (tag == ProtoTags.lengthDelimited(field) && field >= FILE_BY_FILENAME
                        && field <= LIST_SERVICES) {
                    kind = field;
                    text = field == FILE_CONTAINING_EXTENSION ? "" : in.readStringRequireUtf8();
                    if (field == FILE_CONTAINING_EXTENSION) {
                        in.skipField(tag);
                    }
                } else if (!in.skipField(tag)) {
                    break;
                }
            }
        } catch (InvalidProtocolBufferException e) {
            throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), "request message: " + e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Question(host, kind, text);
    }
}
