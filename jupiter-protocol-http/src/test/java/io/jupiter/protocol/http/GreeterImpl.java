package io.jupiter.protocol.http;

import com.google.protobuf.Int64Value;
import com.google.protobuf.ListValue;
import com.google.protobuf.StringValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.jupiter.rpc.context.RpcContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

final class GreeterImpl implements Greeter {

    @Override
    public StringValue sayHello(StringValue name) {
        String tenant = RpcContext.attachment("tenant");
        String trace = RpcContext.attachment("trace-bin");
        return StringValue.of("Hello, " + name.getValue() + (tenant == null ? "" : " of " + tenant)
                + (trace == null ? "" : " traced " + trace));
    }

    @Override
    public Int64Value sleep(Int64Value millis) {
        long left = RpcContext.remainingMillis();
        try {
            Thread.sleep(millis.getValue());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Int64Value.of(left);
    }

    @Override
    public StringValue fail(StringValue why) {
        throw new IllegalArgumentException(why.getValue());
    }

    @Override
    public ListValue reverse(ListValue values) {
        List<Value> reversed = new ArrayList<>(values.getValuesList());
        Collections.reverse(reversed);
        return ListValue.newBuilder().addAllValues(reversed).build();
    }

    @Override
    public Struct annotate(Struct struct) {
        return struct.toBuilder().putFields("seen", Value.newBuilder().setBoolValue(true).build()).build();
    }

    @Override
    public String plain(String text) {
        return text;
    }
}
