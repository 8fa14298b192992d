package io.jupiter.protocol.http;

/**
 * A whole HTTP/JSON answer, the same over HTTP/1.1 and HTTP/2: its HTTP status and its JSON body (the result, or
 * {@code {"status": ..., "message": ...}}).
 */
record JsonResponse(int status, byte[] body) {

    /** Whether it refuses an unknown caller ({@code 401}: the response says {@code WWW-Authenticate: Bearer}). */
    boolean unauthorized() {
        return status == StatusCodes.HTTP_UNAUTHORIZED;
    }
}
