package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.filter.Deadlines;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.jupiter.rpc.internal.stream.SilenceDeadline;
import io.jupiter.rpc.metrics.RpcMetrics;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last check before the interceptors and the method run, after any queue. A call whose deadline passed while it
 * waited is dropped, unanswered (the consumer has given up and would discard the response; counted as
 * {@code deadline.expired}); so is a call its consumer cancelled ({@link CancelledCalls}; counted as
 * {@code call.cancelled} when its deadline had not passed too). A stream's open arms its deadline and its readers'
 * silence deadlines from the open's attachments instead: the stream ends {@code SERVER_TIMEOUT} when one passes
 * (armed before the method runs: a blocking reader may never return).
 */
final class DeadlineStage extends ProviderStage {

    private static final Logger log = LoggerFactory.getLogger(DeadlineStage.class);

    private final RpcMetrics metrics;

    DeadlineStage(RpcMetrics metrics, ProviderStage next) {
        super(next);
        this.metrics = metrics;
    }

    @Override
    void serve(ProviderRequest request) {
        if (request.opensStream()) {
            armStreamDeadlines(request);
            next.serve(request);
            return;
        }
        // Taken first either way, so a cancel is forgotten once its call is here.
        boolean cancelled = request.cancelled();
        if (request.deadlinePassed()) {
            DefaultInvocation invocation = request.invocation();
            metrics.deadlineExpired();
            log.debug("dropping request {} from {} ({}): its deadline passed {} ms ago, before it could run",
                    request.id(), request.connection().remoteAddress(), invocation, -invocation.remainingMillis());
            return;
        }
        if (cancelled) {
            metrics.callCancelled(); // dropped unanswered: its consumer stopped waiting and said so
            return;
        }
        next.serve(request);
    }

    private static void armStreamDeadlines(ProviderRequest request) {
        Map<String, String> sent = request.message.getAttachments();
        if (sent == null) {
            return;
        }
        long deadlineNanos = Deadlines.fromAttachment(sent.get(Deadlines.KEY), request.receivedNanos());
        if (deadlineNanos != 0) {
            request.stream().deadline(deadlineNanos);
        }
        long producerFirst = SilenceDeadline.millis(sent, SilenceDeadline.FIRST_MESSAGE_KEY);
        long producerIdle = SilenceDeadline.millis(sent, SilenceDeadline.IDLE_KEY);
        long consumerFirst = SilenceDeadline.millis(sent, SilenceDeadline.CONSUMER_FIRST_MESSAGE_KEY);
        long consumerIdle = SilenceDeadline.millis(sent, SilenceDeadline.CONSUMER_IDLE_KEY);
        if ((producerFirst | producerIdle | consumerFirst | consumerIdle) != 0) {
            request.stream().silenceDeadlines(request.receivedNanos(), producerFirst, producerIdle, consumerFirst,
                    consumerIdle);
        }
    }
}
