package io.jupiter.apicheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Finds public API signatures that mention a type of an internal package.
 *
 * <p>A package is internal when one of its dot-separated names is {@code internal} ({@code io.jupiter.rpc.internal},
 * {@code io.jupiter.rpc.internal.consumer}, also another library's {@code io.netty.util.internal}). A class is API
 * when it is public, not in an internal package, and, if nested, a public or protected member of an API class. Its
 * signature is everything a user of the class compiles against: type parameters and their bounds, superclass and
 * interfaces, the types of its public fields, and the return, parameter, exception and type-parameter types of its
 * public constructors and methods, with the protected ones too unless the class is final. Generic arguments, wildcard
 * bounds and array components are followed.
 *
 * <p>Each violation is one line: the member (as {@link Member#toString()} or {@code class X} for the class's own
 * declaration), an arrow and the internal type it mentions.
 */
public final class InternalApiChecker {

    private InternalApiChecker() {
    }

    /**
     * Whether a package is internal.
     *
     * @param packageName a package name, {@code ""} for the unnamed package
     * @return true when one of its dot-separated names is {@code internal}
     */
    public static boolean isInternal(String packageName) {
        for (String part : packageName.split("\\.")) {
            if (part.equals("internal")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a class is part of the public API: public, outside internal packages and, when nested, a public or
     * protected member of an API class. Anonymous, local and synthetic classes never are.
     *
     * @param type the class
     * @return true when it is API
     */
    public static boolean isApi(Class<?> type) {
        if (type.isAnonymousClass() || type.isLocalClass() || type.isSynthetic()) {
            return false;
        }
        if (isInternal(type.getPackageName())) {
            return false;
        }
        Class<?> enclosing = type.getEnclosingClass();
        if (enclosing == null) {
            return Modifier.isPublic(type.getModifiers());
        }
        int modifiers = type.getModifiers();
        boolean visible = Modifier.isPublic(modifiers)
                || (Modifier.isProtected(modifiers) && !Modifier.isFinal(enclosing.getModifiers()));
        return visible && isApi(enclosing);
    }

    /**
     * The violations of the given classes (classes that are not API are skipped), sorted.
     *
     * @param classes the classes to check
     * @return one line per violation, empty when there is none
     */
    public static List<String> check(Iterable<Class<?>> classes) {
        Set<String> violations = new TreeSet<>();
        for (Class<?> type : classes) {
            violations.addAll(check(type));
        }
        return new ArrayList<>(violations);
    }

    /**
     * The violations of one class, none when it is not API.
     *
     * @param type the class
     * @return one line per violation
     */
    public static List<String> check(Class<?> type) {
        List<String> violations = new ArrayList<>();
        if (!isApi(type)) {
            return violations;
        }
        String declaration = "class " + type.getName();
        List<Type> own = new ArrayList<>();
        Collections.addAll(own, type.getTypeParameters());
        if (type.getGenericSuperclass() != null) {
            own.add(type.getGenericSuperclass());
        }
        Collections.addAll(own, type.getGenericInterfaces());
        report(declaration, own, violations);

        boolean protectedVisible = !Modifier.isFinal(type.getModifiers());
        for (Field field : type.getDeclaredFields()) {
            if (visible(field, protectedVisible)) {
                report(field.toString(), List.of(field.getGenericType()), violations);
            }
        }
        for (Constructor<?> constructor : type.getDeclaredConstructors()) {
            if (visible(constructor, protectedVisible)) {
                report(constructor.toString(), signature(constructor, null), violations);
            }
        }
        for (Method method : type.getDeclaredMethods()) {
            if (visible(method, protectedVisible)) {
                report(method.toString(), signature(method, method.getGenericReturnType()), violations);
            }
        }
        return violations;
    }

    /**
     * The names of the classes in a class-path entry (a jar or a directory), nested classes included, module and
     * package descriptors left out.
     *
     * @param entry a jar file or a directory of classes
     * @param prefix only names that start with it, e.g. {@code "io.jupiter."}
     * @return the binary class names, sorted
     */
    public static List<String> classNames(Path entry, String prefix) {
        Set<String> names = new TreeSet<>();
        try {
            if (Files.isDirectory(entry)) {
                try (Stream<Path> files = Files.walk(entry)) {
                    files.filter(Files::isRegularFile)
                            .map(file -> entry.relativize(file).toString()
                                    .replace(entry.getFileSystem().getSeparator(), "/"))
                            .forEach(path -> addClass(path, prefix, names));
                }
            } else if (Files.isRegularFile(entry) && entry.toString().endsWith(".jar")) {
                try (ZipFile jar = new ZipFile(entry.toFile())) {
                    Enumeration<? extends ZipEntry> entries = jar.entries();
                    while (entries.hasMoreElements()) {
                        addClass(entries.nextElement().getName(), prefix, names);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the classes of " + entry, e);
        }
        return new ArrayList<>(names);
    }

    private static void addClass(String path, String prefix, Set<String> names) {
        if (!path.endsWith(".class") || path.startsWith("META-INF/")) {
            return;
        }
        String name = path.substring(0, path.length() - ".class".length()).replace('/', '.');
        if (name.endsWith("module-info") || name.endsWith("package-info") || !name.startsWith(prefix)) {
            return;
        }
        names.add(name);
    }

    private static boolean visible(Member member, boolean protectedVisible) {
        if (member.isSynthetic()) {
            return false;
        }
        int modifiers = member.getModifiers();
        return Modifier.isPublic(modifiers) || (protectedVisible && Modifier.isProtected(modifiers));
    }

    private static List<Type> signature(Executable executable, Type returnType) {
        List<Type> types = new ArrayList<>();
        Collections.addAll(types, executable.getTypeParameters());
        if (returnType != null) {
            types.add(returnType);
        }
        Collections.addAll(types, executable.getGenericParameterTypes());
        Collections.addAll(types, executable.getGenericExceptionTypes());
        return types;
    }

    private static void report(String where, List<Type> types, List<String> violations) {
        Set<Class<?>> internal = new LinkedHashSet<>();
        Set<Type> seen = new HashSet<>();
        for (Type type : types) {
            collectInternal(type, internal, seen);
        }
        for (Class<?> type : internal) {
            violations.add(where + " -> " + type.getName());
        }
    }

    private static void collectInternal(Type type, Set<Class<?>> internal, Set<Type> seen) {
        if (type == null || !seen.add(type)) {
            return;
        }
        if (type instanceof Class<?> raw) {
            Class<?> element = raw;
            while (element.isArray()) {
                element = element.getComponentType();
            }
            if (!element.isPrimitive() && isInternal(element.getPackageName())) {
                internal.add(element);
            }
        } else if (type instanceof ParameterizedType parameterized) {
            collectInternal(parameterized.getOwnerType(), internal, seen);
            collectInternal(parameterized.getRawType(), internal, seen);
            for (Type argument : parameterized.getActualTypeArguments()) {
                collectInternal(argument, internal, seen);
            }
        } else if (type instanceof WildcardType wildcard) {
            for (Type bound : wildcard.getUpperBounds()) {
                collectInternal(bound, internal, seen);
            }
            for (Type bound : wildcard.getLowerBounds()) {
                collectInternal(bound, internal, seen);
            }
        } else if (type instanceof TypeVariable<?> variable) {
            for (Type bound : variable.getBounds()) {
                collectInternal(bound, internal, seen);
            }
        } else if (type instanceof GenericArrayType array) {
            collectInternal(array.getGenericComponentType(), internal, seen);
        }
    }
}
