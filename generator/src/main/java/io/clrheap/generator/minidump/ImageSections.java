package io.clrheap.generator.minidump;

import io.clrheap.memory.Memory;
import java.util.ArrayList;
import java.util.List;

/**
 * The regions a PE image mapped at {@code base} occupies, as the Windows loader protects its pages: the headers
 * read-only, each section by its characteristics (IMAGE_SCN_MEM_EXECUTE 0x20000000, IMAGE_SCN_MEM_READ 0x40000000,
 * IMAGE_SCN_MEM_WRITE 0x80000000: Microsoft, "PE Format", "Section Flags"), every page committed, the allocation the
 * image's SizeOfImage; neighbours with one protection are one region, as VirtualQuery joins them. A written section is
 * PAGE_READWRITE (the pages the process wrote; pages of a writable section never written read as PAGE_WRITECOPY on
 * Windows, a distinction the emulated process, which wrote its module whole, does not have). Read from the image's
 * own headers in the process memory: {@code e_lfanew} at 0x3c, NumberOfSections at +6 and SizeOfOptionalHeader at +20
 * of the COFF header, SizeOfImage at +56 of the PE32+ optional header, section headers of 40 bytes (VirtualSize at 8,
 * VirtualAddress at 12, Characteristics at 36).
 */
final class ImageSections {

    private static final long PAGE = 0x1000;
    private static final long SCN_MEM_EXECUTE = 0x2000_0000L;
    private static final long SCN_MEM_READ = 0x4000_0000L;
    private static final long SCN_MEM_WRITE = 0x8000_0000L;

    private ImageSections() {
    }

    /** The image's SizeOfImage, read from its optional header. */
    static long sizeOfImage(Memory memory, long base) {
        long nt = base + memory.readU32(base + 0x3c);
        return memory.readU32(nt + 24 + 56);
    }

    /** The image's regions, in address order, tiling [base, base + SizeOfImage). */
    static List<MemoryRegion> regions(Memory memory, long base) {
        long nt = base + memory.readU32(base + 0x3c);
        int sections = memory.readU16(nt + 6);
        long table = nt + 24 + memory.readU16(nt + 20);
        long end = base + sizeOfImage(memory, base);
        List<MemoryRegion> pieces = new ArrayList<>();
        long next = end;
        for (int i = 0; i < sections; i++) {
            next = Math.min(next, base + memory.readU32(table + 40L * i + 12));
        }
        piece(pieces, base, base, next, MemoryRegion.MEM_COMMIT, MemoryRegion.PAGE_READONLY); // the headers
        for (int i = 0; i < sections; i++) {
            long header = table + 40L * i;
            long start = base + memory.readU32(header + 12);
            long stop = Math.min(end, start + align(memory.readU32(header + 8)));
            if (start > next) {
                piece(pieces, base, next, start, MemoryRegion.MEM_RESERVE, 0); // no section there: nothing committed
            }
            piece(pieces, base, start, stop, MemoryRegion.MEM_COMMIT, protection(memory.readU32(header + 36)));
            next = Math.max(next, stop);
        }
        if (next < end) {
            piece(pieces, base, next, end, MemoryRegion.MEM_RESERVE, 0);
        }
        return pieces;
    }

    /** A section's page protection from its characteristics. */
    static int protection(long characteristics) {
        boolean x = (characteristics & SCN_MEM_EXECUTE) != 0;
        boolean w = (characteristics & SCN_MEM_WRITE) != 0;
        boolean r = (characteristics & SCN_MEM_READ) != 0;
        if (x) {
            return w ? MemoryRegion.PAGE_EXECUTE_READWRITE : r ? MemoryRegion.PAGE_EXECUTE_READ : MemoryRegion.PAGE_EXECUTE;
        }
        return w ? MemoryRegion.PAGE_READWRITE : r ? MemoryRegion.PAGE_READONLY : MemoryRegion.PAGE_NOACCESS;
    }

    /** Adds [start, stop) to the pieces, joined to the last one where state and protection are the same. */
    private static void piece(List<MemoryRegion> pieces, long base, long start, long stop, int state, int protect) {
        if (stop <= start) {
            return;
        }
        if (!pieces.isEmpty()) {
            MemoryRegion last = pieces.getLast();
            if (last.end() == start && last.state() == state && last.protect() == protect) {
                pieces.set(pieces.size() - 1, region(base, last.start(), stop, state, protect));
                return;
            }
        }
        pieces.add(region(base, start, stop, state, protect));
    }

    private static MemoryRegion region(long base, long start, long stop, int state, int protect) {
        return new MemoryRegion(start, stop - start, base, MemoryRegion.PAGE_EXECUTE_WRITECOPY, state, protect, MemoryRegion.MEM_IMAGE);
    }

    private static long align(long size) {
        return (size + PAGE - 1) & -PAGE;
    }
}
