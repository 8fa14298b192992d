package io.jupiter.rpc.internal.stream;

import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.stream.StreamOptions;
import io.jupiter.rpc.stream.StreamProducer;
import io.jupiter.rpc.stream.StreamSink;
import io.jupiter.transport.Status;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@link io.jupiter.rpc.stream.Streams#produce} returns: a producer body that a stream runs on a thread of its
 * own once the receiver first asks for messages, writing to a {@link StreamSink} over the stream's
 * {@link OutboundStream}.
 *
 * <p>Subscribed to in process (a provider's implementation called directly), it runs the body on a new thread with a
 * sink that waits for the subscriber's demand, whatever the policy.
 *
 * @param <T> the message type
 */
public final class ProducingPublisher<T> implements Flow.Publisher<T>, StreamSource {

    private static final Logger log = LoggerFactory.getLogger(ProducingPublisher.class);

    private final StreamOptions options;
    private final StreamProducer<T> producer;

    public ProducingPublisher(StreamOptions options, StreamProducer<T> producer) {
        this.options = options;
        this.producer = producer;
    }

    @Override
    public StreamOptions options() {
        return options;
    }

    @Override
    public void start(OutboundStream stream, Executor producers) {
        // Nothing is produced before the receiver asks: a drop or fail policy would otherwise act on a receiver that
        // has not had the time to ask for anything.
        stream.onFirstCredit(() -> {
            try {
                producers.execute(() -> run(stream));
            } catch (StreamThreads.Busy e) {
                stream.end(StatusTable.SERVER_BUSY.status(), e.getMessage());
            } catch (RejectedExecutionException e) {
                stream.end(StatusTable.SHUTTING_DOWN.status(), "the provider is shutting down");
            }
        });
    }

    private void run(OutboundStream stream) {
        Thread thread = Thread.currentThread();
        // A producer blocked elsewhere than in send (a queue, a sleep) hears of the stream's end by an interrupt.
        stream.onEnd((status, reason) -> {
            if (status != Status.OK) {
                thread.interrupt();
            }
        });
        try {
            producer.produce(new Sink<>(stream));
            stream.complete();
        } catch (StreamException e) {
            log.debug("{}: the producer stopped: {}", stream, e.getMessage());
        } catch (InterruptedException e) {
            stream.end(StatusTable.SERVER_ERROR.status(), "the producer was interrupted");
        } catch (Exception | Error e) {
            stream.end(StatusTable.SERVICE_UNEXPECTED_ERROR.status(), e.toString());
        } finally {
            Thread.interrupted(); // an interrupt meant for this stream must not reach the thread's next task
        }
    }

    @Override
    public void subscribe(Flow.Subscriber<? super T> subscriber) {
        LocalProducer.start(producer, subscriber);
    }

    /** The sink over a stream. */
    private record Sink<T>(OutboundStream stream) implements StreamSink<T> {

        @Override
        public boolean send(T message) throws InterruptedException {
            return stream.send(message);
        }

        @Override
        public void complete() {
            stream.complete();
        }

        @Override
        public void fail(Throwable error) {
            stream.end(StatusTable.SERVICE_UNEXPECTED_ERROR.status(), String.valueOf(error));
        }

        @Override
        public boolean isOpen() {
            return stream.isOpen();
        }
    }
}
