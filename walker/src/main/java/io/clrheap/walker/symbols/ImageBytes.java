package io.clrheap.walker.symbols;

import java.util.List;

/**
 * The bytes of one ELF image, in a dump's memory or in a file, addressed by "location": an address in memory, an
 * offset in the file. The parser resolves file offsets, link-time addresses and {@code d_ptr} values to locations
 * through this, and reads little-endian values there.
 *
 * <p>Reads outside the image throw: in a file a {@link ModuleFormatException} naming the offset; in memory the
 * {@link io.clrheap.memory.MissingMemoryException} of the memory source.
 */
sealed interface ImageBytes permits MemoryImage, FileImage {

    /** Where byte {@code offset} of the file is: for the ELF header and the program headers. */
    long atFileOffset(long offset);

    /** Learns the image's {@code PT_LOAD} segments, which {@link #atLinkAddress} and {@link #bias} depend on. */
    void useLoadSegments(List<ElfLoad> loads) throws ModuleFormatException;

    /** What is added to a link-time address ({@code st_value}, {@code p_vaddr}) to get its address in the process. */
    long bias();

    /** Where the link-time address {@code address} is. */
    long atLinkAddress(long address, String what) throws ModuleFormatException;

    /** Where a {@code d_ptr} of the dynamic section points: link-time in a file, maybe already rebased in memory. */
    long atDynamicPointer(long pointer, String what) throws ModuleFormatException;

    /** Throws unless {@code length} bytes at {@code location} can be read. */
    void require(long location, long length, String what) throws ModuleFormatException;

    /**
     * Throws unless a table that lookups read from is all there, where that can be expected: in a file. In a dump
     * only the pages the runtime or createdump touched may be captured (the .NET 9 withheap dump has two of the
     * pages of libcoreclr.so's .dynstr), so there this checks nothing and a lookup that needs a missing byte
     * throws {@link io.clrheap.memory.MissingMemoryException}.
     */
    void requireTable(long location, long length, String what) throws ModuleFormatException;

    int u8(long location) throws ModuleFormatException;

    int u16(long location) throws ModuleFormatException;

    /** An unsigned 32-bit value, widened. */
    long u32(long location) throws ModuleFormatException;

    long u64(long location) throws ModuleFormatException;

    byte[] bytes(long location, int length) throws ModuleFormatException;

    /** The image, for messages: its file, or the module's base and the dump. */
    String name();

    /** A location for messages: {@code file offset 0x40}, {@code 0x7f0000001040}. */
    String where(long location);

    default ModuleFormatException error(long location, String what) {
        return new ModuleFormatException(name() + ": " + what + " at " + where(location));
    }
}
