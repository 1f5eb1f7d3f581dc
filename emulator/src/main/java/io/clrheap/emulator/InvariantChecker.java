package io.clrheap.emulator;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import io.clrheap.emulator.truth.AddressSet;
import io.clrheap.emulator.truth.GroundTruth;

/**
 * Checks what a heap must be to be walkable (docs/reference/clr-layouts.md section 17), on the ground truth and the memory of an
 * emulated process: every region's {@code [mem, end)} is tiled by its objects and the allocation contexts in it (gaps
 * are free objects); each object's MethodTable word in memory is the recorded one; every LOH object follows a
 * 32-byte padding free object and POH objects do not; every context lies inside a gen0 region; every handle's target
 * is an object, not a free one; free objects' lengths fit 32 bits; every region's {@code heap_segment} is its entry in
 * the GC's region map (see {@link #checkRegionMap}); every reference and every finalization queue entry points at an
 * object's start, never a free object's (see {@link #checkGraph}); every thread's stack holds its roots where the
 * ground truth says, and nothing else in its live part or registers points into the heap (see {@link #checkStacks}).
 *
 * <p>Long because it is one check per invariant of a walkable heap, each with the message that names what broke it.
 */
public final class InvariantChecker {

    private static final int MAX_VIOLATIONS = 100;

    private InvariantChecker() {
    }

    /** The violations found (at most 100), empty when the heap is well formed. */
    public static List<String> check(EmulatedRuntime runtime) {
        GroundTruth truth = runtime.groundTruth();
        Memory memory = runtime.memory();
        RuntimeLayout layout = runtime.layout();
        List<String> violations = new ArrayList<>();
        long reserve = layout.constant("alloc_context.tail_reserve");
        long padSize = layout.constant("loh.pad_size");
        long unmask = layout.constant("object.mt_unmask");
        List<GroundTruth.RegionInfo> regions = new ArrayList<>(truth.regions());
        regions.sort(Comparator.comparing(GroundTruth.RegionInfo::mem, Long::compareUnsigned));
        List<GroundTruth.ContextInfo> contexts = new ArrayList<>(truth.contexts());
        contexts.sort(Comparator.comparing(GroundTruth.ContextInfo::pointer, Long::compareUnsigned));
        java.util.Set<Long> handleTargets = new java.util.HashSet<>();
        truth.handles().forEach(h -> {
            handleTargets.add(h.target());
            if (h.secondary() != 0) {
                handleTargets.add(h.secondary());
            }
        });

        // one pass over the objects in address order, region by region
        AddressSet objectStarts = new AddressSet();
        var state = new Object() {
            int region = -1;
            long cursor;
            boolean afterPadding;
            int context;
        };
        truth.forEachObject((address, mt, size, generation, heap, kind) -> {
            if (violations.size() >= MAX_VIOLATIONS) {
                return;
            }
            GroundTruth.RegionInfo r = state.region < 0 ? null : regions.get(state.region);
            if (r == null || Long.compareUnsigned(address, r.end()) >= 0) {
                if (r != null) {
                    finishRegion(r, state.cursor, contexts, reserve, violations);
                }
                int next = state.region + 1;
                while (next < regions.size() && Long.compareUnsigned(regions.get(next).end(), address) <= 0) {
                    GroundTruth.RegionInfo skipped = regions.get(next);
                    finishRegion(skipped, skipped.mem(), contexts, reserve, violations);
                    next++;
                }
                if (next == regions.size() || Long.compareUnsigned(address, regions.get(next).mem()) < 0) {
                    violations.add(String.format("object 0x%x is in no region", address));
                    state.region = next - 1;
                    return;
                }
                state.region = next;
                r = regions.get(next);
                state.cursor = r.mem();
                state.afterPadding = false;
            }
            state.cursor = skipContexts(state.cursor, address, contexts, reserve);
            if (address != state.cursor) {
                violations.add(String.format("region 0x%x [0x%x, 0x%x): an object at 0x%x where the one before ends at 0x%x",
                        r.descriptor(), r.mem(), r.end(), address, state.cursor));
            }
            long mtWord = memory.readLong(address) & ~unmask;
            if (mtWord != mt) {
                violations.add(String.format("object 0x%x: memory says MethodTable 0x%x, the ground truth 0x%x", address, mtWord, mt));
            }
            if (r.generation() == 3 && kind == GroundTruth.Kind.OBJECT && !state.afterPadding) {
                violations.add(String.format("LOH object 0x%x does not follow a padding free object", address));
            }
            if (r.generation() == 4 && kind == GroundTruth.Kind.PADDING) {
                violations.add(String.format("POH object 0x%x is padding: the POH has none", address));
            }
            if (kind == GroundTruth.Kind.FREE || kind == GroundTruth.Kind.PADDING) {
                long length = memory.readLong(address + layout.offset("Array", "m_NumComponents"));
                if (length != size - layout.constant("free_object.base_size")) {
                    violations.add(String.format("free object 0x%x: its length says %d bytes, the ground truth %d", address, length + 24, size));
                }
                if (Long.compareUnsigned(length, 1L << 32) >= 0) {
                    violations.add(String.format("free object 0x%x: a length of %d does not fit the 32 bits walkers read", address, length));
                }
            }
            if (kind == GroundTruth.Kind.OBJECT) {
                handleTargets.remove(address); // a handle to a free object would be a dangling handle
                objectStarts.add(address);
            }
            state.afterPadding = kind == GroundTruth.Kind.PADDING && size == padSize;
            state.cursor = address + Math.max((size + 7) & -8L, layout.constant("object.min_size"));
        });
        if (state.region >= 0) {
            finishRegion(regions.get(state.region), state.cursor, contexts, reserve, violations);
        }
        for (int i = state.region + 1; i < regions.size(); i++) {
            finishRegion(regions.get(i), regions.get(i).mem(), contexts, reserve, violations);
        }
        for (GroundTruth.ContextInfo c : contexts) {
            boolean inside = regions.stream().anyMatch(r -> r.generation() == 0
                    && Long.compareUnsigned(c.pointer(), r.mem()) >= 0 && Long.compareUnsigned(c.limit() + reserve, r.end()) <= 0);
            if (!inside) {
                violations.add(String.format("the allocation context of %s [0x%x, 0x%x) is in no gen0 region", c.owner(), c.pointer(), c.limit()));
            }
        }
        for (long target : handleTargets) {
            violations.add(String.format("a handle points at 0x%x, where no object starts", target));
        }
        checkRegionMap(runtime, regions, violations);
        checkGraph(runtime, objectStarts, violations);
        checkStacks(runtime, regions, violations);
        return violations.size() > MAX_VIOLATIONS ? violations.subList(0, MAX_VIOLATIONS) : violations;
    }

    /** Every reference and every finalization queue entry points at an object's start (not a free object's). */
    private static void checkGraph(EmulatedRuntime runtime, AddressSet objectStarts, List<String> violations) {
        runtime.objectGraph().forEachReference((from, offset, to) -> {
            if (violations.size() < MAX_VIOLATIONS && !objectStarts.contains(to)) {
                violations.add(String.format("object 0x%x: the reference at +%d points at 0x%x, where no object starts", from, offset, to));
            }
        });
        for (GroundTruth.FinalizerInfo f : runtime.groundTruth().finalizers()) {
            if (!objectStarts.contains(f.object())) {
                violations.add(String.format("finalization queue slot 0x%x holds 0x%x, where no object starts", f.slot(), f.object()));
            }
        }
    }

    /**
     * The threads' stacks: {@code rsp} lies in its stack; every stack root's slot lies in {@code [rsp, base)} and holds
     * its value (a register root: the register does, and is one a scan reads), and the value lies in
     * {@code [object, object + size)} of an object; no other word of {@code [rsp, base)} and no other scanned register
     * points into a region or frozen segment ({@code [start, reserved)}); every stale slot lies below {@code rsp} and
     * holds the start of an object that is not live.
     */
    private static void checkStacks(EmulatedRuntime runtime, List<GroundTruth.RegionInfo> regions, List<String> violations) {
        GroundTruth truth = runtime.groundTruth();
        Memory memory = runtime.memory();
        java.util.Map<Long, Long> sizes = new java.util.HashMap<>();
        truth.stackRoots().forEach(r -> sizes.put(r.object(), -1L));
        truth.forEachObject((address, mt, size, generation, heap, kind) -> {
            if (kind == GroundTruth.Kind.OBJECT && sizes.containsKey(address)) {
                sizes.put(address, size);
            }
        });
        java.util.Set<Long> rootSlots = new java.util.HashSet<>();
        java.util.Set<String> rootRegisters = new java.util.HashSet<>();
        for (io.clrheap.emulator.truth.StackRoot r : truth.stackRoots()) {
            io.clrheap.emulator.truth.ThreadStack stack = truth.stacks().stream().filter(s -> s.osId() == r.osId()).findFirst().orElse(null);
            long size = sizes.get(r.object());
            if (stack == null) {
                violations.add(String.format("stack root %s of thread %d: the thread has no stack", r.root(), r.osId()));
                continue;
            }
            if (size < 0 || Long.compareUnsigned(r.value() - r.object(), size) >= 0) {
                violations.add(String.format("stack root %s of thread %d: 0x%x is not inside an object starting at 0x%x", r.root(), r.osId(), r.value(), r.object()));
            }
            if (r.register() != null) {
                rootRegisters.add(r.osId() + " " + r.register());
                if (!r.register().scanned() || stack.register(r.register()) != r.value()) {
                    violations.add(String.format("register root %s of thread %d: the register holds 0x%x, not 0x%x", r.root(), r.osId(),
                            stack.register(r.register()), r.value()));
                }
            } else {
                rootSlots.add(r.slot());
                if (Long.compareUnsigned(r.slot() - stack.rsp(), stack.base() - stack.rsp()) >= 0 || memory.readLong(r.slot()) != r.value()) {
                    violations.add(String.format("stack root %s of thread %d: not a slot of [rsp 0x%x, base 0x%x) holding 0x%x", r.root(), r.osId(),
                            stack.rsp(), stack.base(), r.value()));
                }
            }
        }
        long[] live = runtime.objectGraph().live();
        for (io.clrheap.emulator.truth.ThreadStack stack : truth.stacks()) {
            if (Long.compareUnsigned(stack.rsp() - stack.limit(), stack.base() - stack.limit()) >= 0 || (stack.rsp() & 7) != 0) {
                violations.add(String.format("thread %d: rsp 0x%x is not an aligned slot of its stack [0x%x, 0x%x)", stack.osId(), stack.rsp(), stack.limit(), stack.base()));
                continue;
            }
            for (long slot = stack.rsp(); Long.compareUnsigned(slot, stack.base()) < 0 && violations.size() < MAX_VIOLATIONS; slot += 8) {
                long value = memory.readLong(slot);
                if (!rootSlots.contains(slot) && inHeap(regions, value)) {
                    violations.add(String.format("thread %d: stack slot 0x%x holds 0x%x, in the heap, but is no stack root", stack.osId(), slot, value));
                }
            }
            for (io.clrheap.emulator.truth.CpuRegister reg : io.clrheap.emulator.truth.CpuRegister.values()) {
                if (reg.scanned() && !rootRegisters.contains(stack.osId() + " " + reg) && inHeap(regions, stack.register(reg))) {
                    violations.add(String.format("thread %d: %s holds 0x%x, in the heap, but is no register root", stack.osId(), reg.id(), stack.register(reg)));
                }
            }
            for (long slot : stack.staleSlots()) {
                long value = memory.readLong(slot);
                if (Long.compareUnsigned(slot - stack.limit(), stack.rsp() - stack.limit()) >= 0 || java.util.Arrays.binarySearch(live, value) >= 0
                        || !inHeap(regions, value)) {
                    violations.add(String.format("thread %d: stale slot 0x%x (0x%x) is not below rsp 0x%x holding a dead object", stack.osId(), slot, value, stack.rsp()));
                }
            }
        }
    }

    private static boolean inHeap(List<GroundTruth.RegionInfo> regions, long value) {
        for (GroundTruth.RegionInfo r : regions) {
            if (Long.compareUnsigned(value - r.start(), r.reserved() - r.start()) < 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The region map as the real dumps hold it (docs/reference/clr-layouts.md section 11a),
     * read from memory: the {@code card_table_info} header at the start of the "gc bookkeeping" reservation
     * gives the area's size and the GC range {@code [lowest, highest)}; every region's descriptor is
     * {@code base + (region start >> shift) * sizeof(heap_segment)} with one {@code base} for all regions, shift the
     * basic region size's log2; the entries of {@code [lowest, highest)} lie inside the area; the entries of a large
     * region's further basic regions hold {@code allocated} = -i, those of basic regions holding no region are zero;
     * frozen segments' descriptors lie outside the GC range and the area.
     */
    private static void checkRegionMap(EmulatedRuntime runtime, List<GroundTruth.RegionInfo> regions, List<String> violations) {
        RuntimeLayout layout = runtime.layout();
        Memory memory = runtime.memory();
        var area = runtime.memory().reservations().stream().filter(r -> r.name().equals("gc bookkeeping")).findFirst();
        if (area.isEmpty()) {
            violations.add("no gc bookkeeping reservation");
            return;
        }
        long bookkeeping = area.get().start();
        long areaSize = memory.readLong(bookkeeping + 0x08);
        long lowest = memory.readLong(bookkeeping + 0x18);
        long highest = memory.readLong(bookkeeping + 0x20);
        if (areaSize != area.get().size()) {
            violations.add(String.format("card_table_info at 0x%x: size 0x%x, the bookkeeping reservation 0x%x", bookkeeping, areaSize, area.get().size()));
        }
        int shift = Long.numberOfTrailingZeros(layout.constant("region.basic_size"));
        long entrySize = layout.type("heap_segment").size().orElseThrow();
        long allocatedAt = layout.offset("heap_segment", "allocated");
        long memAt = layout.offset("heap_segment", "mem");
        Long base = null;
        java.util.Map<Long, Long> unitOf = new java.util.HashMap<>(); // basic region start -> its index in its region (0 = first)
        for (GroundTruth.RegionInfo r : regions) {
            if (r.frozen()) {
                if (Long.compareUnsigned(r.descriptor() - lowest, highest - lowest) < 0
                        || Long.compareUnsigned(r.descriptor() - bookkeeping, areaSize) < 0) {
                    violations.add(String.format("frozen segment 0x%x: its heap_segment 0x%x is in the GC range or the bookkeeping area", r.mem(), r.descriptor()));
                }
                continue;
            }
            long b = r.descriptor() - (r.start() >>> shift) * entrySize;
            if (base == null) {
                base = b;
            } else if (b != base) {
                violations.add(String.format("region 0x%x: heap_segment 0x%x is not base 0x%x + (start >> %d) * 0x%x", r.start(), r.descriptor(), base, shift, entrySize));
            }
            for (long i = 0; i < (r.reserved() - r.start()) >>> shift; i++) {
                unitOf.put(r.start() + (i << shift), i);
            }
        }
        if (base == null) {
            return;
        }
        long first = base + (lowest >>> shift) * entrySize;
        long end = base + (highest >>> shift) * entrySize;
        if (Long.compareUnsigned(first, bookkeeping) < 0 || Long.compareUnsigned(end, bookkeeping + areaSize) > 0) {
            violations.add(String.format("the region map [0x%x, 0x%x) is not inside the bookkeeping area [0x%x, 0x%x)", first, end, bookkeeping, bookkeeping + areaSize));
            return;
        }
        for (long unit = lowest; Long.compareUnsigned(unit, highest) < 0 && violations.size() < MAX_VIOLATIONS; unit += 1L << shift) {
            long entry = base + (unit >>> shift) * entrySize;
            Long i = unitOf.get(unit);
            long allocated = memory.readLong(entry + allocatedAt);
            if (i == null && (allocated != 0 || memory.readLong(entry + memAt) != 0)) {
                violations.add(String.format("the region map entry 0x%x of 0x%x, where no region is, is not zero", entry, unit));
            } else if (i != null && i > 0 && allocated != -i) {
                violations.add(String.format("the region map entry 0x%x of 0x%x, basic region %d of its region, says allocated 0x%x, not -%d", entry, unit, i, allocated, i));
            }
        }
    }

    /** Past every allocation context that starts at {@code cursor} (chained ones too), up to {@code address}. */
    private static long skipContexts(long cursor, long address, List<GroundTruth.ContextInfo> contexts, long reserve) {
        boolean moved = true;
        while (moved && Long.compareUnsigned(cursor, address) < 0) {
            moved = false;
            GroundTruth.ContextInfo c = contextAt(contexts, cursor);
            if (c != null) {
                cursor = c.limit() + reserve;
                moved = true;
            }
        }
        return cursor;
    }

    private static void finishRegion(GroundTruth.RegionInfo r, long cursor, List<GroundTruth.ContextInfo> contexts, long reserve, List<String> violations) {
        long end = skipContexts(cursor, r.end(), contexts, reserve);
        if (end != r.end() && violations.size() < MAX_VIOLATIONS) {
            violations.add(String.format("region 0x%x: objects end at 0x%x, the region at 0x%x", r.descriptor(), end, r.end()));
        }
    }

    private static GroundTruth.ContextInfo contextAt(List<GroundTruth.ContextInfo> sorted, long address) {
        int lo = 0;
        int hi = sorted.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = Long.compareUnsigned(sorted.get(mid).pointer(), address);
            if (c == 0) {
                return sorted.get(mid);
            }
            if (c < 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return null;
    }
}
