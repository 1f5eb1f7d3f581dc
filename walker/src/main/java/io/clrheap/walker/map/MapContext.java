package io.clrheap.walker.map;

/**
 * An allocation context inside a region: the bytes {@code [start, end)} the walk skips ({@code alloc_ptr} to
 * {@code alloc_limit} + the tail reserve) and that hold no objects yet.
 *
 * @param owner who owns it: {@code thread 1 (tid 30152)}, {@code heap 0 gen0}, {@code global}
 * @param start {@code alloc_ptr}
 * @param end   {@code alloc_limit} + the allocation context tail reserve
 */
public record MapContext(String owner, long start, long end) {
}
