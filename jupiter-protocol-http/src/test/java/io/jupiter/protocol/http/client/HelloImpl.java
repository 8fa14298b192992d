package io.jupiter.protocol.http.client;

import com.google.protobuf.StringValue;
import io.jupiter.rpc.context.RpcContext;

final class HelloImpl implements Hello {

    @Override
    public StringValue sayHello(StringValue name) {
        String tenant = RpcContext.attachment("tenant");
        return StringValue.of("Hello, " + name.getValue() + (tenant == null ? "" : " of " + tenant));
    }

    @Override
    public StringValue fail(StringValue why) {
        throw new IllegalArgumentException(why.getValue());
    }
}
