package io.jupiter.rpc.internal.provider;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.internal.provider.MethodDispatch.Mode;
import org.junit.jupiter.api.Test;

/** The rules by which an undeclared method moves between the provider pool and the IO threads. */
class MethodDispatchTest {

    private static final long FAST = 5_000;
    private static final long SLOW = MethodDispatch.FAST_NANOS;
    private static final long STALL = MethodDispatch.STALL_NANOS;

    @Test
    void aWindowWithAtMostOnePercentSlowCallsMovesTheMethodToTheIoThreads() {
        MethodDispatch dispatch = MethodDispatch.undeclared("S.m", true);
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
        MethodDispatch dispatch = MethodDispatch.undeclared("S.m", true);
        run(dispatch, 989, FAST);
        run(dispatch, 11, SLOW);
        assertThat(dispatch.mode()).isEqualTo(Mode.LEARNING);
        assertThat(dispatch.window()).isEqualTo(10 * MethodDispatch.FIRST_WINDOW);

        run(dispatch, 9_999, FAST);
        run(dispatch, 1, STALL);
        assertThat(dispatch.mode()).isEqualTo(Mode.LEARNING);
        assertThat(dispatch.window()).isEqualTo(MethodDispatch.MAX_WINDOW);

        run(dispatch, MethodDispatch.MAX_WINDOW, FAST);
        assertThat(dispatch.mode()).isEqualTo(Mode.IO_THREAD_LEARNED);
    }

    @Test
    void oneStallFailsAWindow() {
        MethodDispatch dispatch = MethodDispatch.undeclared("S.m", true);
        run(dispatch, 999, FAST);
        run(dispatch, 1, STALL);
        assertThat(dispatch.mode()).isEqualTo(Mode.LEARNING);
    }

    @Test
    void aStallOnAnIoThreadSendsTheMethodBackToLearnAgain() {
        MethodDispatch dispatch = MethodDispatch.undeclared("S.m", true);
        run(dispatch, MethodDispatch.FIRST_WINDOW, FAST);
        dispatch.ranOnIoThread(SLOW, false);
        assertThat(dispatch.runsOnIoThread()).isTrue();

        dispatch.ranOnIoThread(STALL, false);

        assertThat(dispatch.mode()).isEqualTo(Mode.LEARNING);
        assertThat(dispatch.window()).isEqualTo(MethodDispatch.FIRST_WINDOW);
        run(dispatch, MethodDispatch.FIRST_WINDOW, FAST);
        assertThat(dispatch.runsOnIoThread()).isTrue();
        assertThat(dispatch.moves()).isEqualTo(3);
    }

    @Test
    void waitingForASynchronousCallKeepsTheMethodOnThePoolForGood() {
        MethodDispatch learning = MethodDispatch.undeclared("S.m", true);
        learning.ranOnPool(FAST, true);
        run(learning, 2 * MethodDispatch.FIRST_WINDOW, FAST);
        assertThat(learning.mode()).isEqualTo(Mode.POOL_LEARNED);
        assertThat(learning.mayRunOnIoThread()).isFalse();

        MethodDispatch learned = MethodDispatch.undeclared("S.n", true);
        run(learned, MethodDispatch.FIRST_WINDOW, FAST);
        learned.ranOnIoThread(FAST, true);
        assertThat(learned.mode()).isEqualTo(Mode.POOL_LEARNED);
    }

    @Test
    void declaredMethodsAndMethodsNotLearnedNeverMove() {
        MethodDispatch onIo = MethodDispatch.declared("S.a", true);
        MethodDispatch onPool = MethodDispatch.declared("S.b", false);
        MethodDispatch notLearned = MethodDispatch.undeclared("S.c", false);
        for (MethodDispatch dispatch : new MethodDispatch[] {onIo, onPool, notLearned}) {
            run(dispatch, MethodDispatch.FIRST_WINDOW, FAST);
            dispatch.ranOnIoThread(STALL, true);
            assertThat(dispatch.timed()).isFalse();
            assertThat(dispatch.moves()).isZero();
        }
        assertThat(onIo.runsOnIoThread()).isTrue();
        assertThat(onPool.runsOnIoThread()).isFalse();
        assertThat(notLearned.mayRunOnIoThread()).isFalse();
    }

    private static void run(MethodDispatch dispatch, int calls, long nanos) {
        for (int i = 0; i < calls; i++) {
            dispatch.ranOnPool(nanos, false);
        }
    }
}
