package io.clrheap.walker.source.elf;

import io.clrheap.walker.source.DumpFormatException;

/**
 * Caps on the counts an ELF core declares, checked before anything is allocated or looped over, so that a corrupt
 * or hostile file gives a {@link DumpFormatException} rather than an {@link OutOfMemoryError} or an endless loop.
 * Counts are also checked against the file size; these caps bound what the file size alone would still allow.
 *
 * @param maxProgramHeaders program headers (createdump writes one per memory region; a large server process has
 *                          tens of thousands: dotnet/runtime createdump dumpwriterelf.cpp uses PN_XNUM past 0xfffe)
 * @param maxNoteBytes      total bytes of all {@code PT_NOTE} segments (a thread's notes are under 4 KiB); at most
 *                          1 GiB, so that one note's strings always fit a Java array
 * @param maxMappedFiles    entries of the {@code NT_FILE} note
 */
public record ElfCoreLimits(long maxProgramHeaders, long maxNoteBytes, long maxMappedFiles) {

    /** The highest {@link #maxNoteBytes} accepted. */
    public static final long MAX_NOTE_BYTES = 1L << 30;

    /** Generous for any real process: a million mappings, 256 MiB of notes. */
    public static final ElfCoreLimits DEFAULT = new ElfCoreLimits(1L << 20, 256L << 20, 1L << 20);

    public ElfCoreLimits {
        if (maxProgramHeaders <= 0 || maxNoteBytes <= 0 || maxMappedFiles <= 0) {
            throw new IllegalArgumentException(String.format(
                    "every limit must be positive: maxProgramHeaders %d, maxNoteBytes %d, maxMappedFiles %d",
                    maxProgramHeaders, maxNoteBytes, maxMappedFiles));
        }
        if (maxNoteBytes > MAX_NOTE_BYTES) {
            throw new IllegalArgumentException(String.format(
                    "maxNoteBytes %d is above the ceiling of %d", maxNoteBytes, MAX_NOTE_BYTES));
        }
    }
}
