package io.clrheap.golden.real;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.explain.DiscoveryNarrator;
import io.clrheap.walker.explain.Narration;
import io.clrheap.walker.heap.FieldRead;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetException;
import io.clrheap.walker.runtime.TargetOpener;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Corruption planted in a real dump (net9-wks): the problem discovery raises names the read that caused it (the
 * structure, field, address and where the offset comes from), and {@code clrheap explain} shows the same problem.
 */
class DiscoveryProblemReadTest {

    private final RealDump real = RealDump.of("net9-wks");
    private final PatchedMemory memory = new PatchedMemory(real.core);
    private final long next = real.target.layout().offset("heap_segment", "next");

    private Target open() throws TargetException {
        return new TargetOpener(ProfileLoader.builtIn()).open(memory, real.core.mappedFiles(), Optional.empty());
    }

    private Region gen2() {
        return real.heap.regionsByAddress().stream().filter(r -> r.kind() == SegmentKind.GEN2 && r.end() != r.mem()).findFirst().orElseThrow();
    }

    private static Problem problem(Target target, ProblemKind kind) {
        return new HeapDiscovery(target).discover().problems().stream().filter(p -> p.kind() == kind).findFirst().orElseThrow();
    }

    /** The region's next points back at itself. */
    private Target cycle(Region region) throws TargetException {
        memory.putLong(region.descriptor() + next, region.descriptor());
        return open();
    }

    @Test
    void aRegionListCycleNamesTheNextReadThatClosedIt() throws TargetException {
        Region gen2 = gen2();
        Problem p = problem(cycle(gen2), ProblemKind.SEGMENT_CYCLE);
        assertThat(p.cause()).isEqualTo(new FieldRead("heap_segment", "next", gen2.descriptor(), next, "profile, dump: E:all"));
        assertThat(p.describe()).endsWith(String.format("; read heap_segment.next at 0x%x (offset 0x%x: profile, dump: E:all)",
                gen2.descriptor() + next, next));
    }

    @Test
    void anUnreadableHeapSegmentNamesTheReadThatFoundItsMemoryMissing() throws TargetException {
        long nowhere = 0x0000_1234_0000_0000L;
        memory.putLong(gen2().descriptor() + next, nowhere);
        Problem p = problem(open(), ProblemKind.UNREADABLE_STRUCTURE);
        assertThat(p.address()).isEqualTo(nowhere);
        assertThat(p.cause().structure()).isEqualTo("heap_segment");
        assertThat(p.cause().base()).isEqualTo(nowhere);
        assertThat(p.describe()).contains(String.format("; read heap_segment.allocated at 0x%x (offset 0x0: profile, dump: E:all)", nowhere));
    }

    @Test
    void aThreadListThatDoesNotEndNamesTheLinkNextReadThatLoopedIt() throws TargetException {
        var layout = real.target.layout();
        long store = real.target.globalPointer("ThreadStore::s_pThreadStore");
        long first = real.target.memory().readPointer(store + layout.offset("ThreadStore", "FirstThreadLink"));
        long linkNext = layout.offset("Thread", "LinkNext");
        memory.putLong(first, first); // the first Thread's m_Link (its LinkNext field) points at itself
        Problem p = problem(open(), ProblemKind.BAD_THREAD_LIST);
        var provenance = layout.field("Thread", "LinkNext").provenance();
        assertThat(p.cause()).isEqualTo(new FieldRead("Thread", "LinkNext", first - linkNext, linkNext,
                "profile, " + provenance.certainty().id() + ": " + provenance.sourceKey()));
    }

    @Test
    void explainShowsTheProblemWithTheReadThatCausedIt() throws TargetException {
        Target target = cycle(gen2());
        Problem p = problem(target, ProblemKind.SEGMENT_CYCLE);
        Narration n = new DiscoveryNarrator(target, false).narrate();
        assertThat(n.sections()).filteredOn(s -> !s.title().equals("result"))
                .anySatisfy(s -> assertThat(s.notes()).contains("problem: " + p.describe()));
        assertThat(n.sections().getLast().notes()).contains("problem: " + p.describe());
    }
}
