package io.jupiter.serialization.hessian;

import io.jupiter.serialization.EnvelopeListener;
import io.jupiter.serialization.internal.EnvelopeRead;
import io.jupiter.serialization.wire.ServiceMetadata;
import java.io.IOException;

/**
 * The state of one request body read envelope first ({@link HessianSerializer#readRequest}): the listener, what it
 * expects of the arguments, and where the read is among them.
 *
 * <p>{@link RequestDeserializer} asks the listener once the fields before {@code args} are read (1.3.1 writes
 * {@code appName, methodName, metadata} first). The {@code args} list is then read by an
 * {@link ArgumentsDeserializer}, which checks the count and marks each element's start; the first class name
 * the element's own {@code readObject} resolves (its object definition, or the type of a typed list or map) is
 * checked against the parameter type at its position by {@link LegacyNameSerializerFactory}, after the class is
 * loaded and before anything of it is created. Names resolved deeper (the element's fields) are not the
 * element's type and are not checked against it; an element whose class definition an earlier value already
 * sent names no class, and is checked once read.
 */
final class RequestRead extends EnvelopeRead {

    /** Whether the body's own {@code MessageWrapper} has started (one nested in an argument is read plainly). */
    private boolean rootClaimed;
    private boolean stopped;
    /** The next list Hessian reads is the {@code args} array. */
    private boolean argumentsNext;
    private int count = -1;
    private int index;
    /** Depth of the element's own {@code readObject}, while its first class name is awaited; else -1. */
    private int elementDepth = -1;

    RequestRead(EnvelopeListener listener) {
        super(listener);
    }

    /** Whether the {@code MessageWrapper} starting now is the body's own: {@code true} once, for the first. */
    boolean claimRoot() {
        boolean first = !rootClaimed;
        rootClaimed = true;
        return first;
    }

    /** Asks the listener; returns whether the read goes on. */
    boolean askListener(String appName, ServiceMetadata service, String methodName) {
        stopped = envelopeRead(appName, service, methodName) == null;
        return !stopped;
    }

    boolean stopped() {
        return stopped;
    }

    /** Reads the {@code args} value, an {@link ArgumentsDeserializer} taking the list if there is one. */
    Object readArguments(BoundedHessianInput in) throws IOException {
        argumentsNext = types() != null && !types().isAny();
        try {
            return in.readObject(Object[].class);
        } finally {
            argumentsNext = false;
            elementDepth = -1;
        }
    }

    /** Whether the list being resolved is the {@code args} array (asked once). */
    boolean takeArguments() {
        boolean next = argumentsNext;
        argumentsNext = false;
        return next;
    }

    void count(int length) {
        types().checkCount(length);
        count = length;
    }

    /** Element {@code i} starts; its own {@code readObject} runs at {@code depth}. */
    void elementStarts(int i, int depth) {
        index = i;
        elementDepth = depth;
    }

    /** Whether a class name resolved at {@code depth} is the current element's own (asked once per element). */
    boolean takeElementName(int depth) {
        if (elementDepth >= 0 && depth == elementDepth) {
            elementDepth = -1;
            return true;
        }
        return false;
    }

    void checkElement(Class<?> type) {
        types().checkClass(count, index, type);
    }
}
