package io.jupiter.spring.xml;

/** {@code <jupiter:methodSpecial>}: a method's own timeout and cluster strategy. */
public final class XmlMethodSpecial {

    private String methodName;
    private String timeoutMillis;
    private String clusterStrategy;
    private String failoverRetries;

    String methodName() {
        return methodName;
    }

    String timeoutMillis() {
        return timeoutMillis;
    }

    String clusterStrategy() {
        return clusterStrategy;
    }

    String failoverRetries() {
        return failoverRetries;
    }

    public void setMethodName(String methodName) {
        this.methodName = methodName;
    }

    public void setTimeoutMillis(String timeoutMillis) {
        this.timeoutMillis = timeoutMillis;
    }

    public void setClusterStrategy(String clusterStrategy) {
        this.clusterStrategy = clusterStrategy;
    }

    public void setFailoverRetries(String failoverRetries) {
        this.failoverRetries = failoverRetries;
    }
}
