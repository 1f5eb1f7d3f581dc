package io.clrheap.golden.real;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.layout.view.GcDacVars;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetException;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.heap.WalkLimits;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Corruption planted in a real dump (net9-wks): every problem is reported with its address, the walk goes on where
 * it safely can, and what the dump cannot support is refused at open.
 */
class CorruptedRealDumpTest {

    private final RealDump real = RealDump.of("net9-wks");
    private final PatchedMemory memory = new PatchedMemory(real.core);

    private Target open() throws TargetException {
        return open(ProfileLoader.builtIn());
    }

    private Target open(ProfileLoader profiles) throws TargetException {
        return new TargetOpener(profiles).open(memory, real.core.mappedFiles(), Optional.empty());
    }

    private static PatchedWalk walk(Target target) {
        return PatchedWalk.of(target);
    }

    private Region region(SegmentKind kind) {
        return real.heap.regionsByAddress().stream().filter(r -> r.kind() == kind && r.end() != r.mem()).findFirst().orElseThrow();
    }

    @Test
    void aRegionListThatLoopsIsCutAndReported() throws TargetException {
        Region gen2 = region(SegmentKind.GEN2);
        long next = real.target.layout().offset("heap_segment", "next");
        memory.putLong(gen2.descriptor() + next, gen2.descriptor());
        PatchedWalk w = walk(open());
        assertThat(w.problems()).anyMatch(p -> p.kind() == ProblemKind.SEGMENT_CYCLE && p.address() == gen2.descriptor());
        assertThat(w.objects()).containsAll(real.walked.keySet());
    }

    @Test
    void aRegionListLeadingToMissingMemoryIsCutAndReported() throws TargetException {
        Region gen2 = region(SegmentKind.GEN2);
        memory.putLong(gen2.descriptor() + real.target.layout().offset("heap_segment", "next"), 0x0000_1234_0000_0000L);
        PatchedWalk w = walk(open());
        assertThat(w.problems()).anyMatch(p -> p.kind() == ProblemKind.UNREADABLE_STRUCTURE && p.address() == 0x0000_1234_0000_0000L
                && p.detail().contains("heap_segment cannot be read"));
        assertThat(w.objects()).containsAll(real.walked.keySet());
    }

    @Test
    void moreRegionsThanTheLimitAreNotFollowed() throws TargetException {
        DiscoveredHeap heap = new HeapDiscovery(open(), new WalkLimits(3, 1024, 1 << 20, 1 << 22, 64)).discover();
        assertThat(heap.regionsByAddress()).hasSize(3);
        assertThat(heap.problems()).anyMatch(p -> p.kind() == ProblemKind.TOO_MANY_REGIONS && p.detail().contains("more than 3 regions"));
    }

    @Test
    void aRegionWhoseEndIsBelowItsStartIsReportedAndNotWalked() throws TargetException {
        Region loh = region(SegmentKind.LOH);
        memory.putLong(loh.descriptor() + real.target.layout().offset("heap_segment", "allocated"), loh.mem() - 8);
        PatchedWalk w = walk(open());
        assertThat(w.problems()).anyMatch(p -> p.kind() == ProblemKind.BAD_REGION_BOUNDS && p.address() == loh.descriptor());
        assertThat(w.objects()).doesNotContain(loh.mem()).contains(region(SegmentKind.GEN2).mem());
    }

    @Test
    void aDumpTakenDuringAGcIsFlagged() throws TargetException {
        Target t = open();
        GcDacVars vars = t.views().view(GcDacVars.class, t.memory(), t.globalPointer("g_gcDacGlobals"));
        memory.putInt(vars.gcStructuresInvalidCnt(), 1);
        PatchedWalk w = walk(t);
        assertThat(w.heap().gcInProgress()).isTrue();
        assertThat(w.problems()).anyMatch(p -> p.kind() == ProblemKind.GC_IN_PROGRESS);
    }

    @Test
    void anAllocationContextWhosePointerPassesItsLimitIsIgnoredAndReported() throws TargetException {
        var context = real.heap.contexts().stream().filter(c -> c.inUse() && c.owner().startsWith("thread")).findFirst().orElseThrow();
        memory.putLong(context.location(), context.limit() + 0x100);
        PatchedWalk w = walk(open());
        assertThat(w.problems()).anyMatch(p -> p.kind() == ProblemKind.BAD_ALLOC_CONTEXT && p.address() == context.location());
    }

    @Test
    void aBadMethodTableIsReportedAndTheFollowingObjectsAreStillFound() throws TargetException {
        Region gen2 = region(SegmentKind.GEN2);
        List<Long> inRegion = real.walked.keySet().stream().filter(gen2::contains).sorted(Long::compareUnsigned).toList();
        long victim = inRegion.get(inRegion.size() / 2);
        memory.putLong(victim, 0x0000_6000_0000_0000L);
        PatchedWalk w = walk(open());
        assertThat(w.problems()).anyMatch(p -> p.kind() == ProblemKind.BAD_METHOD_TABLE && p.address() == victim
                && p.detail().contains("the walk resumes at"));
        long lastObject = inRegion.get(inRegion.size() - 1);
        assertThat(w.objects()).contains(lastObject).doesNotContain(victim);
    }

    @Test
    void aProfileOffsetThatDiffersFromThePublishedOneIsAProfileNoteNotAHeapProblemAndThePublishedOneIsUsed() throws TargetException {
        RealDump server = RealDump.of("net10-svr");
        // the build file of 10.0.9 gives its server gc_heap (profiles/builds/linux-x64-10.0.9.json)
        ProfileLoader wrong = new ProfileLoader(name -> builtInText(name).map(text -> name.equals("builds/linux-x64-10.0.9")
                ? text.replace("\"alloc_allocated\": [\"0x1458\"", "\"alloc_allocated\": [\"0x1450\"") : text));
        Target target = new TargetOpener(wrong).open(server.core, server.core.mappedFiles(), Optional.empty());
        assertThat(target.layout().offset("gc_heap", "alloc_allocated")).isEqualTo(0x1450);
        PatchedWalk w = walk(target);
        assertThat(w.heap().profileNotes()).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(ProblemKind.OFFSET_MISMATCH);
            assertThat(p.detail()).contains("gc_heap_field_offsets[0] (alloc_allocated) = 5208");
        });
        assertThat(w.problems()).noneMatch(p -> p.kind() == ProblemKind.OFFSET_MISMATCH);
        assertThat(w.objects()).containsAll(server.walked.keySet());
    }

    @Test
    void aThreadListThatLoopsIsCutAndReportedNotRefused() throws TargetException {
        long store = real.target.globalPointer("ThreadStore::s_pThreadStore");
        long first = real.target.memory().readPointer(store + real.target.layout().offset("ThreadStore", "FirstThreadLink"));
        memory.putLong(first, first);
        PatchedWalk w = walk(open());
        assertThat(w.problems()).anyMatch(p -> p.kind() == ProblemKind.BAD_THREAD_LIST && p.address() == first
                && p.detail().contains("does not end"));
    }

    @Test
    void aFreeObjectMethodTableOfTheWrongShapeRefusesTheDump() {
        long freeMt = real.heap.freeMethodTable();
        memory.putInt(freeMt + 4, 32);
        assertThatThrownBy(this::open).isInstanceOfSatisfying(TargetException.class,
                        e -> assertThat(e.kind()).isEqualTo(TargetException.Kind.UNSUPPORTED_BUILD))
                .hasMessageContaining("does not fit this dump").hasMessageContaining("BaseSize 32");
    }

    @Test
    void handleTablesInSlotsBeyondTheHeapCountAreFound() throws TargetException {
        RealDump server = RealDump.of("net10-svr");
        PatchedMemory patched = new PatchedMemory(server.core);
        Target t = new TargetOpener(ProfileLoader.builtIn()).open(patched, server.core.mappedFiles(), Optional.empty());
        var vars = t.views().view(GcDacVars.class, patched, t.globalPointer("g_gcDacGlobals"));
        long buckets = t.views().view(io.clrheap.layout.view.HandleTableMap.class, patched, vars.handleTableMap()).buckets();
        long tables = t.views().view(io.clrheap.layout.view.HandleTableBucket.class, patched, patched.readPointer(buckets)).tables();
        long second = patched.readPointer(tables + 8);
        patched.putLong(tables + 8, 0).putLong(tables + 16, second); // as with DATAS: 2 heaps' worth of handles over 3 processor slots
        var expected = new io.clrheap.walker.report.HandleTableWalker(server.target, 2).handles();
        var found = new io.clrheap.walker.report.HandleTableWalker(t, 2).handles();
        assertThat(found).hasSameSizeAs(expected).extracting(h -> h.handle()).containsExactlyElementsOf(expected.stream().map(h -> h.handle()).toList());
        assertThat(found).anyMatch(h -> h.table() == 2);
    }


    @Test
    void aFrozenSegmentClaimingATebibyteIsRejectedNotWalked() throws TargetException {
        Region frozen = real.heap.heaps().get(0).regions().get(0);
        assertThat(frozen.kind()).isEqualTo(SegmentKind.FROZEN);
        memory.putLong(frozen.descriptor() + real.target.layout().offset("heap_segment", "allocated"), frozen.mem() + (1L << 40));
        PatchedWalk w = walk(open());
        assertThat(w.problems()).anyMatch(p -> p.kind() == ProblemKind.BAD_REGION_BOUNDS && p.address() == frozen.descriptor());
        assertThat(w.objects()).doesNotContain(frozen.mem());
    }

    private static Optional<String> builtInText(String name) {
        try (var in = ProfileLoader.class.getResourceAsStream("/io/clrheap/layout/profiles/" + name + ".json")) {
            return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
