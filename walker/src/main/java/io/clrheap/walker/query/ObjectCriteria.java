package io.clrheap.walker.query;

import io.clrheap.walker.heap.SegmentKind;

/**
 * Which objects a dumpheap-style query keeps (SOS's {@code !dumpheap -type -mt -min -max -gen -live -strings}); null or
 * false for a criterion not given. Bound to a dump by {@link io.clrheap.walker.DumpSession#filter(ObjectCriteria)}.
 *
 * @param type       a substring of the type's name (as SOS's {@code -type})
 * @param methodTable only objects of this MethodTable
 * @param minSize    only objects of at least this size (bytes, unaligned)
 * @param maxSize    only objects of at most this size
 * @param generation only objects of this generation: gen0, gen1, gen2, LOH, POH, or frozen — frozen (non-GC) segments
 *                   apart from gen2, as SOS's {@code -gen foh} and {@code GC.GetGeneration} (int.MaxValue for a frozen
 *                   string literal in golden/real/net8-svr's selfreport.txt) have them
 * @param live       only objects reachable from the dump's roots
 * @param strings    only strings
 */
public record ObjectCriteria(String type, Long methodTable, Long minSize, Long maxSize, SegmentKind generation, boolean live, boolean strings) {

    /** Every object (free objects included). */
    public static final ObjectCriteria ALL = new ObjectCriteria(null, null, null, null, null, false, false);

    public ObjectCriteria withType(String substring) {
        return new ObjectCriteria(substring, methodTable, minSize, maxSize, generation, live, strings);
    }

    public ObjectCriteria withMethodTable(long mt) {
        return new ObjectCriteria(type, mt, minSize, maxSize, generation, live, strings);
    }

    public ObjectCriteria withSizes(Long min, Long max) {
        return new ObjectCriteria(type, methodTable, min, max, generation, live, strings);
    }

    public ObjectCriteria withGeneration(SegmentKind kind) {
        return new ObjectCriteria(type, methodTable, minSize, maxSize, kind, live, strings);
    }

    public ObjectCriteria liveOnly() {
        return new ObjectCriteria(type, methodTable, minSize, maxSize, generation, true, strings);
    }

    public ObjectCriteria stringsOnly() {
        return new ObjectCriteria(type, methodTable, minSize, maxSize, generation, live, true);
    }

    /** Whether no criterion is given: every object passes, free ones included. */
    public boolean isEmpty() {
        return equals(ALL);
    }
}
