package io.clrheap.walker.runtime;

/**
 * The mapped file that holds the runtime: {@code libcoreclr.so} or {@code coreclr.dll}, or a single-file host with the
 * runtime linked in.
 *
 * @param path            its path as the dump's file mappings (or a minidump's module list) name it
 * @param base            the start of its file-offset-0 mapping
 * @param dacTable        the address of {@code g_dacTable}
 * @param dacTableLength  the number of 8-byte entries ({@code st_size / 8}; for a PE export, which has no size, the
 *                        identified build's)
 * @param symbolsFrom     where its dynamic symbols were read: the dump's memory or a file given with --module
 */
public record RuntimeModule(String path, long base, long dacTable, int dacTableLength, String symbolsFrom) {

    /** The part of the path after its last {@code /} (a Windows path without one: after its last {@code \}). */
    public String fileName() {
        int slash = path.indexOf('/') >= 0 ? path.lastIndexOf('/') : path.lastIndexOf('\\');
        return slash < 0 ? path : path.substring(slash + 1);
    }

    /** The record's components, the addresses in hex. */
    @Override
    public String toString() {
        return String.format("RuntimeModule[path=%s, base=0x%x, dacTable=0x%x, dacTableLength=%d, symbolsFrom=%s]", path, base, dacTable, dacTableLength, symbolsFrom);
    }
}
