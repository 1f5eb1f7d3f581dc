package io.clrheap.walker.source.elf;

/**
 * One {@code PT_LOAD} program header of a core: {@code memsz} bytes of the process at {@code vaddr}, of which only
 * the first {@code filesz} are in the file, at {@code fileOffset}. {@code flags} are {@code p_flags}
 * ({@code PF_X} 1, {@code PF_W} 2, {@code PF_R} 4; gABI "Program Header").
 */
public record LoadSegment(long vaddr, long memsz, long fileOffset, long filesz, int flags) {

    /** PF_X, gABI "Segment Flag Bits". */
    public static final int PF_X = 1;
    /** PF_W, gABI "Segment Flag Bits". */
    public static final int PF_W = 2;
    /** PF_R, gABI "Segment Flag Bits". */
    public static final int PF_R = 4;

    /** The first address past the segment. */
    public long end() {
        return vaddr + memsz;
    }

    /** True when some of the segment's bytes were captured in the file. */
    public boolean isPresent() {
        return filesz != 0;
    }

    @Override
    public String toString() {
        return String.format("LoadSegment[0x%x-0x%x, file 0x%x+0x%x, flags %d]", vaddr, end(), fileOffset, filesz, flags);
    }
}
