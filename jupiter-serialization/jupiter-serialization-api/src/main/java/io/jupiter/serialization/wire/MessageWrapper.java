package io.jupiter.serialization.wire;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Map;

/**
 * The body of a request frame: who calls, which service and method, with which arguments and attachments.
 *
 * <p>Field names, order and types are Jupiter 1.3.1's {@code org.jupiter.rpc.model.metadata.MessageWrapper}
 * (protostuff numbers them 1..5 in this order). Parameter types are not sent: the provider picks the method by
 * name and the runtime types of the arguments. Do not add, remove or reorder fields.
 */
public final class MessageWrapper implements Serializable {

    private static final long serialVersionUID = 1009813828866652852L;
    private static final Object[] EMPTY_ARGS = new Object[0];

    private String appName;
    private ServiceMetadata metadata;
    private String methodName;
    private Object[] args;
    private Map<String, String> attachments;

    /** For serializers only. */
    public MessageWrapper() {
    }

    public MessageWrapper(String appName, ServiceMetadata metadata, String methodName, Object[] args,
                          Map<String, String> attachments) {
        this.appName = appName;
        this.metadata = metadata;
        this.methodName = methodName;
        this.args = args;
        this.attachments = attachments;
    }

    public String getAppName() {
        return appName;
    }

    public ServiceMetadata getMetadata() {
        return metadata;
    }

    public String getMethodName() {
        return methodName;
    }

    /** The arguments; never null (a missing array reads as empty). */
    public Object[] getArgs() {
        return args == null ? EMPTY_ARGS : args;
    }

    /** Sets the arguments (for serializers that read the array themselves). */
    public void setArgs(Object[] args) {
        this.args = args;
    }

    /** The attachments, or {@code null} when none were sent. */
    public Map<String, String> getAttachments() {
        return attachments;
    }

    public void setAttachments(Map<String, String> attachments) {
        this.attachments = attachments;
    }


    @Override
    public String toString() {
        return "MessageWrapper{appName='" + appName + "', metadata=" + metadata + ", methodName='" + methodName
                + "', args=" + Arrays.toString(args) + ", attachments=" + attachments + '}';
    }
}
