package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.RawStreamPeer;
import io.jupiter.rpc.ServerStreamsAccess;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.testkit.Await;
import io.jupiter.transport.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.SubmissionPublisher;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Opens beyond the provider's {@code streamThreads} wait, in order, for a thread given back: served when one is,
 * refused {@code SERVER_BUSY} when their wait passes or when the waiting room (4,096 opens) is full. Real sockets on
 * 127.0.0.1; the methods hold their thread in a blocking iterator until their consumer ends its messages.
 */
@Timeout(120)
class StreamOpenWaitTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private final IntakeServiceImpl impl = new IntakeServiceImpl();
    private final ExecutorService callers = Executors.newCachedThreadPool();
    private JupiterServer server;
    private JupiterClient client;

    private IntakeService start(int streamThreads, long openWaitMillis) {
        server = JupiterServer.builder().host("127.0.0.1").port(0).streamThreads(streamThreads)
                .streamOpenWaitMillis(openWaitMillis).build();
        server.register(impl);
        server.start();
        client = JupiterClient.builder().build();
        return client.proxy(IntakeService.class).address("127.0.0.1", server.localAddress().getPort())
                .connections(1).timeoutMillis(WAIT.toMillis()).build();
    }

    @AfterEach
    void stop() throws InterruptedException {
        callers.shutdownNow();
        callers.awaitTermination(10, TimeUnit.SECONDS);
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void opensBeyondTheThreadsWaitTheirTurnAndAreServedAsThreadsAreGivenBack() throws Exception {
        IntakeService intake = start(2, WAIT.toMillis());
        List<SubmissionPublisher<Long>> feeds = new ArrayList<>();
        List<Future<Long>> sums = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            SubmissionPublisher<Long> feed = new SubmissionPublisher<>();
            feeds.add(feed);
            sums.add(callers.submit(() -> intake.sum(feed)));
        }
        Await.until("2 methods hold the threads, 10 opens wait", WAIT,
                () -> impl.summing() == 2 && ServerStreamsAccess.streamsHoldingAThread(server) == 2
                        && ServerStreamsAccess.opensWaitingForAThread(server) == 10);

        for (int i = 0; i < feeds.size(); i++) {
            feeds.get(i).submit((long) i);
            feeds.get(i).submit(1_000L);
            feeds.get(i).close();
        }
        for (int i = 0; i < sums.size(); i++) {
            assertThat(sums.get(i).get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("sum %d", i).isEqualTo(i + 1_000L);
        }
        Await.until("every thread given back, nothing waits", WAIT,
                () -> ServerStreamsAccess.streamsHoldingAThread(server) == 0
                        && ServerStreamsAccess.opensWaitingForAThread(server) == 0);
    }

    @Test
    void anOpenWhoseWaitPassesIsRefusedBusyAndTheBoundHolds() throws Exception {
        IntakeService intake = start(1, 300);
        SubmissionPublisher<Long> holder = new SubmissionPublisher<>();
        Future<Long> held = callers.submit(() -> intake.sum(holder));
        Await.until("one method holds the one thread", WAIT, () -> impl.summing() == 1);

        SubmissionPublisher<Long> late = new SubmissionPublisher<>();
        long started = System.nanoTime();
        assertThatThrownBy(() -> intake.sum(late)).isInstanceOfSatisfying(StreamException.class, e -> {
            assertThat(e.status()).isEqualTo(Status.SERVER_BUSY);
            assertThat(e.getMessage()).contains("provider busy: 1 streams hold a thread");
        });
        assertThat(System.nanoTime() - started).as("refused only once its wait passed")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
        assertThat(ServerStreamsAccess.opensWaitingForAThread(server)).isZero();
        assertThat(impl.summing()).as("the late method never ran").isEqualTo(1);

        holder.submit(7L);
        holder.close();
        assertThat(held.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(7L);
    }

    @Test
    void opensBeyondTheWaitingRoomAreRefusedAtOnceAndALostPeerFreesItsWaitingOpens() throws Exception {
        start(1, TimeUnit.MINUTES.toMillis(10)); // only the room's size refuses here
        int room = 4_096;
        int beyond = 50;
        try (RawStreamPeer peer = new RawStreamPeer(server.localAddress().getPort())) {
            for (int s = 1; s <= 1 + room + beyond; s++) {
                peer.open(s, "test", "intake", "sum");
            }
            peer.flush();
            int[] ends = peer.readEnds(beyond);
            assertThat(ends[Status.SERVER_BUSY.value() & 0xff]).isEqualTo(beyond);
            Await.until("one holds the thread, the room is full", WAIT,
                    () -> ServerStreamsAccess.streamsHoldingAThread(server) == 1
                            && ServerStreamsAccess.opensWaitingForAThread(server) == room);
            assertThat(impl.summing()).isEqualTo(1);
        }
        // The peer went away: its method's iterator hears it, and the thread runs through the dead opens at once.
        Await.until("every waiting open dropped, the thread given back", WAIT,
                () -> ServerStreamsAccess.opensWaitingForAThread(server) == 0
                        && ServerStreamsAccess.streamsHoldingAThread(server) == 0
                        && ServerStreamsAccess.openStreams(server) == 0);
        assertThat(impl.summing()).isZero();
    }
}
