package io.jupiter.rpc.internal.filter;

import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.rpc.filter.Side;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.transport.Status;
import java.net.SocketAddress;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The {@link Invocation} of both sides. Created only when an interceptor, a filter or an attachment needs it. */
public final class DefaultInvocation implements Invocation, ServedRequest {

    private final Side side;
    private final ServiceKey service;
    private final String methodName;
    private final Object[] args;
    private final String appName;
    private final long startNanos;
    private long deadlineNanos;
    /**
     * On the consumer: the deadline of the request this thread serves (0: none), which every attempt of this call
     * carries on.
     */
    private long inheritedDeadlineNanos;
    private SocketAddress remoteAddress;
    private CallerIdentity caller = CallerIdentity.ANONYMOUS;
    private Map<String, String> attachments;
    /** Whether {@link #attachments} is this invocation's own map (else it is the one received, not to be changed). */
    private boolean ownsAttachments;
    private Map<String, Object> attributes;
    private Status status;
    private int requestBytes = -1;
    private long invokeId;
    private boolean stream;

    private DefaultInvocation(Side side, ServiceKey service, String methodName, Object[] args, String appName,
                              long startNanos) {
        this.side = side;
        this.service = service;
        this.methodName = methodName;
        this.args = args;
        this.appName = appName;
        this.startNanos = startNanos;
    }

    /**
     * A consumer call. The attachments of the request this thread serves (if any) are carried on, its deadline too
     * when it is earlier than this call's own, and the attachments scoped with {@code RpcContext.attach} are added.
     */
    public static DefaultInvocation consumer(ServiceKey service, String methodName, Object[] args, String appName,
                                             long timeoutMillis, ContextHolder context) {
        long now = System.nanoTime();
        DefaultInvocation invocation = new DefaultInvocation(Side.CONSUMER, service, methodName, args, appName, now);
        invocation.deadlineNanos = now + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        if (context != null) {
            DefaultInvocation parent = context.servingInvocation();
            if (parent != null) {
                if (parent.attachments != null && !parent.attachments.isEmpty()) {
                    Map<String, String> carried = invocation.ownAttachments();
                    carried.putAll(parent.attachments);
                    carried.remove(Deadlines.KEY);
                }
                if (parent.deadlineNanos != 0) {
                    invocation.inheritedDeadlineNanos = parent.deadlineNanos;
                    if (parent.deadlineNanos - invocation.deadlineNanos < 0) {
                        invocation.deadlineNanos = parent.deadlineNanos;
                    }
                }
            }
            if (context.scoped != null) {
                invocation.ownAttachments().putAll(context.scoped);
            }
        }
        return invocation;
    }

    /** A request a provider serves. */
    public static DefaultInvocation provider(ServiceKey service, String methodName, Object[] args, String appName,
                                             SocketAddress remoteAddress, CallerIdentity caller,
                                             Map<String, String> attachments, long receivedNanos,
                                             int requestBytes, long invokeId) {
        DefaultInvocation invocation = new DefaultInvocation(Side.PROVIDER, service, methodName, args, appName,
                receivedNanos);
        invocation.remoteAddress = remoteAddress;
        invocation.caller = caller;
        invocation.attachments = attachments;
        invocation.requestBytes = requestBytes;
        invocation.invokeId = invokeId;
        if (attachments != null) {
            invocation.deadlineNanos = Deadlines.fromAttachment(attachments.get(Deadlines.KEY), receivedNanos);
        }
        return invocation;
    }

    /**
     * The attachments to send with one attempt of this consumer call, {@code null} when there are none. The deadline
     * is added when it is propagated ({@code propagateDeadline}, or inherited from the request being served): the
     * milliseconds this attempt waits ({@code timeoutMillis}, counted anew for each attempt), or less if the
     * inherited deadline comes first.
     *
     * @throws TimeoutException ({@code CLIENT_TIMEOUT}) if the inherited deadline already passed: the attempt is not
     *         sent
     */
    public Map<String, String> attemptAttachments(boolean propagateDeadline, long timeoutMillis) {
        if (inheritedDeadlineNanos != 0) {
            long left = Deadlines.remainingMillis(inheritedDeadlineNanos);
            if (left <= 0) {
                throw new TimeoutException(StatusTable.CLIENT_TIMEOUT.status(), service + "." + methodName
                        + " not sent: the deadline of the request being served has passed");
            }
            ownAttachments().put(Deadlines.KEY, Long.toString(Math.min(left, timeoutMillis)));
        } else if (propagateDeadline) {
            ownAttachments().put(Deadlines.KEY, Long.toString(timeoutMillis));
        }
        return attachments;
    }

    /** Itself: a provider invocation made before its method runs (interceptors, streams) is served as it is. */
    @Override
    public DefaultInvocation invocation() {
        return this;
    }

    /** Whether the deadline of this (provider) invocation has passed. */
    public boolean deadlinePassed() {
        return Deadlines.passed(deadlineNanos);
    }

    public void remoteAddress(SocketAddress address) {
        this.remoteAddress = address;
    }

    public void invokeId(long id) {
        this.invokeId = id;
    }

    /** Marks this invocation as a stream's (its open and its end). */
    public void stream(boolean isStream) {
        this.stream = isStream;
    }

    @Override
    public boolean isStream() {
        return stream;
    }

    public void status(Status status) {
        this.status = status;
    }

    /** The status a failure reports: its own for an {@link RpcException}, else a service error. */
    public static Status statusOf(Throwable error) {
        return StatusTable.ofOutcome(error);
    }

    public void requestBytes(int bytes) {
        this.requestBytes = bytes;
    }

    private Map<String, String> ownAttachments() {
        if (!ownsAttachments) {
            attachments = attachments == null ? new HashMap<>() : new HashMap<>(attachments);
            ownsAttachments = true;
        }
        return attachments;
    }

    @Override
    public Side side() {
        return side;
    }

    @Override
    public ServiceKey service() {
        return service;
    }

    @Override
    public String methodName() {
        return methodName;
    }

    @Override
    public Object[] args() {
        return args;
    }

    @Override
    public String appName() {
        return appName;
    }

    @Override
    public SocketAddress remoteAddress() {
        return remoteAddress;
    }

    @Override
    public CallerIdentity caller() {
        return caller;
    }

    @Override
    public long invokeId() {
        return invokeId;
    }

    @Override
    public String attachment(String key) {
        return attachments == null ? null : attachments.get(key);
    }

    @Override
    public Map<String, String> attachments() {
        return attachments == null ? Map.of() : Collections.unmodifiableMap(attachments);
    }

    @Override
    public void attach(String key, String value) {
        if (key == null || value == null) {
            throw new IllegalArgumentException("attachment " + key + '=' + value + " (expected: key and value)");
        }
        ownAttachments().put(key, value);
    }

    @Override
    public long startNanos() {
        return startNanos;
    }

    @Override
    public long elapsedNanos() {
        return System.nanoTime() - startNanos;
    }

    @Override
    public long remainingMillis() {
        return Deadlines.remainingMillis(deadlineNanos);
    }

    @Override
    public Status status() {
        return status;
    }

    @Override
    public int requestBytes() {
        return requestBytes;
    }

    @Override
    public Object attribute(String key) {
        return attributes == null ? null : attributes.get(key);
    }

    @Override
    public void attribute(String key, Object value) {
        if (attributes == null) {
            attributes = new HashMap<>(4);
        }
        attributes.put(key, value);
    }

    @Override
    public String toString() {
        return side + " " + service + "." + methodName;
    }
}
