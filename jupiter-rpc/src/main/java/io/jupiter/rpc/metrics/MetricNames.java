package io.jupiter.rpc.metrics;

import io.jupiter.rpc.ServiceKey;

/**
 * The names and descriptions of the RPC metrics, as in the report of the original Jupiter. Each side (provider,
 * consumer) has its own registry holding the same names.
 */
public final class MetricNames {

    /** Histogram of request body sizes in bytes, without the 16-byte header. */
    public static final String REQUEST_SIZE = "request.size";
    /** Histogram of response body sizes in bytes, without the 16-byte header. */
    public static final String RESPONSE_SIZE = "response.size";
    /** Meter of refused requests: bad request, service not found, server busy, flow control. */
    public static final String REJECTION = "rejection";
    /** Timer from a request decoded to its response handed to the connection (provider only). */
    public static final String PROCESSING = "processing";
    /** Meter of providers a proxy took out of load balancing (outlier ejection; consumer only). */
    public static final String OUTLIER_EJECTION = "outlier.ejection";
    /** Meter of ejected providers that came back into load balancing (consumer only). */
    public static final String OUTLIER_RETURN = "outlier.return";
    /** Meter of retries and hedges not sent because the proxy's retry budget was spent (consumer only). */
    public static final String RETRY_THROTTLED = "retry.throttled";
    /** Meter of requests shed unrun: they waited in the provider queue longer than it allowed (provider only). */
    public static final String QUEUE_SHED = "queue.shed";
    /** Meter of requests dropped unrun: their caller's deadline passed before they could run (provider only). */
    public static final String DEADLINE_EXPIRED = "deadline.expired";
    /** Meter of requests dropped unrun: their caller cancelled them (timed out, gave up) first (provider only). */
    public static final String CALL_CANCELLED = "call.cancelled";

    private MetricNames() {
    }

    /**
     * The name of a method's timer: {@code group-version-name#method}, e.g. {@code Jupiter-1.0.0-Service#hello}
     * (the original's layout).
     */
    public static String method(ServiceKey key, String method) {
        return key.group() + '-' + key.version() + '-' + key.name() + '#' + method;
    }

    /** Whether {@code name} is a method timer's name. */
    public static boolean isMethod(String name) {
        return name.indexOf('#') > 0;
    }

    /** The description printed in brackets after a metric's name in the report. */
    public static String describe(RpcMetrics.Side side, String name) {
        switch (name) {
            case REQUEST_SIZE:
                return (side == RpcMetrics.Side.PROVIDER ? "received" : "sent")
                        + " request body size in bytes (without the 16-byte Jupiter header)";
            case RESPONSE_SIZE:
                return (side == RpcMetrics.Side.PROVIDER ? "sent" : "received")
                        + " response body size in bytes (without the 16-byte Jupiter header)";
            case REJECTION:
                return side == RpcMetrics.Side.PROVIDER
                        ? "requests refused (bad request, service not found, busy, flow control)"
                        : "calls the provider refused (bad request, service not found, busy, flow control)";
            case PROCESSING:
                return "request processing time (from the request decoded to its response handed to the connection)";
            case OUTLIER_EJECTION:
                return "providers taken out of load balancing after timeouts, connection errors or server errors"
                        + " in a row";
            case OUTLIER_RETURN:
                return "ejected providers back in load balancing";
            case RETRY_THROTTLED:
                return "retries and hedges not sent: the retry budget was spent";
            case QUEUE_SHED:
                return "requests answered SERVER_BUSY unrun: they waited in the queue longer than it allowed";
            case DEADLINE_EXPIRED:
                return "requests dropped unrun: their caller's deadline passed before they could run";
            case CALL_CANCELLED:
                return "requests dropped unrun: their caller cancelled them (timed out, gave up) before they could run";
            default:
                return side == RpcMetrics.Side.PROVIDER
                        ? "provider method execution time"
                        : "consumer call time (request sent to response read)";
        }
    }
}
