package io.clrheap.golden.real;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.layout.GcFlavor;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.heap.ProblemKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The walker against the runtime's own list of live objects, on every real dump of golden/real/: the referee the
 * emulator is later held to.
 */
class RealDumpWalkTest {

    static final List<String> WALKABLE = RealDump.WALKABLE;
    static final List<String> V2 = RealDump.V2;

    @ParameterizedTest
    @FieldSource("WALKABLE")
    void everyLiveObjectIsFoundWithItsMethodTableAndSize(String name) {
        RealDump d = RealDump.of(name);
        List<String> wrong = new ArrayList<>();
        for (RealDump.LiveObject live : d.liveObjects()) {
            RealDump.WalkedObject w = d.walked.get(live.address());
            if (w == null || w.mt() != live.mt() || w.size() != live.size()) {
                wrong.add(String.format("0x%x %s: expected mt 0x%x size %d, walked %s", live.address(), live.type(), live.mt(), live.size(),
                        w == null ? "nothing" : String.format("mt 0x%x size %d", w.mt(), w.size())));
            }
        }
        assertThat(wrong).as("live objects missed or misread in %s", name).isEmpty();
    }

    @ParameterizedTest
    @FieldSource("WALKABLE")
    void theWalkMeetsNoProblem(String name) {
        RealDump d = RealDump.of(name);
        assertThat(d.problems).extracting(p -> p.describe()).isEmpty();
    }

    @ParameterizedTest
    @FieldSource("WALKABLE")
    void everyExtraObjectIsFreeOrHasAValidMethodTable(String name) {
        RealDump d = RealDump.of(name);
        Set<Long> live = d.liveObjects().stream().map(RealDump.LiveObject::address).collect(Collectors.toSet());
        List<RealDump.WalkedObject> extras = d.walked.values().stream()
                .filter(w -> !live.contains(w.address()) && w.mt() != d.heap.freeMethodTable()).toList();
        // dead objects: the runtime's snapshot lists live objects only. Their MethodTables must be real ones,
        // which the EEClass back pointer shows (docs/reference/discovery.md section 10)
        assertThat(extras).filteredOn(w -> !validMethodTable(d, w.mt())).isEmpty();
    }

    @ParameterizedTest
    @FieldSource("COMPACT")
    void aCompactedHeapHoldsOnlyTheLiveObjectsAndFreeObjects(String name) {
        RealDump d = RealDump.of(name);
        Set<Long> live = d.liveObjects().stream().map(RealDump.LiveObject::address).collect(Collectors.toSet());
        assertThat(d.walked.values()).filteredOn(w -> !live.contains(w.address()) && w.mt() != d.heap.freeMethodTable()).isEmpty();
        assertThat(d.walked.values()).filteredOn(w -> w.mt() == d.heap.freeMethodTable()).hasSize(6);
    }

    static final List<String> COMPACT = List.of("net10-compact");

    /** EEClassOrCanonMT → (canonical MT →) EEClass, whose MethodTable field points back to the canonical MT. */
    private static boolean validMethodTable(RealDump d, long mt) {
        var layout = d.target.layout();
        long link = layout.offset("MethodTable", "EEClassOrCanonMT");
        long back = layout.offset("EEClass", "MethodTable");
        var memory = d.target.memory();
        long e = memory.readPointer(mt + link);
        long canonical = mt;
        if ((e & layout.constant("method_table.eeclass_or_canon_mt.canon_bit")) != 0) {
            canonical = e & ~1L;
            e = memory.readPointer(canonical + link);
        }
        return memory.readPointer(e + back) == canonical;
    }

    @ParameterizedTest
    @FieldSource("WALKABLE")
    void everySelfReportedObjectIsFoundInItsGeneration(String name) {
        RealDump d = RealDump.of(name);
        List<RealDump.Reported> reported = d.reported("OBJ");
        assertThat(reported).isNotEmpty();
        for (RealDump.Reported r : reported) {
            RealDump.WalkedObject w = d.walked.get(r.address());
            assertThat(w).as("%s at 0x%x", r.label(), r.address()).isNotNull();
            assertThat(w.mt()).as("%s mt", r.label()).isEqualTo(r.mt());
            assertThat(w.size()).as("%s size", r.label()).isEqualTo(r.size());
            assertThat(generationOf(w.region())).as("%s generation (%s)", r.label(), w.region()).isEqualTo(r.generation());
        }
    }

    /** GC.GetGeneration: 0, 1, 2 (LOH and POH objects are generation 2), int.MaxValue for frozen objects. */
    static long generationOf(Region region) {
        return switch (region.kind()) {
            case GEN0 -> 0;
            case GEN1 -> 1;
            case GEN2, LOH, POH -> 2;
            case FROZEN -> Integer.MAX_VALUE;
        };
    }

    @ParameterizedTest
    @FieldSource("WALKABLE")
    void everyGarbageObjectIsFoundByTheWalk(String name) {
        RealDump d = RealDump.of(name);
        for (RealDump.Reported g : d.reported("GARBAGE")) {
            RealDump.WalkedObject w = d.walked.get(g.address());
            assertThat(w).as("garbage %s at 0x%x", g.label(), g.address()).isNotNull();
            assertThat(w.mt()).isEqualTo(g.mt());
            assertThat(w.size()).isEqualTo(g.size());
        }
    }

    @ParameterizedTest
    @FieldSource("WALKABLE")
    void theFlavourAndHeapCountAreThoseOfTheProcess(String name) {
        RealDump d = RealDump.of(name);
        boolean server = name.contains("svr") || name.contains("compact");
        assertThat(d.target.gc()).isEqualTo(server ? GcFlavor.SERVER : GcFlavor.WORKSTATION);
        assertThat(d.heap.heaps()).hasSize(server ? 2 : 1);
    }

    @ParameterizedTest
    @FieldSource("WALKABLE")
    void theFrozenSegmentHeadsHeap0sGen2ListAndItsObjectsAreWalked(String name) {
        RealDump d = RealDump.of(name);
        Region first = d.heap.heaps().get(0).regions().get(0);
        assertThat(first.kind()).isEqualTo(SegmentKind.FROZEN);
        assertThat(first.mem() - first.descriptor()).isNotZero();
        assertThat(d.walked.values()).anyMatch(w -> w.region().kind() == SegmentKind.FROZEN);
        for (RealDump.Reported r : d.reported("OBJ")) {
            if (r.generation() == Integer.MAX_VALUE) {
                assertThat(d.walked.get(r.address()).region().kind()).isEqualTo(SegmentKind.FROZEN);
            }
        }
    }

    @ParameterizedTest
    @FieldSource("WALKABLE")
    void everyLargeObjectFollowsA32ByteFreeObjectAndPinnedOnesDoNot(String name) {
        RealDump d = RealDump.of(name);
        long loh = 0;
        for (RealDump.WalkedObject w : d.walked.values()) {
            if (w.mt() == d.heap.freeMethodTable()) {
                continue;
            }
            if (w.region().kind() == SegmentKind.LOH) {
                RealDump.WalkedObject pad = d.walked.get(w.address() - 32);
                assertThat(pad).as("padding before LOH object 0x%x", w.address()).isNotNull();
                assertThat(pad.mt()).isEqualTo(d.heap.freeMethodTable());
                assertThat(pad.size()).isEqualTo(32);
                loh++;
            }
        }
        assertThat(loh).as("LOH objects in %s", name).isPositive();
        assertThat(d.walked.values()).anyMatch(w -> w.region().kind() == SegmentKind.POH && w.mt() != d.heap.freeMethodTable());
        d.heap.regionsByAddress().stream().filter(r -> r.kind() == SegmentKind.POH && r.end() != r.mem()).forEach(r ->
                assertThat(d.walked.get(r.mem()).mt()).as("first POH object of %s is not padding", r).isNotEqualTo(d.heap.freeMethodTable()));
    }

    private static final Pattern CONTEXT = Pattern.compile("alloc_ptr=(0x[0-9a-f]+) \\[found at (0x[0-9a-f]+), alloc_limit=(0x[0-9a-f]+)");

    @ParameterizedTest
    @FieldSource("V2")
    void everyThreadsAllocationContextIsFoundAndSkipped(String name) {
        RealDump d = RealDump.of(name);
        List<String> expected = d.lines("allocation-contexts.txt").stream().filter(l -> l.contains("found at")).toList();
        assertThat(expected).as("contexts listed in allocation-contexts.txt").hasSizeGreaterThanOrEqualTo(name.endsWith("compact") ? 0 : 5);
        for (String line : expected) {
            Matcher m = CONTEXT.matcher(line);
            assertThat(m.find()).as("format of: " + line).isTrue();
            long ptr = RealDump.hex(m.group(1));
            long at = RealDump.hex(m.group(2));
            long limit = RealDump.hex(m.group(3));
            AllocContextInfo c = d.heap.contexts().stream().filter(x -> x.location() == at).findFirst()
                    .orElseThrow(() -> new AssertionError("no context found at " + m.group(2) + " for: " + line));
            assertThat(c.pointer()).isEqualTo(ptr);
            assertThat(c.limit()).isEqualTo(limit);
            assertThat(d.walked.keySet()).as("nothing is walked inside the context of " + line)
                    .noneMatch(a -> Long.compareUnsigned(a, ptr) >= 0 && Long.compareUnsigned(a, limit + 24) < 0);
            Region region = d.heap.regionsByAddress().stream().filter(r -> r.contains(ptr)).findFirst().orElseThrow();
            if (limit + 24 < region.end()) {
                assertThat(d.walked).as("the walk resumes right after the context of " + line).containsKey(limit + 24);
            }
        }
    }

    private static final Pattern RANGE = Pattern.compile("GCGenerationRange phase=start heap=(\\d+) gen=(\\d) start=(0x[0-9a-f]+) end=(0x[0-9a-f]+)");

    @ParameterizedTest
    @FieldSource("V2")
    void everyRegionTheRuntimeReportsIsDiscovered(String name) {
        RealDump d = RealDump.of(name);
        Set<String> discovered = new HashSet<>();
        for (Region r : d.heap.regionsByAddress()) {
            if (r.kind() != SegmentKind.FROZEN) {
                discovered.add(r.heap() + " " + r.kind().generationTableIndex() + " 0x" + Long.toHexString(r.mem()));
            }
        }
        Set<String> reported = new HashSet<>();
        for (String line : d.lines("gc-events.txt")) {
            Matcher m = RANGE.matcher(line);
            if (m.find()) {
                reported.add(m.group(1) + " " + m.group(2) + " " + m.group(3));
            }
        }
        assertThat(reported).isNotEmpty();
        assertThat(discovered).containsExactlyInAnyOrderElementsOf(reported);
    }

    @ParameterizedTest
    @FieldSource("WALKABLE")
    void discoveryReportsNoOffsetDisagreement(String name) {
        assertThat(RealDump.of(name).heap.problems()).noneMatch(p -> p.kind() == ProblemKind.OFFSET_MISMATCH);
    }
}
