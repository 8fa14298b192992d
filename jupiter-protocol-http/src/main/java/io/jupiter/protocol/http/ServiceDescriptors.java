package io.jupiter.protocol.http;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.jupiter.rpc.protocol.ServiceCatalog;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The protobuf descriptors of what a server serves over gRPC, for the reflection service. A Jupiter service is a Java
 * interface, not a compiled {@code .proto}, so its file is written here: one file per service named
 * {@code jupiter/{service name with / for .}.proto}, whose package and service spell the service's name, with one
 * rpc per gRPC-callable method (one protobuf message in, one out, or streams of them), importing the files
 * of those messages.
 *
 * <p>A service is described when its name is registered once (several groups or versions under one name are not
 * callable over gRPC) and it has at least one callable method; an overloaded name is left out, as gRPC cannot call
 * it. The catalog is read on each question, so services registered later appear at once.
 */
final class ServiceDescriptors {

    private final ServiceCatalog catalog;

    ServiceDescriptors(ServiceCatalog catalog) {
        this.catalog = catalog;
    }

    /** The services callable over gRPC, by name, sorted. */
    List<String> serviceNames() {
        return new ArrayList<>(services().keySet());
    }

    /**
     * The file defining {@code symbol} (a service, a service's method, a message or an enum, by full name) followed
     * by every file it imports, transitively; empty if no file of this server defines it.
     */
    List<FileDescriptorProto> fileContaining(String symbol) {
        Map<String, List<Method>> services = services();
        for (Map.Entry<String, List<Method>> service : services.entrySet()) {
            String name = service.getKey();
            if (symbol.equals(name) || (symbol.startsWith(name + ".")
                    && service.getValue().stream().anyMatch(m -> symbol.equals(name + "." + m.getName())))) {
                return withImports(name, service.getValue());
            }
        }
        for (FileDescriptor file : importedFiles(services)) {
            if (defines(file, symbol)) {
                return closure(file);
            }
        }
        return List.of();
    }

    /** The file named {@code fileName} and every file it imports, transitively; empty if unknown. */
    List<FileDescriptorProto> fileNamed(String fileName) {
        Map<String, List<Method>> services = services();
        for (Map.Entry<String, List<Method>> service : services.entrySet()) {
            if (fileName(service.getKey()).equals(fileName)) {
                return withImports(service.getKey(), service.getValue());
            }
        }
        for (FileDescriptor file : importedFiles(services)) {
            if (file.getName().equals(fileName)) {
                return closure(file);
            }
        }
        return List.of();
    }

    /** Whether {@code fullName} is a message type one of the described services uses (or a file they import has). */
    boolean isMessageType(String fullName) {
        for (FileDescriptor file : importedFiles(services())) {
            for (Descriptor message : file.getMessageTypes()) {
                if (hasMessage(message, fullName)) {
                    return true;
                }
            }
        }
        return false;
    }

    static String fileName(String serviceName) {
        return "jupiter/" + serviceName.replace('.', '/') + ".proto";
    }

    /** Service name → its gRPC-callable methods, for the names registered once with at least one such method. */
    private Map<String, List<Method>> services() {
        Map<String, List<ServiceCatalog.Entry>> byName = new TreeMap<>();
        for (ServiceCatalog.Entry entry : catalog.entries()) {
            byName.computeIfAbsent(entry.key().name(), n -> new ArrayList<>()).add(entry);
        }
        Map<String, List<Method>> services = new TreeMap<>();
        for (Map.Entry<String, List<ServiceCatalog.Entry>> named : byName.entrySet()) {
            if (named.getValue().size() != 1) {
                continue;
            }
            List<Method> methods = callableMethods(named.getValue().get(0).serviceInterface());
            if (!methods.isEmpty()) {
                services.put(named.getKey(), methods);
            }
        }
        return services;
    }

    private static List<Method> callableMethods(Class<?> serviceInterface) {
        Map<String, List<Method>> oneParameter = new TreeMap<>();
        for (Method m : serviceInterface.getMethods()) {
            if (!Modifier.isStatic(m.getModifiers()) && m.getParameterCount() == 1) {
                oneParameter.computeIfAbsent(m.getName(), n -> new ArrayList<>()).add(m);
            }
        }
        List<Method> callable = new ArrayList<>();
        for (List<Method> overloads : oneParameter.values()) {
            if (overloads.size() == 1 && ProtobufMethods.callable(overloads.get(0))) {
                callable.add(overloads.get(0));
            }
        }
        return callable;
    }

    private static List<FileDescriptorProto> withImports(String serviceName, List<Method> methods) {
        int dot = serviceName.lastIndexOf('.');
        ServiceDescriptorProto.Builder service = ServiceDescriptorProto.newBuilder()
                .setName(serviceName.substring(dot + 1));
        Set<FileDescriptor> imports = new LinkedHashSet<>();
        for (Method m : methods) {
            Descriptor in = descriptor(ProtobufMethods.requestType(m));
            Descriptor out = descriptor(ProtobufMethods.responseType(m));
            imports.add(in.getFile());
            imports.add(out.getFile());
            MethodDescriptorProto.Builder method = MethodDescriptorProto.newBuilder().setName(m.getName())
                    .setInputType("." + in.getFullName()).setOutputType("." + out.getFullName());
            if (ProtobufMethods.serverStreaming(m)) {
                method.setServerStreaming(true);
            }
            if (ProtobufMethods.clientStreaming(m)) {
                method.setClientStreaming(true);
            }
            service.addMethod(method);
        }
        FileDescriptorProto.Builder file = FileDescriptorProto.newBuilder().setName(fileName(serviceName))
                .setSyntax("proto3").addService(service);
        if (dot > 0) {
            file.setPackage(serviceName.substring(0, dot));
        }
        imports.forEach(i -> file.addDependency(i.getName()));
        List<FileDescriptorProto> files = new ArrayList<>();
        files.add(file.build());
        Map<String, FileDescriptorProto> seen = new LinkedHashMap<>();
        imports.forEach(i -> collect(i, seen));
        files.addAll(seen.values());
        return files;
    }

    private static List<FileDescriptorProto> closure(FileDescriptor file) {
        Map<String, FileDescriptorProto> seen = new LinkedHashMap<>();
        collect(file, seen);
        return new ArrayList<>(seen.values());
    }

    private static void collect(FileDescriptor file, Map<String, FileDescriptorProto> seen) {
        if (seen.putIfAbsent(file.getName(), file.toProto()) == null) {
            file.getDependencies().forEach(d -> collect(d, seen));
        }
    }

    private static Set<FileDescriptor> importedFiles(Map<String, List<Method>> services) {
        Set<FileDescriptor> files = new LinkedHashSet<>();
        for (List<Method> methods : services.values()) {
            for (Method m : methods) {
                addWithImports(descriptor(ProtobufMethods.requestType(m)).getFile(), files);
                addWithImports(descriptor(ProtobufMethods.responseType(m)).getFile(), files);
            }
        }
        return files;
    }

    private static void addWithImports(FileDescriptor file, Set<FileDescriptor> files) {
        if (files.add(file)) {
            file.getDependencies().forEach(d -> addWithImports(d, files));
        }
    }

    private static boolean defines(FileDescriptor file, String symbol) {
        for (Descriptor message : file.getMessageTypes()) {
            if (hasMessage(message, symbol) || hasEnum(message.getEnumTypes(), symbol)) {
                return true;
            }
        }
        return hasEnum(file.getEnumTypes(), symbol)
                || file.getServices().stream().anyMatch(s -> s.getFullName().equals(symbol));
    }

    private static boolean hasMessage(Descriptor message, String fullName) {
        if (message.getFullName().equals(fullName)) {
            return true;
        }
        for (Descriptor nested : message.getNestedTypes()) {
            if (hasMessage(nested, fullName) || hasEnum(nested.getEnumTypes(), fullName)) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasEnum(List<EnumDescriptor> enums, String fullName) {
        return enums.stream().anyMatch(e -> e.getFullName().equals(fullName));
    }

    private static Descriptor descriptor(Class<?> messageClass) {
        return ProtobufMethods.prototype(messageClass).getDescriptorForType();
    }
}
