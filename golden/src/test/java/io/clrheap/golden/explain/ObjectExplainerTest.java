package io.clrheap.golden.explain;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.explain.ObjectExplainer;
import io.clrheap.walker.explain.ObjectExplanation;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.walk.WalkRules;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code explain --object} agrees with the walker, object kind by object kind, on the every-edge scenario (strings,
 * arrays, free objects, multi-dimensional arrays, live allocation contexts): the size, the next object's address, the
 * region and the generation.
 */
class ObjectExplainerTest {

    private record Walked(long address, long mt, long size, Region region) {
    }

    private static Target target;
    private static DiscoveredHeap heap;
    private static TypeNames names;
    private static final List<Walked> WALKED = new ArrayList<>();

    @BeforeAll
    static void walk() throws Exception {
        EmulatedRuntime runtime = Emulated.build("every-edge", RuntimeVersion.NET10, GcFlavor.SERVER);
        target = Emulated.open(runtime, runtime.memory());
        heap = new HeapDiscovery(target).discover();
        names = TypeNames.of(runtime.typeNames());
        new HeapWalker(target.memory(), WalkRules.of(target.layout()), heap, WalkLimits.DEFAULT)
                .walk((address, mt, size, region) -> WALKED.add(new Walked(address, mt, size, region)));
    }

    private static ObjectExplanation explain(long address) {
        return new ObjectExplainer(target, heap, names).explain(address);
    }

    /** The walker's next object in the same region, or the region's end. */
    private static long following(int i) {
        Walked o = WALKED.get(i);
        return i + 1 < WALKED.size() && WALKED.get(i + 1).region().equals(o.region()) ? WALKED.get(i + 1).address() : o.region().end();
    }

    private static int first(Predicate<Walked> which) {
        for (int i = 0; i < WALKED.size(); i++) {
            if (which.test(WALKED.get(i))) {
                return i;
            }
        }
        throw new AssertionError("every-edge has no such object");
    }

    private static Predicate<Walked> named(Predicate<String> type) {
        return w -> type.test(names.display(w.mt(), heap.freeMethodTable()));
    }

    private static void agrees(int i, String kind) {
        Walked o = WALKED.get(i);
        ObjectExplanation e = explain(o.address());
        assertThat(e.kind()).isEqualTo(kind);
        assertThat(e.start()).isEqualTo(o.address());
        assertThat(e.size()).isEqualTo(o.size()).isEqualTo(e.walkerSize());
        assertThat(e.next()).isEqualTo(following(i));
        assertThat(e.region()).isEqualTo(o.region());
        assertThat(e.section().notes()).anyMatch(n -> n.contains("heap " + o.region().heap() + ", "));
    }

    @Test
    void aString() {
        agrees(first(named("System.String"::equals)), "string");
    }

    @Test
    void anArray() {
        agrees(first(named(t -> t.endsWith("[]"))), "array");
    }

    @Test
    void aFreeObject() {
        agrees(first(w -> w.mt() == heap.freeMethodTable()), "free object");
    }

    @Test
    void aMultiDimensionalArray() {
        agrees(first(named(t -> t.endsWith(",]"))), "multi-dimensional array");
    }

    @Test
    void anObjectJustBeforeAnAllocationContextIsFollowedByTheContextsEnd() {
        WalkRules rules = WalkRules.of(target.layout());
        int i = first(w -> heap.contexts().stream().anyMatch(c -> c.inUse() && c.pointer() == w.address() + rules.step(w.size())));
        Walked o = WALKED.get(i);
        AllocContextInfo c = heap.contexts().stream().filter(x -> x.inUse() && x.pointer() == o.address() + rules.step(o.size())).findFirst().orElseThrow();
        ObjectExplanation e = explain(o.address());
        assertThat(e.next()).isEqualTo(following(i)).isGreaterThanOrEqualTo(rules.contextEnd(c.limit()));
        assertThat(e.section().notes()).anyMatch(n -> n.contains("is alloc_ptr of the allocation context of " + c.owner()));
    }

    @Test
    void anAddressInsideAnObjectIsExplainedAsThatObject() {
        int i = first(w -> w.size() >= 32);
        Walked o = WALKED.get(i);
        ObjectExplanation e = explain(o.address() + 16);
        assertThat(e.start()).isEqualTo(o.address());
        assertThat(e.section().notes()).anyMatch(n -> n.contains("is not an object start"));
    }

    @Test
    void anAddressInAContextsUnusedSpaceNamesTheContext() {
        AllocContextInfo c = heap.contexts().stream().filter(x -> x.inUse() && x.limit() > x.pointer()).findFirst().orElseThrow();
        ObjectExplanation e = explain(c.pointer() + 8);
        assertThat(e.found()).isFalse();
        assertThat(e.context()).isEqualTo(c);
        assertThat(e.region()).isNotNull();
    }

    @Test
    void anAddressOutsideEveryRegionNamesTheNearest() {
        Region last = heap.regionsByAddress().getLast();
        ObjectExplanation e = explain(last.reserved() + 0x1000);
        assertThat(e.region()).isNull();
        assertThat(e.nearest()).isEqualTo(last);
    }
}
