package io.jupiter.rpc.internal.provider;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.exception.FlowControlException;
import io.jupiter.serialization.ClassNotTrustedException;
import io.jupiter.serialization.wire.LegacyClassNames;
import io.jupiter.serialization.wire.legacy.JupiterRemoteException;
import io.jupiter.transport.Status;
import org.junit.jupiter.api.Test;

/** The provider's one place that turns a throwable into a status: one default per stage, the table's rule. */
class ProviderFailuresTest {

    @Test
    void eachStageHasItsDefault() {
        IllegalStateException plain = new IllegalStateException("x");
        assertThat(ProviderFailures.statusOf(plain, ProviderFailures.Where.READ, null)).isEqualTo(Status.BAD_REQUEST);
        assertThat(ProviderFailures.statusOf(plain, ProviderFailures.Where.INTERCEPTOR, null))
                .isEqualTo(Status.SERVICE_UNEXPECTED_ERROR);
        assertThat(ProviderFailures.statusOf(plain, ProviderFailures.Where.METHOD, null))
                .isEqualTo(Status.SERVICE_UNEXPECTED_ERROR);
        assertThat(ProviderFailures.statusOf(plain, ProviderFailures.Where.COMPLETION, null))
                .isEqualTo(Status.SERVER_ERROR);
        assertThat(ProviderFailures.statusOf(plain, ProviderFailures.Where.RESPONSE, null))
                .isEqualTo(Status.SERVER_ERROR);
    }

    @Test
    void anInterceptorsRefusalByStatusKeepsItsStatusAndTravelsAsThe131Class() {
        FlowControlException refusal = new FlowControlException(Status.PROVIDER_FLOW_CONTROL, "too many");
        Status status = ProviderFailures.statusOf(refusal, ProviderFailures.Where.INTERCEPTOR, null);
        assertThat(status).isEqualTo(Status.PROVIDER_FLOW_CONTROL);
        Object body = ProviderFailures.bodyOf(refusal, ProviderFailures.Where.INTERCEPTOR, status);
        assertThat(body).isInstanceOf(JupiterRemoteException.class);
        assertThat(LegacyClassNames.legacyName(body.getClass().getName()))
                .isEqualTo("org.jupiter.rpc.exception.JupiterFlowControlException");
        assertThat(((Throwable) body).getMessage()).isEqualTo("too many");
        // Thrown by the method itself, the same exception is the method's failure and goes as itself.
        assertThat(ProviderFailures.statusOf(refusal, ProviderFailures.Where.METHOD, null))
                .isEqualTo(Status.SERVICE_UNEXPECTED_ERROR);
        assertThat(ProviderFailures.bodyOf(refusal, ProviderFailures.Where.METHOD, status)).isSameAs(refusal);
    }

    @Test
    void onlyAReadFailureThatBreaksTheFramingClosesTheConnection() {
        assertThat(ProviderFailures.breaksConnection(new IllegalStateException())).isTrue();
        assertThat(ProviderFailures.breaksConnection(
                new ClassNotTrustedException("protostuff", "com.example.Gadget"))).isFalse();
        assertThat(ProviderFailures.breaksConnection(new StackOverflowError())).isFalse();
    }
}
