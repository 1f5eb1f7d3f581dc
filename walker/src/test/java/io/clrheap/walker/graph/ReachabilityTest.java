package io.clrheap.walker.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What the next full GC keeps: the closure of the keeping roots, then of the still unreached finalization registrations. */
class ReachabilityTest {

    static final long A = 0x1000;
    static final long B = 0x2000;
    static final long C = 0x3000;
    static final long D = 0x4000;

    /** A → B; C → D. */
    private static final HeapGraph GRAPH = HeapGraph.of(new long[] {A, B, C, D}, new long[][] {{B}, {}, {D}, {}});

    private static long[] live(Root... roots) {
        return Reachability.live(GRAPH, List.of(roots)).stream().mapToLong(GRAPH::address).toArray();
    }

    @Test
    void anObjectOnlyAWeakHandleReachesIsNotLive() {
        assertThat(live(new Root(RootKind.WEAK_LONG, 0x10, A, 0, 0), new Root(RootKind.WEAK_SHORT, 0x18, C, 0, 0))).isEmpty();
    }

    @Test
    void anObjectRegisteredForFinalizationIsKeptWithWhatItReachesUntilItsFinalizerRuns() {
        assertThat(live(new Root(RootKind.FINALIZABLE, 0x20, C, 0, 0))).containsExactly(C, D);
    }

    @Test
    void aRegisteredObjectThatIsReachableAnywayIsLiveOnce() {
        assertThat(live(new Root(RootKind.STRONG, 0x10, A, 0, 0), new Root(RootKind.FINALIZABLE, 0x20, B, 0, 0))).containsExactly(A, B);
    }

    @Test
    void aDependentHandlesSecondaryLivesWhenAFinalizationRegistrationKeepsItsPrimary() {
        assertThat(live(new Root(RootKind.DEPENDENT, 0x10, C, A, 0), new Root(RootKind.FINALIZABLE, 0x20, C, 0, 0))).containsExactly(A, B, C, D);
    }
}
