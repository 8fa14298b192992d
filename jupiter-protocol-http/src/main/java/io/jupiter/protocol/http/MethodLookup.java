package io.jupiter.protocol.http;

import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.protocol.ServiceCatalog;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds what a path {@code /{service}/{method}} calls: the service by its {@link ServiceKey#name()} (the interface's
 * name unless registered under another), the group and version when several are registered under that name, and
 * the public method of that name (by parameter count when overloaded); a name with an upper-case first letter that
 * names no method finds the method named with it lower-cased, as a {@code .proto}'s {@code rpc SayHello} is the
 * Java {@code sayHello}. A request it cannot place is refused here,
 * with the status the provider would send; nothing is read of its body.
 */
final class MethodLookup {

    private final ServiceCatalog catalog;

    MethodLookup(ServiceCatalog catalog) {
        this.catalog = catalog;
    }

    /**
     * The target of {@code service}/{@code method}; {@code group} and {@code version} may be {@code null} (any).
     *
     * @param argCount the number of arguments sent, or -1 when not known yet
     * @throws ForeignCallException SERVICE_NOT_FOUND or BAD_REQUEST, saying why
     */
    CallTarget find(String service, String method, String group, String version, int argCount) {
        List<ServiceCatalog.Entry> named = new ArrayList<>();
        for (ServiceCatalog.Entry entry : catalog.named(service)) {
            ServiceKey key = entry.key();
            if ((group == null || key.group().equals(group)) && (version == null || key.version().equals(version))) {
                named.add(entry);
            }
        }
        if (named.isEmpty()) {
            throw new ForeignCallException(StatusTable.SERVICE_NOT_FOUND.status(), "no service " + service
                    + (group == null ? "" : " in group " + group) + (version == null ? "" : " of version " + version));
        }
        if (named.size() > 1) {
            throw new ForeignCallException(StatusTable.BAD_REQUEST.status(), "service " + service + " is registered "
                    + named.size() + " times: name its group and version (" + named.stream().map(e -> e.key()
                    .toString()).toList() + ")");
        }
        ServiceCatalog.Entry entry = named.get(0);
        String name = method;
        if (!hasMethod(entry, name) && !name.isEmpty() && Character.isUpperCase(name.charAt(0))) {
            // A .proto's usual rpc name (SayHello) for the Java method (sayHello).
            name = Character.toLowerCase(name.charAt(0)) + name.substring(1);
        }
        Method found = null;
        int candidates = 0;
        for (Method m : entry.serviceInterface().getMethods()) {
            if (!m.getName().equals(name) || Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            candidates++;
            if (argCount < 0 || m.getParameterCount() == argCount) {
                if (found != null) {
                    throw new ForeignCallException(StatusTable.BAD_REQUEST.status(),
                            "method " + method + " of " + service
                            + " is overloaded with " + argCount + " parameters: not callable by name");
                }
                found = m;
            }
        }
        if (found == null) {
            throw new ForeignCallException(StatusTable.SERVICE_NOT_FOUND.status(), candidates == 0
                    ? "no method " + method + " in service " + service
                    : "method " + method + " of " + service + " takes no " + argCount + " arguments");
        }
        return new CallTarget(entry.key(), found);
    }

    private static boolean hasMethod(ServiceCatalog.Entry entry, String name) {
        for (Method m : entry.serviceInterface().getMethods()) {
            if (m.getName().equals(name) && !Modifier.isStatic(m.getModifiers())) {
                return true;
            }
        }
        return false;
    }
}
