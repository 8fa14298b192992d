package io.jupiter.rpc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.internal.AdaptiveDispatch.Mode;
import org.junit.jupiter.api.Test;

/** The rules by which an undeclared method moves between the provider pool and the IO threads. */
class AdaptiveDispatchRulesTest {

    private static final long FAST = 5_000;
    private static final long SLOW = AdaptiveDispatch.FAST_NANOS;
    private static final long STALL = AdaptiveDispatch.STALL_NANOS;
    private static final long LONG_STALL = AdaptiveDispatch.LONG_STALL_NANOS;

    @Test
    void aWindowWithAtMostOnePercentSlowCallsMovesTheMethodToTheIoThreads() {
        AdaptiveDispatch dispatch = AdaptiveDispatch.undeclared("S.m", true);
        run(dispatch, 990, FAST);
        run(dispatch, 9, SLOW);
        assertThat(dispatch.runsOnIoThread()).isFalse();

        run(dispatch, 1, SLOW);

        assertThat(dispatch.mode()).isEqualTo(Mode.IO_THREAD_LEARNED);
        assertThat(dispatch.runsOnIoThread()).isTrue();
        assertThat(dispatch.moves()).isEqualTo(1);
    }

    @Test
    void aFailedWindowMakesTheNextTenTimesLongerUpToTheMost() {
        AdaptiveDispatch dispatch = AdaptiveDispatch.undeclared("S.m", true);
        run(dispatch, 989, FAST);
        run(dispatch, 11, SLOW);
        assertThat(dispatch.mode()).isEqualTo(Mode.LEARNING);
        assertThat(dispatch.window()).isEqualTo(10 * AdaptiveDispatch.FIRST_WINDOW);

        // 10,000 calls tolerate 20 stalls (one in 500); 21 fail the window.
        run(dispatch, 9_979, FAST);
        run(dispatch, 21, STALL);
        assertThat(dispatch.mode()).isEqualTo(Mode.LEARNING);
        assertThat(dispatch.window()).isEqualTo(AdaptiveDispatch.MAX_WINDOW);

        run(dispatch, AdaptiveDispatch.MAX_WINDOW, FAST);
        assertThat(dispatch.mode()).isEqualTo(Mode.IO_THREAD_LEARNED);
    }

    @Test
    void aWindowToleratesOneStallInFiveHundredCalls() {
        // A pause (a garbage collection, a preempted thread) stalls the calls running at the time, which are fast.
        AdaptiveDispatch paused = AdaptiveDispatch.undeclared("S.m", true);
        run(paused, 998, FAST);
        run(paused, 2, STALL);
        assertThat(paused.mode()).isEqualTo(Mode.IO_THREAD_LEARNED);

        AdaptiveDispatch blocking = AdaptiveDispatch.undeclared("S.n", true);
        run(blocking, 997, FAST);
        run(blocking, 3, STALL);
        assertThat(blocking.mode()).isEqualTo(Mode.LEARNING);
        assertThat(blocking.window()).isEqualTo(10 * AdaptiveDispatch.FIRST_WINDOW);
    }

    @Test
    void stallsCountAsSlowCalls() {
        AdaptiveDispatch dispatch = AdaptiveDispatch.undeclared("S.m", true);
        run(dispatch, 989, FAST);
        run(dispatch, 9, SLOW);
        run(dispatch, 2, STALL);
        assertThat(dispatch.mode()).isEqualTo(Mode.LEARNING);
    }

    @Test
    void aStallSoonAfterTheMoveSendsTheMethodBackForALongerWindow() {
        AdaptiveDispatch dispatch = AdaptiveDispatch.undeclared("S.m", true);
        run(dispatch, AdaptiveDispatch.FIRST_WINDOW, FAST);
        dispatch.ranOnIoThread(SLOW, false);
        assertThat(dispatch.runsOnIoThread()).isTrue();

        dispatch.ranOnIoThread(STALL, false);
        assertThat(dispatch.runsOnIoThread()).isTrue();
        dispatch.ranOnIoThread(STALL, false);

        assertThat(dispatch.mode()).isEqualTo(Mode.LEARNING);
        assertThat(dispatch.window()).isEqualTo(10 * AdaptiveDispatch.FIRST_WINDOW);
        run(dispatch, AdaptiveDispatch.FIRST_WINDOW, FAST);
        assertThat(dispatch.runsOnIoThread()).isFalse();
        run(dispatch, 9 * AdaptiveDispatch.FIRST_WINDOW, FAST);
        assertThat(dispatch.runsOnIoThread()).isTrue();
        assertThat(dispatch.moves()).isEqualTo(3);
    }

    @Test
    void aStallAfterAWindowOfCallsOnTheIoThreadsStartsAgainFromTheFirstWindow() {
        AdaptiveDispatch dispatch = AdaptiveDispatch.undeclared("S.m", true);
        run(dispatch, 989, FAST);
        run(dispatch, 11, SLOW);
        assertThat(dispatch.window()).isEqualTo(10 * AdaptiveDispatch.FIRST_WINDOW);
        run(dispatch, 10 * AdaptiveDispatch.FIRST_WINDOW, FAST);
        for (int i = 0; i < 10 * AdaptiveDispatch.FIRST_WINDOW; i++) {
            dispatch.ranOnIoThread(FAST, false);
        }

        dispatch.ranOnIoThread(LONG_STALL, false);

        assertThat(dispatch.mode()).isEqualTo(Mode.LEARNING);
        assertThat(dispatch.window()).isEqualTo(AdaptiveDispatch.FIRST_WINDOW);
        run(dispatch, AdaptiveDispatch.FIRST_WINDOW, FAST);
        assertThat(dispatch.runsOnIoThread()).isTrue();
    }

    @Test
    void onTheIoThreadsOneStallInFiveHundredCallsIsToleratedAndOneLongStallIsNot() {
        AdaptiveDispatch dispatch = AdaptiveDispatch.undeclared("S.m", true);
        run(dispatch, AdaptiveDispatch.FIRST_WINDOW, FAST);
        for (int stall = 0; stall < 3; stall++) {
            for (int i = 0; i < AdaptiveDispatch.CALLS_PER_STALL; i++) {
                dispatch.ranOnIoThread(FAST, false);
            }
            dispatch.ranOnIoThread(STALL, false);
            assertThat(dispatch.runsOnIoThread()).as("stall %d", stall).isTrue();
        }
        dispatch.ranOnIoThread(STALL, false);
        assertThat(dispatch.runsOnIoThread()).isFalse();

        AdaptiveDispatch blocked = AdaptiveDispatch.undeclared("S.n", true);
        run(blocked, AdaptiveDispatch.FIRST_WINDOW, FAST);
        blocked.ranOnIoThread(LONG_STALL, false);
        assertThat(blocked.runsOnIoThread()).isFalse();
    }

    @Test
    void waitingForASynchronousCallKeepsTheMethodOnThePoolForGood() {
        AdaptiveDispatch learning = AdaptiveDispatch.undeclared("S.m", true);
        learning.ranOnPool(FAST, true);
        run(learning, 2 * AdaptiveDispatch.FIRST_WINDOW, FAST);
        assertThat(learning.mode()).isEqualTo(Mode.POOL_LEARNED);
        assertThat(learning.mayRunOnIoThread()).isFalse();

        AdaptiveDispatch learned = AdaptiveDispatch.undeclared("S.n", true);
        run(learned, AdaptiveDispatch.FIRST_WINDOW, FAST);
        learned.ranOnIoThread(FAST, true);
        assertThat(learned.mode()).isEqualTo(Mode.POOL_LEARNED);
    }

    @Test
    void declaredMethodsAndMethodsNotLearnedNeverMove() {
        AdaptiveDispatch onIo = AdaptiveDispatch.declared("S.a", true);
        AdaptiveDispatch onPool = AdaptiveDispatch.declared("S.b", false);
        AdaptiveDispatch notLearned = AdaptiveDispatch.undeclared("S.c", false);
        for (AdaptiveDispatch dispatch : new AdaptiveDispatch[] {onIo, onPool, notLearned}) {
            run(dispatch, AdaptiveDispatch.FIRST_WINDOW, FAST);
            dispatch.ranOnIoThread(STALL, true);
            assertThat(dispatch.timed()).isFalse();
            assertThat(dispatch.moves()).isZero();
        }
        assertThat(onIo.runsOnIoThread()).isTrue();
        assertThat(onPool.runsOnIoThread()).isFalse();
        assertThat(notLearned.mayRunOnIoThread()).isFalse();
    }

    private static void run(AdaptiveDispatch dispatch, int calls, long nanos) {
        for (int i = 0; i < calls; i++) {
            dispatch.ranOnPool(nanos, false);
        }
    }
}
