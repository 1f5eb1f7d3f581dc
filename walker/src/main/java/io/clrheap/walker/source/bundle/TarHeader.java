package io.clrheap.walker.source.bundle;

/**
 * One regular-file entry of a tar archive, as {@link TarReader} read it: its name (a POSIX.1-2001 {@code path}
 * extended header wins over the ustar {@code prefix/name} fields), its size, and the offset of its header in the
 * decompressed archive (for messages).
 */
record TarHeader(String name, long size, long offset) {
}
