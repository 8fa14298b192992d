package io.jupiter.rpc.internal.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.ServiceKey;
import io.jupiter.serialization.ArgumentTypeException;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.Test;

/**
 * What a stream's open needs of its method is computed once, when the service is registered: which names are stream
 * methods, what their opens may carry (the arguments without the consumer's stream), and where that stream goes.
 * The chain then looks it up per open, with no reflection.
 */
class ServiceEntryStreamMethodsTest {

    interface Mixed {
        String hello(String name);

        Flow.Publisher<String> ticks(int count);

        long sum(Flow.Publisher<Integer> numbers);

        Flow.Publisher<String> chat(String room, Flow.Publisher<String> lines);
    }

    interface Plain {
        String hello(String name);
    }

    private static ServiceEntry entry(Class<?> type, Object impl) {
        return new ServiceEntry(ServiceKey.of(type, ServiceKey.DEFAULT_VERSION), type, impl, false);
    }

    @Test
    void streamMethodsAndWhatTheirOpensCarryAreKnownAtRegistration() {
        ServiceEntry mixed = entry(Mixed.class, new Mixed() {
            @Override
            public String hello(String name) {
                return name;
            }

            @Override
            public Flow.Publisher<String> ticks(int count) {
                return null;
            }

            @Override
            public long sum(Flow.Publisher<Integer> numbers) {
                return 0;
            }

            @Override
            public Flow.Publisher<String> chat(String room, Flow.Publisher<String> lines) {
                return null;
            }
        });
        assertThat(mixed.hasStreamMethod()).isTrue();
        assertThat(mixed.openArgumentTypes("hello")).as("a plain method is no stream method").isNull();
        assertThat(mixed.argumentTypes("hello")).isNotNull();
        mixed.openArgumentTypes("ticks").checkValues(new Object[] {5});
        mixed.openArgumentTypes("sum").checkValues(new Object[0]);
        mixed.openArgumentTypes("chat").checkValues(new Object[] {"lobby"});
        assertThatThrownBy(() -> mixed.openArgumentTypes("chat").checkValues(new Object[] {"lobby", "x"}))
                .as("the consumer's stream is no argument of the open").isInstanceOf(ArgumentTypeException.class);

        MethodEntry chat = mixed.methods("chat")[0];
        assertThat(chat.streams).isTrue();
        assertThat(chat.inboundParameter).isEqualTo(1);
        assertThat(chat.inboundType).isEqualTo(String.class);
        assertThat(chat.answersOnce).isFalse();
        MethodEntry sum = mixed.methods("sum")[0];
        assertThat(sum.inboundParameter).isZero();
        assertThat(sum.inboundType).isEqualTo(Integer.class);
        assertThat(sum.answersOnce).as("client streaming: one answer").isTrue();
        MethodEntry ticks = mixed.methods("ticks")[0];
        assertThat(ticks.inboundParameter).isEqualTo(-1);
        assertThat(ticks.inboundType).isNull();
        assertThat(mixed.methods("hello")[0].streams).isFalse();
    }

    @Test
    void aServiceWithoutStreamMethodsHasNone() {
        ServiceEntry plain = entry(Plain.class, (Plain) name -> name);
        assertThat(plain.hasStreamMethod()).isFalse();
        assertThat(plain.openArgumentTypes("hello")).isNull();
    }
}
