package io.clrheap.walker.source.minidump;

/**
 * Caps on the counts and sizes a minidump declares, checked before anything is allocated or looped over, so that a
 * corrupt or hostile file gives a {@link MinidumpFormatException} rather than an {@link OutOfMemoryError} or an
 * endless loop. Counts are also checked against the size of the stream that holds them; these caps bound what the
 * file size alone would still allow.
 *
 * @param maxStreams        entries of the stream directory (dbghelp writes a dozen or two)
 * @param maxMemoryRanges   descriptors of the MemoryList and Memory64List streams together (one per committed region:
 *                          tens of thousands in a large process)
 * @param maxModules        entries of the module list
 * @param maxThreads        entries of the thread list
 * @param maxStringBytes    bytes of one MINIDUMP_STRING (a module path)
 * @param maxTypeNameBytes  bytes of the type-name stream ('clrh'); at most 1 GiB, so that it fits a Java string
 */
public record MinidumpLimits(long maxStreams, long maxMemoryRanges, long maxModules, long maxThreads, long maxStringBytes,
                             long maxTypeNameBytes) {

    /** The highest {@link #maxTypeNameBytes} accepted. */
    public static final long MAX_TYPE_NAME_BYTES = 1L << 30;

    /** Generous for any real process. */
    public static final MinidumpLimits DEFAULT = new MinidumpLimits(1 << 12, 1 << 22, 1 << 16, 1 << 20, 1 << 16, 256L << 20);

    public MinidumpLimits {
        if (maxStreams <= 0 || maxMemoryRanges <= 0 || maxModules <= 0 || maxThreads <= 0 || maxStringBytes <= 0 || maxTypeNameBytes <= 0) {
            throw new IllegalArgumentException(String.format("every limit must be positive: maxStreams %d, maxMemoryRanges %d, "
                            + "maxModules %d, maxThreads %d, maxStringBytes %d, maxTypeNameBytes %d",
                    maxStreams, maxMemoryRanges, maxModules, maxThreads, maxStringBytes, maxTypeNameBytes));
        }
        if (maxTypeNameBytes > MAX_TYPE_NAME_BYTES) {
            throw new IllegalArgumentException(String.format("maxTypeNameBytes %d is above the ceiling of %d", maxTypeNameBytes, MAX_TYPE_NAME_BYTES));
        }
    }
}
