package io.clrheap.golden.real;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.layout.GcFlavor;
import io.clrheap.walker.discovery.DiscoveryEvent;
import io.clrheap.walker.discovery.DiscoveryRecorder;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.discovery.Read;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.SubHeap;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.explain.DiscoveryNarrator;
import io.clrheap.walker.explain.ExplainSection;
import io.clrheap.walker.explain.ExplainStep;
import io.clrheap.walker.explain.Narration;
import io.clrheap.walker.explain.ObjectExplainer;
import io.clrheap.walker.explain.ObjectExplanation;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.symbols.ElfDynamicSymbols;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code clrheap explain} on the real dumps: it renders the very reads the walk's discovery makes and lists the
 * regions and contexts the walk uses, each narrated value is what an independent read gives, every hex excerpt marks
 * exactly the field's bytes, and an object's explanation agrees with the walk.
 */
class RealDumpExplainTest {

    /** Every dump of golden/real that opens without --module. */
    static final List<String> WALKABLE = RealDump.WALKABLE;

    private static Narration narrate(String name) {
        return new DiscoveryNarrator(RealDump.of(name).target, false).narrate();
    }

    /** The events of a discovery run as the walk runs it (HeapDiscovery, default limits), with a recorder listening. */
    private static List<DiscoveryEvent> walkDiscoveryEvents(RealDump dump) {
        DiscoveryRecorder recorder = new DiscoveryRecorder();
        new HeapDiscovery(dump.target, WalkLimits.DEFAULT, recorder).discover();
        return recorder.events();
    }

    @ParameterizedTest
    @FieldSource("WALKABLE")
    void explainRendersTheEventsOfTheWalksDiscovery(String name) {
        RealDump dump = RealDump.of(name);
        assertThat(narrate(name).events()).isNotEmpty().isEqualTo(walkDiscoveryEvents(dump));
    }

    @ParameterizedTest
    @FieldSource("WALKABLE")
    void explainListsTheRegionsAndContextsOfTheHeapTheWalkUses(String name) {
        RealDump dump = RealDump.of(name);
        Narration n = narrate(name);
        assertThat(n.regions()).isNotEmpty().containsExactlyElementsOf(dump.heap.regionsByAddress());
        assertThat(n.contexts()).isNotEmpty().containsExactlyElementsOf(dump.heap.contexts());
    }

    @ParameterizedTest
    @FieldSource("WALKABLE")
    void aListeningDiscoveryFindsWhatTheWalksFinds(String name) {
        RealDump dump = RealDump.of(name);
        DiscoveredHeap listened = new HeapDiscovery(dump.target, WalkLimits.DEFAULT, new DiscoveryRecorder()).discover();
        assertThat(listened).isEqualTo(dump.heap);
    }

    @ParameterizedTest
    @FieldSource("WALKABLE")
    void everyHeapReadExplainShowsIsOneTheDiscoveryMade(String name) {
        Narration n = new DiscoveryNarrator(RealDump.of(name).target, true).narrate();
        Set<String> reads = n.events().stream().filter(e -> e instanceof Read r && r.ok())
                .map(e -> ((Read) e).site().address() + "=" + ((Read) e).value()).collect(Collectors.toSet());
        // the first sections say how the dump was opened (TargetOpener's reads); the chase starts after g_heap_type
        Set<String> opening = Set.of("runtime module", "DotNetRuntimeInfo", "version resource");
        List<ExplainStep> chase = n.sections().stream().filter(s -> !opening.contains(s.title()))
                .flatMap(s -> s.steps().stream()).filter(s -> !s.field().endsWith("] g_heap_type")).toList();
        assertThat(chase).isNotEmpty().allSatisfy(s -> assertThat(reads).as(s.field()).contains(s.address() + "=" + s.value()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"net8-svr", "net10-svr"})
    void theReadsAreTheSameWhetherOrNotEveryHeapAndThreadIsShown(String name) {
        Narration all = new DiscoveryNarrator(RealDump.of(name).target, true).narrate();
        Narration some = narrate(name);
        assertThat(some.sections()).hasSizeLessThan(all.sections().size());
        assertThat(some.events()).isEqualTo(all.events());
    }

    private static ExplainStep step(Narration n, String field) {
        return n.sections().stream().flatMap(s -> s.steps().stream()).filter(s -> s.field().equals(field)).findFirst().orElseThrow();
    }

    @ParameterizedTest
    @ValueSource(strings = {"net8-svr", "net9-wks", "net10-svr"})
    void theGDacTableReadsAreAtTheExportedAddress(String name) throws Exception {
        RealDump dump = RealDump.of(name);
        long exported = ElfDynamicSymbols.inMemory(dump.core, dump.target.module().base()).lookup("g_dacTable").orElseThrow().address();
        int index = dump.target.build().dacTable().indexOf("g_gcDacGlobals").orElseThrow();
        ExplainStep entry = step(narrate(name), "[" + index + "] g_gcDacGlobals");
        assertThat(entry.base()).isEqualTo(exported);
        assertThat(entry.address()).isEqualTo(exported + 8L * index);
        assertThat(entry.value()).isEqualTo(dump.target.globalAddress("g_gcDacGlobals"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"net8-svr", "net10-svr"})
    void nHeapsReadsTheHeapCount(String name) {
        RealDump dump = RealDump.of(name);
        ExplainStep nHeaps = step(narrate(name), "n_heaps");
        assertThat(dump.target.gc()).isEqualTo(GcFlavor.SERVER);
        assertThat(nHeaps.address()).isEqualTo(dump.target.globalPointer("g_gcDacGlobals") + dump.target.layout().offset("GcDacVars", "n_heaps"));
        assertThat(dump.core.readInt(nHeaps.value())).isEqualTo(dump.heap.heaps().size()).isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"net8-svr", "net9-wks", "net10-svr"})
    void theGenerationTableReadsFindEachHeapsTable(String name) {
        RealDump dump = RealDump.of(name);
        Narration n = new DiscoveryNarrator(dump.target, true).narrate();
        List<Long> tables = n.sections().stream().flatMap(s -> s.steps().stream()).filter(s -> s.field().equals("start_segment"))
                .map(s -> s.base()).filter(b -> dump.heap.heaps().stream().anyMatch(h -> h.generationTable() == b)).distinct().toList();
        assertThat(tables).containsExactlyElementsOf(dump.heap.heaps().stream().map(SubHeap::generationTable).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"net8-svr", "net9-wks", "net10-svr"})
    void everyHexExcerptMarksExactlyTheBytesRead(String name) {
        RealDump dump = RealDump.of(name);
        for (ExplainSection section : narrate(name).sections()) {
            for (ExplainStep s : section.steps()) {
                int size = s.excerpt().markLength();
                assertThat(s.excerpt().markStart()).as(s.field()).isEqualTo(s.address());
                byte[] read = dump.core.readBytes(s.address(), size);
                int[] marked = s.excerpt().markedBytes();
                assertThat(marked).as(s.field()).hasSize(size);
                for (int i = 0; i < size; i++) {
                    assertThat(marked[i]).as(s.field() + " byte " + i).isEqualTo(read[i] & 0xff);
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"net9-wks", "net10-svr"})
    void anObjectsExplanationAgreesWithTheWalk(String name) {
        RealDump dump = RealDump.of(name);
        List<RealDump.WalkedObject> objects = dump.walked.values().stream().sorted(Comparator.comparingLong(RealDump.WalkedObject::address)).toList();
        ObjectExplainer explainer = new ObjectExplainer(dump.target, dump.heap, TypeNames.none());
        for (int i = 0; i < objects.size(); i += Math.max(1, objects.size() / 50)) {
            RealDump.WalkedObject o = objects.get(i);
            ObjectExplanation e = explainer.explain(o.address());
            assertThat(e.start()).isEqualTo(o.address());
            assertThat(e.size()).isEqualTo(o.size());
            assertThat(e.methodTable()).isEqualTo(o.mt());
            assertThat(e.region()).isEqualTo(o.region());
            long following = i + 1 < objects.size() && objects.get(i + 1).region().equals(o.region()) ? objects.get(i + 1).address() : o.region().end();
            assertThat(e.next()).as("after 0x%x", o.address()).isEqualTo(following);
        }
    }
}
