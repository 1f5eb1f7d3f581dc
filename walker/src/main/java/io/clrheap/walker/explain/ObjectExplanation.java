package io.clrheap.walker.explain;

import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.Region;

/**
 * How one address of the heap is explained: the region holding it, the object holding it, and how that object's size
 * and the next object's address follow from its MethodTable.
 *
 * @param asked       the address asked about
 * @param region      the region holding it, or null when no region does
 * @param nearest     when no region holds it: the nearest region (null when there is none at all)
 * @param context     when it lies in an allocation context's unused space: that context, else null
 * @param start       the object holding it (its start), or 0 when none does
 * @param methodTable the object's MethodTable (mark bits masked)
 * @param kind        {@code free object}, {@code string}, {@code array}, {@code multi-dimensional array}, {@code object}
 * @param type        the type name if known, else {@code Unknown (MethodTable: 0x…)}
 * @param size        BaseSize + count × ComponentSize, unaligned (what reports say)
 * @param step        max(align8(size), min object size): how far the walk moves
 * @param next        where the walk goes on: the next object, past an allocation context, or the region's end
 * @param walkerSize  the size the walker reported for this object (-1 when it did not visit it)
 * @param walkerNext  the next object the walker visited in this region (-1 when none follows)
 * @param section     the reads and the arithmetic, to print
 * @param nameChase   how the type's name was found in its module's metadata, to print after; null when not asked
 * @param references  the object's references with their field offsets (from its GC descriptor); null when no object
 */
public record ObjectExplanation(long asked, Region region, Region nearest, AllocContextInfo context, long start, long methodTable,
                                String kind, String type, long size, long step, long next, long walkerSize, long walkerNext,
                                ExplainSection section, ExplainSection nameChase,
                                ExplainSection references) {

    /** Whether an object holds the address. */
    public boolean found() {
        return start != 0;
    }
}
