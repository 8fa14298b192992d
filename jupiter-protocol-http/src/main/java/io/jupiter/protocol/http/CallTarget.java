package io.jupiter.protocol.http;

import io.jupiter.rpc.ServiceKey;
import java.lang.reflect.Method;

/** The registered service and the method a foreign request calls. */
record CallTarget(ServiceKey key, Method method) {
}
