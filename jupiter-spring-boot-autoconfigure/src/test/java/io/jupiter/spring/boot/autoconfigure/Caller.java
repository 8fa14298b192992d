package io.jupiter.spring.boot.autoconfigure;

import io.jupiter.rpc.InvokeType;
import io.jupiter.spring.boot.JupiterReference;

/** A consumer bean: one proxy in a field, one through its constructor. */
public class Caller {

    @JupiterReference(address = "${greeter.address:}", timeoutMillis = 10_000)
    Greeter byField;

    final Greeter byConstructor;

    public Caller(@JupiterReference(address = "${greeter.address:}", timeoutMillis = 10_000,
            invokeType = InvokeType.SYNC) Greeter byConstructor) {
        this.byConstructor = byConstructor;
    }
}
