package io.clrheap.golden.explain;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.process.NativeCalls;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.discovery.InProcessDiscovery;
import io.clrheap.walker.discovery.InProcessRoute;
import io.clrheap.walker.discovery.Read;
import io.clrheap.walker.explain.ExplainStep;
import io.clrheap.walker.explain.ExplainText;
import io.clrheap.walker.explain.InProcessNarrator;
import io.clrheap.walker.explain.Narration;
import io.clrheap.walker.explain.NativeCallRecord;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The in-process narration on emulated server and workstation processes. */
class InProcessNarratorTest {

    private record Told(Narration narration, String text, InProcessRoute route, DiscoveredHeap heap) {
    }

    private static Told tell(GcFlavor gc) throws Exception {
        EmulatedRuntime runtime = Emulated.build("frozen-segments", RuntimeVersion.NET9, gc);
        NativeCalls calls = runtime.nativeCalls();
        Narration n = new InProcessNarrator(Emulated.open(runtime, calls.memory()), calls, true).narrate();
        StringWriter text = new StringWriter();
        ExplainText.print(n, new PrintWriter(text));
        // a fresh session, undisturbed by the narration: the route the discovery takes on its own
        NativeCalls fresh = runtime.nativeCalls();
        InProcessDiscovery discovery = new InProcessDiscovery(Emulated.open(runtime, fresh.memory()), fresh);
        DiscoveredHeap heap = discovery.discover();
        return new Told(n, text.toString(), discovery.route(), heap);
    }

    private static NativeCallRecord call(Told t, long function) {
        return t.narration().calls().stream().filter(c -> c.function() == function).findFirst().orElseThrow();
    }

    @ParameterizedTest
    @EnumSource(GcFlavor.class)
    void everyCallbackRangeIsListed(GcFlavor gc) throws Exception {
        Told t = tell(gc);
        List<List<Long>> callbacks = call(t, t.route().descrGenerations()).callbacks();
        assertThat(callbacks).hasSize(t.route().ranges());
        for (List<Long> c : callbacks) {
            assertThat(t.text()).contains(String.format(Locale.ROOT, "gen%d  mem 0x%x  allocated 0x%x  reserved 0x%x", c.get(1), c.get(2), c.get(3), c.get(4)));
        }
    }

    @ParameterizedTest
    @EnumSource(GcFlavor.class)
    void theNarratedRouteIsTheOneInProcessDiscoveryTakes(GcFlavor gc) throws Exception {
        Told t = tell(gc);
        InProcessRoute r = t.route();
        assertThat(t.text()).contains(String.format(Locale.ROOT, "GCHeap                       at 0x%x", r.gcHeap()),
                String.format(Locale.ROOT, "IGCHeap vtable               at 0x%x", r.vtable()),
                String.format(Locale.ROOT, "0x%x", r.descrGenerations()),
                "the route InProcessDiscovery took (narrated above)");
        assertThat(t.narration().regions()).containsExactlyElementsOf(t.heap().regionsByAddress());
    }

    @ParameterizedTest
    @EnumSource(GcFlavor.class)
    void everyReadShownIsOneInProcessDiscoveryMade(GcFlavor gc) throws Exception {
        Told t = tell(gc);
        Set<String> reads = t.narration().events().stream().filter(e -> e instanceof Read r && r.ok())
                .map(e -> ((Read) e).site().address() + "=" + ((Read) e).value()).collect(Collectors.toSet());
        // RegisterFrozenSegment's section reads back the segment_info discovery wrote: the narrator's own reads
        List<ExplainStep> shown = t.narration().sections().stream().filter(s -> !s.title().equals("RegisterFrozenSegment"))
                .flatMap(s -> s.steps().stream()).toList();
        assertThat(shown).isNotEmpty().allSatisfy(s -> assertThat(reads).as(s.field()).contains(s.address() + "=" + s.value()));
    }

    @ParameterizedTest
    @EnumSource(GcFlavor.class)
    void theFrozenSegmentsAreFoundAfterTheRegisteredDummy(GcFlavor gc) throws Exception {
        Told t = tell(gc);
        NativeCallRecord register = t.narration().calls().stream().filter(c -> c.arguments().size() == 2 && c.result() != 0).findFirst().orElseThrow();
        assertThat(t.text()).contains(String.format(Locale.ROOT, "the dummy frozen segment     at 0x%x", register.result()), "UnregisterFrozenSegment");
        t.narration().regions().stream().filter(r -> r.kind() == io.clrheap.walker.heap.SegmentKind.FROZEN)
                .forEach(r -> assertThat(t.text()).contains(String.format(Locale.ROOT, "frozen segment: objects [0x%x, 0x%x)", r.mem(), r.end())));
    }

    @ParameterizedTest
    @EnumSource(GcFlavor.class)
    void theGcHeapComesFromGcReserved1UnderServerGcAndFromGPGcHeapUnderWorkstationGc(GcFlavor gc) throws Exception {
        Told t = tell(gc);
        if (gc == GcFlavor.SERVER) {
            assertThat(t.text()).contains(String.format(Locale.ROOT, "gc_reserved_1 = 0x%x: the GCHeap this thread allocates on", t.route().gcHeap()));
        } else {
            assertThat(t.text()).contains("workstation GC never sets gc_reserved_1", "g_pGCHeap");
        }
    }
}
