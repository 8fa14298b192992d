package io.jupiter.spring.xml;

import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Invocation;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts the requests it sees: proves that an interceptor named in XML runs. */
public class CountingInterceptor implements Interceptor {

    final AtomicInteger seen = new AtomicInteger();

    @Override
    public void beforeInvoke(Invocation invocation) {
        seen.incrementAndGet();
    }
}
