package io.clrheap.walker.source.elf;

/**
 * One entry of a core's {@code NT_FILE} note: the file {@code path} was mapped at {@code [start, end)} from its
 * byte offset {@code fileOffset} (the note stores it in pages; this is already multiplied by the page size).
 */
public record MappedFile(long start, long end, long fileOffset, String path) {

    @Override
    public String toString() {
        return String.format("MappedFile[0x%x-0x%x, offset 0x%x, %s]", start, end, fileOffset, path);
    }
}
