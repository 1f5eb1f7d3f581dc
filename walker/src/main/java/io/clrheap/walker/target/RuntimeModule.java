package io.clrheap.walker.target;

/**
 * The mapped file that holds the runtime: {@code libcoreclr.so}, or a single-file host with the runtime linked in.
 *
 * @param path            its path as the dump's file mappings name it
 * @param base            the start of its file-offset-0 mapping
 * @param dacTable        the address of {@code g_dacTable}
 * @param dacTableLength  the number of 8-byte entries ({@code st_size / 8})
 * @param symbolsFrom     where its dynamic symbols were read: the dump's memory or a file given with --module
 */
public record RuntimeModule(String path, long base, long dacTable, int dacTableLength, String symbolsFrom) {

    public String fileName() {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? path : path.substring(slash + 1);
    }
}
