package io.jupiter.serialization.internal;

import io.jupiter.serialization.wire.LegacyClassNames;
import java.util.List;
import java.util.Set;

/**
 * The fixed part of the class allow-list: names that are never trusted (known gadget packages and JDK classes that
 * run code), and JDK value types plus Jupiter's own wire classes that are always trusted. Decisions are made on the
 * name alone, without loading anything.
 */
public final class BuiltInClassRules {

    /** Exact names never trusted, even when asked. */
    private static final Set<String> NEVER_NAMES = Set.of(
            "java.lang.Runtime", "java.lang.ProcessBuilder", "java.lang.Process", "java.lang.ProcessImpl",
            "java.lang.ProcessHandle", "java.lang.Thread", "java.lang.ThreadGroup", "java.lang.ClassLoader",
            "java.lang.System", "java.lang.Class", "java.lang.Module", "java.lang.ModuleLayer",
            "java.lang.InheritableThreadLocal", "java.lang.ThreadLocal",
            "java.net.URL", "java.net.URLClassLoader", "java.util.ServiceLoader", "java.util.Timer",
            "java.util.concurrent.ThreadPoolExecutor", "java.util.concurrent.ScheduledThreadPoolExecutor",
            "java.util.concurrent.ForkJoinPool");

    /** Packages (and their subpackages) never trusted, even when asked. */
    private static final List<String> NEVER_PACKAGES = List.of(
            "java.lang.reflect.", "java.lang.invoke.", "java.lang.ref.", "java.lang.instrument.",
            "java.rmi.", "java.beans.", "java.security.", "java.awt.",
            "javax.management.", "javax.naming.", "javax.script.", "javax.swing.", "javax.sql.",
            "javax.xml.transform.", "javax.xml.parsers.",
            "javax.imageio.", "javax.sound.", "javax.print.", "javax.rmi.",
            "sun.", "com.sun.", "jdk.", "org.ietf.jgss.",
            "org.apache.commons.collections.", "org.apache.commons.collections4.", "org.apache.commons.beanutils.",
            "org.apache.commons.fileupload.", "org.apache.commons.configuration.",
            "org.apache.xalan.", "org.apache.xpath.", "org.apache.bcel.", "org.apache.tomcat.", "org.apache.catalina.",
            "org.apache.wicket.", "org.apache.myfaces.", "org.apache.log4j.", "org.apache.logging.log4j.",
            "org.springframework.", "com.mchange.", "org.codehaus.groovy.", "groovy.", "org.mozilla.javascript.",
            "bsh.", "org.python.", "clojure.", "org.hibernate.", "org.jboss.", "org.eclipse.jetty.",
            "net.sf.json.", "com.alibaba.fastjson.", "com.fasterxml.jackson.databind.", "org.yaml.snakeyaml.",
            "com.rometools.", "com.sun.rowset.", "org.aspectj.", "ch.qos.logback.", "com.zaxxer.hikari.",
            "javassist.", "net.bytebuddy.", "org.objenesis.", "com.esotericsoftware.", "com.caucho.",
            "io.protostuff.", "io.netty.");

    /** JDK value types trusted by exact name. */
    private static final Set<String> TRUSTED_NAMES = Set.of(
            "java.lang.Object", "java.lang.String", "java.lang.Boolean", "java.lang.Byte", "java.lang.Character",
            "java.lang.Short", "java.lang.Integer", "java.lang.Long", "java.lang.Float", "java.lang.Double",
            "java.lang.Number", "java.lang.Void", "java.lang.Enum", "java.lang.StringBuilder",
            "java.lang.StringBuffer", "java.lang.StackTraceElement", "java.lang.Throwable",
            "java.net.URI", "java.sql.Date", "java.sql.Time", "java.sql.Timestamp",
            // Primitive types, named by protostuff as the component type of arrays of arrays (long[][]); keywords,
            // so no class can bear these names.
            "boolean", "byte", "char", "short", "int", "long", "float", "double");

    /**
     * Packages whose own classes (not subpackages) are trusted: collections, maps, dates, numbers, time. The few
     * classes of these packages that run code ({@link #NEVER_NAMES}) are excluded.
     */
    private static final Set<String> TRUSTED_PACKAGES = Set.of(
            "java.util", "java.util.concurrent", "java.util.concurrent.atomic", "java.math", "java.time",
            "java.time.chrono", "java.time.temporal", "java.time.zone", "java.time.format",
            "io.jupiter.serialization.wire", "io.jupiter.serialization.wire.legacy", "io.jupiter.rpc.exception");

    /** Packages in which every {@code ...Exception} and {@code ...Error} is trusted (they travel as errors). */
    private static final Set<String> EXCEPTION_PACKAGES = Set.of(
            "java.lang", "java.io", "java.util", "java.util.concurrent", "java.time", "java.time.format",
            "java.time.temporal", "java.time.zone", "java.nio", "java.nio.charset", "java.nio.file",
            "java.net", "java.text");

    private BuiltInClassRules() {
    }

    /**
     * Whether {@code name} (a plain class name, not an array) may never be trusted. A nested class of a class never
     * trusted is never trusted either ({@code java.util.concurrent.ThreadPoolExecutor$Worker},
     * {@code java.lang.ProcessBuilder$Redirect}), though its package may be trusted.
     */
    public static boolean neverTrusted(String name) {
        int nested = name.indexOf('$');
        if (NEVER_NAMES.contains(nested < 0 ? name : name.substring(0, nested))) {
            return true;
        }
        for (int i = 0; i < NEVER_PACKAGES.size(); i++) {
            if (name.startsWith(NEVER_PACKAGES.get(i))) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code name} (a plain class name, not an array) is trusted without configuration. */
    public static boolean trustedByDefault(String name) {
        if (neverTrusted(name)) {
            return false;
        }
        if (TRUSTED_NAMES.contains(name) || LegacyClassNames.TO_LOCAL.containsKey(name)) {
            return true;
        }
        int dot = name.lastIndexOf('.');
        if (dot <= 0) {
            return false;
        }
        String pkg = name.substring(0, dot);
        if (TRUSTED_PACKAGES.contains(pkg)) {
            return true;
        }
        return EXCEPTION_PACKAGES.contains(pkg) && isThrowableName(name);
    }

    private static boolean isThrowableName(String name) {
        // Nested classes are left out: a name like "Foo$Exception" says nothing about Foo.
        return name.indexOf('$') < 0 && (name.endsWith("Exception") || name.endsWith("Error"));
    }
}
