package io.clrheap.generator.minidump;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.module.ModuleMapping;
import io.clrheap.emulator.space.Reservation;
import io.clrheap.memory.MemoryRange;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The emulated Windows process's user address space as VirtualQuery would walk it from 0 to the end of user space:
 * every region free, reserved or committed, with the allocation it belongs to, its protection and type — what a
 * MiniDumpWithFullMemoryInfo dump's MemoryInfoListStream lists, and, its committed regions, what a MiniDumpWithFullMemory
 * dump's memory holds. The regions tile [0, {@link #USER_END}) in address order, none overlapping.
 *
 * <p>How the emulated process's memory becomes regions:
 * <ul>
 *   <li>PE images — coreclr.dll and the assemblies' images, each the file mapping at offset 0 of
 *       {@link EmulatedRuntime#mappings()} — are image allocations of SizeOfImage bytes, committed whole, protected by
 *       section ({@link ImageSections}), type MEM_IMAGE;</li>
 *   <li>every other range the emulator reserved (the native heap, the loader heap, the GC's bookkeeping and reserve
 *       range, frozen segments, thread locals, handle segments, each thread's stack) is one private allocation (MEM_PRIVATE, PAGE_READWRITE):
 *       committed where the process wrote it, reserved elsewhere (the GC's uncommitted reserve range is MEM_RESERVE);
 *       a range the emulator reserved only to hold images (the assemblies' area) is no allocation of its own: what no
 *       image covers is free;</li>
 *   <li>each thread has its TEB page, one committed private allocation ({@link ThreadStack});</li>
 *   <li>what lies between allocations is free.</li>
 * </ul>
 */
final class VirtualMemoryMap {

    /**
     * Where the regions end: the page after lpMaximumApplicationAddress, 0x7FFFFFFEFFFF in a 64-bit Windows 10 process
     * (GetSystemInfo's SYSTEM_INFO; the 64 KiB below 128 TB stay out of reach), where VirtualQuery stops.
     */
    static final long USER_END = 0x7fff_ffff_0000L;

    private VirtualMemoryMap() {
    }

    /** One allocation: its regions, tiling [start, end). */
    private record Allocation(long start, long end, String what, List<MemoryRegion> regions) {
    }

    static List<MemoryRegion> of(EmulatedRuntime process, List<ThreadStack> stacks) {
        List<Allocation> allocations = new ArrayList<>();
        Set<Long> imageBases = new LinkedHashSet<>();
        for (ModuleMapping m : process.mappings()) {
            if (m.fileOffset() == 0 && !m.path().isEmpty()) {
                imageBases.add(m.start());
            }
        }
        List<Allocation> images = new ArrayList<>();
        for (long base : imageBases) {
            long end = base + ImageSections.sizeOfImage(process.memory(), base);
            images.add(new Allocation(base, end, "the image at 0x" + Long.toHexString(base), ImageSections.regions(process.memory(), base)));
        }
        allocations.addAll(images);
        List<MemoryRange> touched = process.memory().touchedRanges();
        for (Reservation r : process.memory().reservations()) {
            boolean holdsImages = images.stream().anyMatch(i -> Long.compareUnsigned(i.start() - r.start(), r.size()) < 0);
            if (!holdsImages) {
                allocations.add(new Allocation(r.start(), r.end(), r.name(), privateRegions(r.start(), r.end(), touched)));
            }
        }
        for (ThreadStack s : stacks) {
            allocations.add(new Allocation(s.teb(), s.teb() + ThreadStack.TEB_SIZE, "the TEB of thread " + s.threadId(),
                    List.of(privateRegion(s.teb(), s.teb(), s.teb() + ThreadStack.TEB_SIZE, MemoryRegion.MEM_COMMIT))));
        }
        allocations.sort(Comparator.comparing(Allocation::start, Long::compareUnsigned));
        List<MemoryRegion> regions = new ArrayList<>();
        long next = 0;
        Allocation previous = null;
        for (Allocation a : allocations) {
            if (Long.compareUnsigned(a.start(), next) < 0) {
                throw new IllegalStateException(String.format("%s [0x%x, 0x%x) overlaps %s [0x%x, 0x%x)", a.what(), a.start(), a.end(),
                        previous.what(), previous.start(), previous.end()));
            }
            if (Long.compareUnsigned(a.end(), USER_END) > 0) {
                throw new IllegalStateException(String.format("%s [0x%x, 0x%x) runs past the end of user space, 0x%x", a.what(), a.start(), a.end(), USER_END));
            }
            if (a.start() != next) {
                regions.add(MemoryRegion.free(next, a.start()));
            }
            regions.addAll(a.regions());
            next = a.end();
            previous = a;
        }
        if (next != USER_END) {
            regions.add(MemoryRegion.free(next, USER_END));
        }
        return List.copyOf(regions);
    }

    /** A private allocation [start, end): committed where {@code touched} (in address order) covers it, reserved elsewhere. */
    private static List<MemoryRegion> privateRegions(long start, long end, List<MemoryRange> touched) {
        List<MemoryRegion> regions = new ArrayList<>();
        long next = start;
        for (MemoryRange t : touched) {
            long a = Math.max(t.start(), start);
            long b = Math.min(t.start() + t.length(), end);
            if (a >= b) {
                continue;
            }
            if (a > next) {
                regions.add(privateRegion(start, next, a, MemoryRegion.MEM_RESERVE));
            }
            regions.add(privateRegion(start, a, b, MemoryRegion.MEM_COMMIT));
            next = b;
        }
        if (next < end) {
            regions.add(privateRegion(start, next, end, MemoryRegion.MEM_RESERVE));
        }
        return regions;
    }

    private static MemoryRegion privateRegion(long allocationBase, long start, long end, int state) {
        return new MemoryRegion(start, end - start, allocationBase, MemoryRegion.PAGE_READWRITE, state,
                state == MemoryRegion.MEM_COMMIT ? MemoryRegion.PAGE_READWRITE : 0, MemoryRegion.MEM_PRIVATE);
    }
}
