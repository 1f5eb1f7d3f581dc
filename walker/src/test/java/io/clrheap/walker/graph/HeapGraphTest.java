package io.clrheap.walker.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A graph's neighbours are read by object, without edge index arithmetic. */
class HeapGraphTest {

    static final long A = 0x7f0000001000L;
    static final long B = 0x7f0000002000L;
    static final long C = 0x7f0000003000L;
    static final long D = 0x7f0000004000L;

    /** A → B, C (fields +0x8, +0x10); B → C (+0x8); C → nothing; D → A, C (+0x8, +0x10). */
    private static HeapGraph graph() {
        return HeapGraph.of(new long[] {A, B, C, D}, new long[][] {{B, C}, {C}, {}, {A, C}});
    }

    @Test
    void referencesListAnObjectsTargetsInFieldOrderWithTheirOffsets() {
        HeapGraph g = graph();

        assertThat(g.references(g.indexOf(A))).containsExactly(new Edge(0, 1, 8), new Edge(0, 2, 16));
        assertThat(g.references(g.indexOf(A)).stream().map(e -> g.address(e.target()))).containsExactly(B, C);
    }

    @Test
    void anObjectWithoutReferencesHasAnEmptyList() {
        HeapGraph g = graph();

        assertThat(g.references(g.indexOf(C))).isEmpty();
    }

    @Test
    void referrersListEveryObjectReferringToItInAddressOrderWithTheField() {
        HeapGraph g = graph();

        assertThat(g.referrers(g.indexOf(C))).containsExactly(new Edge(0, 2, 16), new Edge(1, 2, 8), new Edge(3, 2, 16));
        assertThat(g.referrers(g.indexOf(A))).containsExactly(new Edge(3, 0, 8));
        assertThat(g.referrers(g.indexOf(D))).isEmpty();
    }

    @Test
    void referrersAreTheReferencesReversed() {
        HeapGraph g = graph();
        long forward = 0;
        for (int o = 0; o < g.objects(); o++) {
            for (Edge e : g.references(o)) {
                assertThat(g.referrers(e.target())).contains(e);
                forward++;
            }
        }
        long backward = 0;
        for (int o = 0; o < g.objects(); o++) {
            backward += g.referrers(o).size();
        }
        assertThat(backward).isEqualTo(forward).isEqualTo(g.references());
    }

    @Test
    void edgeEndIsTheNextObjectsFirstEdgeAndTheLastObjectsEndIsTheEdgeCount() {
        HeapGraph g = graph();

        for (int o = 0; o < g.objects(); o++) {
            assertThat(g.edgeEnd(o)).isEqualTo(g.firstEdge(o + 1)).isEqualTo(g.firstEdge(o) + g.references(o).size());
        }
        assertThat(g.firstEdge(g.objects())).isEqualTo(g.references());
        assertThatThrownBy(() -> g.edgeEnd(g.objects())).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void anEdgePrintsItsFieldOffsetInHex() {
        assertThat(new Edge(0, 2, 0x30)).hasToString("Edge[object 0 -> object 2, field +0x30]");
    }
}
