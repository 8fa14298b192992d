package io.jupiter.rpc.exception;

import io.jupiter.rpc.internal.StatusTable;


/**
 * The call was refused here, before anything was sent: client-side throttling
 * ({@link io.jupiter.rpc.cluster.ClientThrottling}) saw the proxy's providers refuse or time out most recent calls,
 * and sent this one nowhere so that a full provider is not hammered. A {@link ServerBusyException} (status
 * {@code SERVER_BUSY}, never sent by a provider here): code that handles a busy provider handles this too; the
 * message says it was local.
 */
public class ThrottledException extends ServerBusyException {

    private static final long serialVersionUID = 1L;

    public ThrottledException(String message) {
        super(StatusTable.SERVER_BUSY.status(), message);
    }
}
