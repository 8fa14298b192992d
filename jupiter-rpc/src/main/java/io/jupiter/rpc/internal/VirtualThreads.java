package io.jupiter.rpc.internal;

import java.lang.reflect.Method;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/**
 * Virtual threads (JDK 21 and later), found at run time so the jar keeps running on Java 17: the methods are looked
 * up once, and on an older JDK {@link #newThreadPerTaskExecutor} says so.
 */
public final class VirtualThreads {

    private static final Method OF_VIRTUAL;
    private static final Method NAME;
    private static final Method FACTORY;
    private static final Method NEW_THREAD_PER_TASK_EXECUTOR;

    static {
        Method ofVirtual = null;
        Method name = null;
        Method factory = null;
        Method perTask = null;
        try {
            ofVirtual = Thread.class.getMethod("ofVirtual");
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            name = builder.getMethod("name", String.class, long.class);
            factory = builder.getMethod("factory");
            perTask = Executors.class.getMethod("newThreadPerTaskExecutor", ThreadFactory.class);
        } catch (ReflectiveOperationException e) {
            ofVirtual = null; // before JDK 21
        }
        OF_VIRTUAL = ofVirtual;
        NAME = name;
        FACTORY = factory;
        NEW_THREAD_PER_TASK_EXECUTOR = perTask;
    }

    private VirtualThreads() {
    }

    /** Whether this JDK has virtual threads. */
    public static boolean available() {
        return OF_VIRTUAL != null;
    }

    /**
     * An executor that starts a new virtual thread for every task, named {@code prefix} and a number.
     *
     * @throws UnsupportedOperationException before JDK 21
     */
    public static ExecutorService newThreadPerTaskExecutor(String prefix) {
        if (!available()) {
            throw new UnsupportedOperationException("virtual threads need JDK 21 or later; this is Java "
                    + Runtime.version().feature());
        }
        try {
            Object builder = NAME.invoke(OF_VIRTUAL.invoke(null), prefix, 0L);
            ThreadFactory factory = (ThreadFactory) FACTORY.invoke(builder);
            return (ExecutorService) NEW_THREAD_PER_TASK_EXECUTOR.invoke(null, factory);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot start virtual threads: " + e, e);
        }
    }
}
