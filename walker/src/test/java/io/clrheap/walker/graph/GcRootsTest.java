package io.clrheap.walker.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** gcroot counts what the GC counts as a root: handles that keep their object alive, the f-reachable queue, dependent links. */
class GcRootsTest {

    static final long A = 0x1000;
    static final long B = 0x2000;
    static final long C = 0x3000;
    static final long D = 0x4000;
    static final long HANDLE = 0x7f0000001000L;

    /** A → B; C → D; nothing refers to A or C. */
    private static HeapGraph graph() {
        return HeapGraph.of(new long[] {A, B, C, D}, new long[][] {{B}, {}, {D}, {}});
    }

    private static Root handle(RootKind kind, long target) {
        return new Root(kind, HANDLE, target, 0, 0);
    }

    @Test
    void aStrongHandleIsARootWithTheChainAndTheFieldOfEachStep() {
        List<RootPath> paths = GcRoots.paths(graph(), List.of(handle(RootKind.STRONG, A)), B, 10);

        assertThat(paths).singleElement().satisfies(p -> {
            assertThat(p.objects()).containsExactly(A, B);
            assertThat(p.offsets()).containsExactly(8);
        });
    }

    @Test
    void aWeakHandleReachingTheObjectIsNoRootButIsListedApart() {
        List<Root> roots = List.of(handle(RootKind.WEAK_LONG, A), handle(RootKind.WEAK_SHORT, B));

        assertThat(GcRoots.paths(graph(), roots, B, 10)).isEmpty();
        assertThat(GcRoots.notKeeping(graph(), roots, B, 10)).extracting(p -> p.root().kind()).containsExactly(RootKind.WEAK_SHORT, RootKind.WEAK_LONG);
    }

    @Test
    void onlyTheFReachableQueueKeepsAFinalizableObjectAlive() {
        Root registered = new Root(RootKind.FINALIZABLE, 0x5600_0000_0100L, A, 0, 0);
        Root ready = new Root(RootKind.FINALIZER, 0x5600_0000_0200L, C, 0, 0);

        assertThat(GcRoots.paths(graph(), List.of(registered, ready), B, 10)).isEmpty();
        assertThat(GcRoots.paths(graph(), List.of(registered, ready), D, 10)).singleElement().extracting(p -> p.root().kind()).isEqualTo(RootKind.FINALIZER);
        assertThat(GcRoots.notKeeping(graph(), List.of(registered, ready), B, 10)).singleElement().extracting(p -> p.root().kind())
                .isEqualTo(RootKind.FINALIZABLE);
    }

    @Test
    void aDependentHandlesSecondaryIsReachedThroughItsLivePrimary() {
        Root strong = handle(RootKind.PINNED, A);
        Root dependent = new Root(RootKind.DEPENDENT, HANDLE + 8, B, C, 0); // primary B (reached from A), secondary C

        List<RootPath> paths = GcRoots.paths(graph(), List.of(strong, dependent), D, 10);

        assertThat(paths).singleElement().satisfies(p -> {
            assertThat(p.root()).isEqualTo(strong);
            assertThat(p.objects()).containsExactly(A, B, C, D);
            assertThat(p.offsets()).containsExactly(8, GcRoots.DEPENDENT_LINK, 8);
        });
    }

    @Test
    void aDependentHandleWhosePrimaryNothingKeepsAliveIsNoRootOfItsSecondary() {
        Root dependent = new Root(RootKind.DEPENDENT, HANDLE, B, C, 0);

        assertThat(GcRoots.paths(graph(), List.of(dependent), D, 10)).isEmpty();
        assertThat(GcRoots.notKeeping(graph(), List.of(dependent), D, 10)).singleElement().satisfies(p -> assertThat(p.objects()).containsExactly(B, C, D));
    }

    @Test
    void pathsAreShortestFirstAndCappedAtMax() {
        List<Root> roots = List.of(handle(RootKind.STRONG, A), new Root(RootKind.STRONG, HANDLE + 8, B, 0, 0), new Root(RootKind.ASYNC_PINNED, HANDLE + 16, A, 0, 0));

        assertThat(GcRoots.paths(graph(), roots, B, 10)).extracting(RootPath::length).containsExactly(0, 1, 1);
        assertThat(GcRoots.paths(graph(), roots, B, 2)).hasSize(2);
        assertThat(GcRoots.paths(graph(), roots, B + 8, 10)).as("no object starts there").isEmpty();
    }
}
