package io.clrheap.walker.discovery;

import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.heap.SubHeap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the regions a broken list hides, the way the GC itself finds a region's descriptor: with regions, every
 * region's {@code heap_segment} is an entry of the GC's region map ({@code seg_mapping_table}), at
 * {@code table + (region_start >> shift) × sizeof(heap_segment)} (gc.cpp {@code get_region_info}; measured on the real
 * dumps: net8-svr, 4 MiB units, 0xb8-byte entries; docs/reference/clr-layouts.md). The table's place and the unit are
 * not published: they are solved from the regions the intact lists give (every one must agree), then every entry
 * for {@code [g_lowest_address, g_highest_address)} (docs/reference/discovery.md section 4) is read, and an entry that
 * describes a region no list names — its {@code mem} just past the unit's start, its bounds in order and on unit
 * boundaries — is a recovered region, reported and walked. Its heap is its {@code heap_segment.heap} (server GC), its
 * generation its flags (LOH, POH) or {@code gen_num}.
 */
final class RegionMapRecovery {

    /** Units of 1 MiB to 64 MiB: the basic region sizes the GC chooses from (docs/reference/clr-layouts.md). */
    private static final int MIN_SHIFT = 20;
    private static final int MAX_SHIFT = 26;
    /** A region's first object lies this close to its start (sizeof(aligned_plug_and_gap) = 0x28 on every build). */
    private static final long MAX_HEADER = 0x1000;
    /** At most this many map entries are read (a 256 GiB range of 1 MiB units). */
    private static final long MAX_ENTRIES = 1L << 18;

    private final Chase chase;
    private final HeapRootsReader roots;
    private final int heapCount;
    private final long entrySize;
    private final FieldSpec mem;
    private final FieldSpec allocated;
    private final FieldSpec committed;
    private final FieldSpec reserved;
    private final FieldSpec flags;
    private final FieldSpec owner;
    private final FieldSpec genNum;
    private final long readonly;
    private final long loh;
    private final long poh;

    RegionMapRecovery(Chase chase, HeapRootsReader roots, int heapCount) {
        this.chase = chase;
        this.roots = roots;
        this.heapCount = heapCount;
        this.entrySize = chase.layout.type("heap_segment").size().orElse(0L);
        this.mem = chase.field("heap_segment", "mem");
        this.allocated = chase.field("heap_segment", "allocated");
        this.committed = chase.field("heap_segment", "committed");
        this.reserved = chase.field("heap_segment", "reserved");
        this.flags = chase.field("heap_segment", "flags");
        this.owner = chase.regionOwner();
        this.genNum = chase.layout.type("heap_segment").findField("gen_num").isPresent() ? chase.field("heap_segment", "gen_num") : null;
        this.readonly = chase.layout.constant("heap_segment.flags.readonly");
        this.loh = chase.layout.constant("heap_segment.flags.loh");
        this.poh = chase.layout.constant("heap_segment.flags.poh");
    }

    /** {@code heaps} with the regions the region map adds; {@code listed}: the descriptors the lists gave. */
    List<SubHeap> recover(List<SubHeap> heaps, Set<Long> listed) {
        List<Region> anchors = heaps.stream().flatMap(h -> h.regions().stream()).filter(r -> r.kind() != SegmentKind.FROZEN).toList();
        if (entrySize <= 0) {
            return heaps;
        }
        long[] solved = solve(anchors);
        if (solved == null) {
            chase.problem(ProblemKind.REGION_MAP_UNUSABLE, 0, "", anchors.isEmpty()
                    ? "no list gives an intact region to locate the region map with; the regions the broken lists hide are not recovered"
                    : "the listed regions do not agree on one region map (table + (start >> shift) × " + entrySize + "); nothing is recovered", null);
            return heaps;
        }
        long table = solved[0];
        int shift = (int) solved[1];
        long lowest;
        long highest;
        try {
            lowest = chase.globalPointer("g_lowest_address");
            highest = chase.globalPointer("g_highest_address");
        } catch (MissingMemoryException e) {
            chase.problem(ProblemKind.REGION_MAP_UNUSABLE, 0, "", "g_lowest_address / g_highest_address cannot be read (" + e.getMessage()
                    + "); nothing is recovered", chase.failedRead());
            return heaps;
        }
        long units = Long.compareUnsigned(highest, lowest) > 0 ? (highest - lowest) >>> shift : 0;
        if (units == 0 || units > MAX_ENTRIES) {
            chase.problem(ProblemKind.REGION_MAP_UNUSABLE, 0, "", String.format(
                    "[g_lowest_address 0x%x, g_highest_address 0x%x) spans %d units of 0x%x bytes, not 1..%d; nothing is recovered",
                    lowest, highest, units, 1L << shift, MAX_ENTRIES), null);
            return heaps;
        }
        List<long[]> covered = new ArrayList<>();
        for (Region r : anchors) {
            covered.add(new long[] {r.mem() & -(1L << shift), r.reserved()});
        }
        Map<Long, List<Found>> byOwner = new LinkedHashMap<>();
        long unit = 1L << shift;
        for (long start = lowest & -unit; Long.compareUnsigned(start, highest) < 0; start += unit) {
            if (inside(covered, start)) {
                continue;
            }
            long descriptor = table + (start >>> shift) * entrySize;
            if (listed.contains(descriptor) || !chase.memory.contains(descriptor, entrySize)) {
                continue;
            }
            Found found = read(descriptor, start, unit);
            if (found == null) {
                continue;
            }
            covered.add(new long[] {start, found.region.reserved()});
            byOwner.computeIfAbsent(found.owner, k -> new ArrayList<>()).add(found);
        }
        return merge(heaps, byOwner);
    }

    /** A region read from the map, and the gc_heap its descriptor names (0 under workstation GC). */
    private record Found(Region region, long owner, long start) {
    }

    /** The region the entry at {@code descriptor} describes, or null when it describes none starting at {@code start}. */
    private Found read(long descriptor, long start, long unit) {
        try {
            long first = chase.read(mem, descriptor);
            if (Long.compareUnsigned(first - start, MAX_HEADER) >= 0 || first == start) {
                return null;
            }
            long end = chase.read(allocated, descriptor);
            long commit = chase.read(committed, descriptor);
            long reserve = chase.read(reserved, descriptor);
            long bits = chase.read(flags, descriptor);
            boolean ordered = Long.compareUnsigned(first, end) <= 0 && Long.compareUnsigned(end, commit) <= 0
                    && Long.compareUnsigned(commit, reserve) <= 0 && Long.compareUnsigned(reserve, start) > 0 && ((reserve - start) & (unit - 1)) == 0;
            if (!ordered || (bits & readonly) != 0) {
                return null;
            }
            long heap = owner == null ? 0 : chase.read(owner, descriptor);
            SegmentKind kind = kind(descriptor, bits);
            return new Found(new Region(-1, kind, descriptor, first, end, end, commit, reserve, bits, false), heap, start);
        } catch (MissingMemoryException e) {
            return null;
        }
    }

    private SegmentKind kind(long descriptor, long bits) {
        if ((bits & loh) != 0) {
            return SegmentKind.LOH;
        }
        if ((bits & poh) != 0) {
            return SegmentKind.POH;
        }
        long gen = genNum == null ? 2 : chase.read(genNum, descriptor);
        return gen == 0 ? SegmentKind.GEN0 : gen == 1 ? SegmentKind.GEN1 : SegmentKind.GEN2;
    }

    /**
     * {table, shift} such that every anchor's descriptor is table + (start >> shift) × entry size, start its mem rounded
     * down to the unit; the profile's basic region size is tried first. Null when no unit fits every anchor.
     */
    private long[] solve(List<Region> anchors) {
        if (anchors.isEmpty()) {
            return null;
        }
        int preferred = Long.numberOfTrailingZeros(chase.layout.constant("region.basic_size"));
        List<Integer> shifts = new ArrayList<>();
        shifts.add(preferred);
        for (int s = MIN_SHIFT; s <= MAX_SHIFT; s++) {
            if (s != preferred) {
                shifts.add(s);
            }
        }
        for (int shift : shifts) {
            Region a = anchors.getFirst();
            long table = a.descriptor() - (a.mem() >>> shift) * entrySize;
            boolean fits = anchors.stream().allMatch(r -> r.descriptor() == table + (r.mem() >>> shift) * entrySize);
            if (fits) {
                return new long[] {table, shift};
            }
        }
        return null;
    }

    private static boolean inside(List<long[]> covered, long address) {
        for (long[] c : covered) {
            if (Long.compareUnsigned(address, c[0]) >= 0 && Long.compareUnsigned(address, c[1]) < 0) {
                return true;
            }
        }
        return false;
    }

    /** Adds each recovered region to the heap that owns it (a heap g_heaps does not list is read from its gc_heap); reported. */
    private List<SubHeap> merge(List<SubHeap> heaps, Map<Long, List<Found>> byOwner) {
        List<SubHeap> out = new ArrayList<>(heaps);
        for (Map.Entry<Long, List<Found>> e : byOwner.entrySet()) {
            long gcHeap = e.getKey();
            int at = -1;
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i).gcHeap() == gcHeap) {
                    at = i;
                }
            }
            SubHeap heap;
            if (at >= 0) {
                heap = out.get(at);
            } else {
                int index = unusedIndex(out);
                HeapRoots r = index < 0 ? null : roots.readOwner(index, gcHeap);
                if (r == null) {
                    chase.problem(ProblemKind.REGION_MAP_UNUSABLE, gcHeap, "", String.format(
                            "%d region(s) of the region map name gc_heap 0x%x, which cannot be read as a heap; they are not walked", e.getValue().size(), gcHeap),
                            owner == null ? null : owner.at(e.getValue().getFirst().region().descriptor()));
                    continue;
                }
                heap = new SubHeap(index, gcHeap, r.generationTable(), r.allocAllocated(), r.ephemeralSegment(), r.finalizeQueue(), List.of());
            }
            List<Region> regions = new ArrayList<>(heap.regions());
            for (Found f : e.getValue()) {
                Region found = f.region();
                boolean ephemeral = found.descriptor() == heap.ephemeralSegment();
                long end = ephemeral ? heap.allocAllocated() : found.end();
                Region r = new Region(heap.index(), found.kind(), found.descriptor(), found.mem(), end, found.allocated(), found.committed(),
                        found.reserved(), found.flags(), ephemeral);
                regions.add(r);
                chase.problem(ProblemKind.RECOVERED_REGION, r.descriptor(), r.toString(), String.format(
                        "no list names this region; found in the region map (the entry of the unit at 0x%x) and walked", f.start()), mem.at(r.descriptor()));
                if (chase.listening()) {
                    chase.emit(new RegionAccepted(r));
                }
            }
            SubHeap updated = new SubHeap(heap.index(), heap.gcHeap(), heap.generationTable(), heap.allocAllocated(), heap.ephemeralSegment(),
                    heap.finalizeQueue(), regions);
            if (at >= 0) {
                out.set(at, updated);
            } else {
                out.add(updated);
            }
        }
        out.sort((a, b) -> Integer.compare(a.index(), b.index()));
        return out;
    }

    /** The lowest heap number below the heap count no heap has; -1 when every one is taken. */
    private int unusedIndex(List<SubHeap> heaps) {
        for (int i = 0; i < Math.max(heapCount, 1); i++) {
            int n = i;
            if (heaps.stream().noneMatch(h -> h.index() == n)) {
                return i;
            }
        }
        return -1;
    }
}
