package io.jupiter.transport;

/**
 * The status byte of a response frame. Values are Jupiter 1.3.1's and must never change or be reused.
 *
 * <p>This is the wire's part of a status: the byte and its name. What a status means to a call (the exception a
 * consumer throws, the 1.3.1 exception class in the error body, whether a retry is safe) is the RPC layer's, in one
 * table: {@code io.jupiter.rpc.internal.StatusTable} in jupiter-rpc. Statuses marked <em>local</em> are never sent
 * by a provider; a consumer produces them itself.
 */
public enum Status {
    /** The call succeeded; the body holds the result. */
    OK((byte) 0x20, false),
    /** Local: the request could not be written (connection gone or write failed). */
    CLIENT_ERROR((byte) 0x30, false),
    /** Local: the call timed out before the request was written. */
    CLIENT_TIMEOUT((byte) 0x31, true),
    /** Local: the call timed out after the request was written. */
    SERVER_TIMEOUT((byte) 0x32, false),
    /** The provider could not read the request; it closes the connection after replying. */
    BAD_REQUEST((byte) 0x40, true),
    /** No provider for the requested group-name-version; the connection is closed after replying. */
    SERVICE_NOT_FOUND((byte) 0x44, true),
    /** Failure outside the business method (result not serializable, future completed exceptionally, ...). */
    SERVER_ERROR((byte) 0x50, false),
    /** The provider's executor refused the call; the request surely did not run. */
    SERVER_BUSY((byte) 0x51, true),
    /** The business method threw an exception it declares. */
    SERVICE_EXPECTED_ERROR((byte) 0x52, false),
    /** The business method threw an undeclared exception. */
    SERVICE_UNEXPECTED_ERROR((byte) 0x53, false),
    /** The provider's application-wide flow control refused the call. */
    APP_FLOW_CONTROL((byte) 0x54, true),
    /** The service's flow control refused the call. */
    PROVIDER_FLOW_CONTROL((byte) 0x55, true),
    /** Local: the response body could not be read. */
    DESERIALIZATION_FAIL((byte) 0x60, false),
    /** Streams only (never sent to a 1.3.1 peer): the receiver cancelled the stream. */
    STREAM_CANCELLED((byte) 0x70, false),
    /** Streams only: the receiver read too slowly for the stream's slow-consumer policy, which ended it. */
    SLOW_CONSUMER((byte) 0x71, false),
    /** Streams only: the provider is shutting down; open the stream again elsewhere. */
    SHUTTING_DOWN((byte) 0x72, false),
    /** A status byte this version does not know. */
    UNKNOWN((byte) 0x00, false);

    private static final Status[] BY_VALUE = new Status[256];

    static {
        for (Status status : values()) {
            if (status != UNKNOWN) {
                BY_VALUE[status.value & 0xff] = status;
            }
        }
    }

    private final byte value;
    private final boolean notProcessed;

    Status(byte value, boolean notProcessed) {
        this.value = value;
        this.notProcessed = notProcessed;
    }

    /** The wire byte. */
    public byte value() {
        return value;
    }

    /**
     * Whether this status proves the business method did not run, so that the call may be retried elsewhere
     * without risk of running twice.
     *
     * @deprecated the RPC meaning of a status belongs to the RPC layer: use
     *             {@code io.jupiter.rpc.exception.RpcException#isSafeToRetry()}; kept for compatibility
     */
    @Deprecated
    public boolean provesNotProcessed() {
        return notProcessed;
    }

    /** The status for a wire byte; {@link #UNKNOWN} for a byte with no status. */
    public static Status fromByte(byte value) {
        Status status = BY_VALUE[value & 0xff];
        return status == null ? UNKNOWN : status;
    }
}
