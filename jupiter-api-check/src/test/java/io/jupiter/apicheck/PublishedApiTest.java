package io.jupiter.apicheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * No public API signature of a published module mentions an internal package (issue #18 item 6): every
 * {@code io.jupiter} class on this module's test class path, which holds every published module, is checked.
 */
class PublishedApiTest {

    /** The root package of each published jar module (their Automatic-Module-Name), to prove they were all seen. */
    private static final List<String> MODULES = List.of(
            "io.jupiter.common", "io.jupiter.testkit", "io.jupiter.testkit.suites",
            "io.jupiter.serialization", "io.jupiter.serialization.protostuff", "io.jupiter.serialization.hessian",
            "io.jupiter.serialization.kryo", "io.jupiter.serialization.java",
            "io.jupiter.transport", "io.jupiter.transport.netty",
            "io.jupiter.registry", "io.jupiter.registry.embedded", "io.jupiter.registry.zookeeper",
            "io.jupiter.rpc", "io.jupiter.junit5", "io.jupiter.tracing.opentelemetry", "io.jupiter.monitor",
            "io.jupiter.micrometer", "io.jupiter.protocol.http",
            "io.jupiter.spring", "io.jupiter.spring.boot.autoconfigure");

    @Test
    void noPublicSignatureMentionsAnInternalType() {
        List<Class<?>> classes = new ArrayList<>();
        List<String> unloadable = new ArrayList<>();
        ClassLoader loader = getClass().getClassLoader();
        for (String name : jupiterClassNames()) {
            try {
                classes.add(Class.forName(name, false, loader));
            } catch (ClassNotFoundException | LinkageError e) {
                unloadable.add(name + ": " + e);
            }
        }
        assertThat(unloadable).as("classes that cannot be loaded (a missing dependency of this module?)").isEmpty();

        Set<String> apiPackages = new TreeSet<>();
        for (Class<?> type : classes) {
            if (InternalApiChecker.isApi(type)) {
                apiPackages.add(type.getPackageName());
            }
        }
        for (String module : MODULES) {
            assertThat(apiPackages).as("API packages seen")
                    .anyMatch(p -> p.equals(module) || p.startsWith(module + "."));
        }

        List<String> violations = new ArrayList<>();
        for (Class<?> type : classes) {
            try {
                violations.addAll(InternalApiChecker.check(type));
            } catch (LinkageError e) {
                unloadable.add(type.getName() + ": " + e);
            }
        }
        assertThat(unloadable).as("classes whose signatures cannot be read").isEmpty();
        assertThat(violations).as("public signatures that mention an internal type").isEmpty();
    }

    /** Every io.jupiter class on the test class path but this module's own. */
    private static Set<String> jupiterClassNames() {
        Set<String> names = new TreeSet<>();
        String classPath = System.getProperty("java.class.path");
        for (String entry : classPath.split(File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            for (String name : InternalApiChecker.classNames(Path.of(entry), "io.jupiter.")) {
                if (!name.startsWith("io.jupiter.apicheck.")) {
                    names.add(name);
                }
            }
        }
        assertThat(names).as("io.jupiter classes on the class path " + classPath).isNotEmpty();
        return names;
    }
}
