package io.clrheap.walker.discovery;

import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.ProblemKind;

/**
 * Reads a {@code gc_alloc_context} (gcinterface.h): {@code alloc_ptr}, {@code alloc_limit}. Each heap's gen0 context,
 * every thread's and the global one (docs/reference/discovery.md section 8).
 */
final class AllocContextReader {

    private final Chase chase;
    private final FieldSpec allocPtr;
    private final FieldSpec allocLimit;

    AllocContextReader(Chase chase) {
        this.chase = chase;
        this.allocPtr = chase.field("gc_alloc_context", "alloc_ptr");
        this.allocLimit = chase.field("gc_alloc_context", "alloc_limit");
    }

    /** The context at {@code location}; an unreadable one is reported and comes back as 0, 0. */
    AllocContextInfo read(String owner, long location) {
        AllocContextInfo context;
        try {
            long pointer = chase.read(allocPtr, location);
            context = new AllocContextInfo(owner, location, pointer, chase.read(allocLimit, location));
        } catch (MissingMemoryException e) {
            chase.problem(ProblemKind.UNREADABLE_STRUCTURE, location, "", "the allocation context of " + owner + " cannot be read: "
                    + e.getMessage(), chase.failedRead());
            context = new AllocContextInfo(owner, location, 0, 0);
        }
        if (chase.listening()) {
            chase.emit(new ContextFound(context));
        }
        return context;
    }

    /** Whether the walk can use it: alloc_ptr above alloc_limit is corrupt (reported, with the alloc_ptr read). */
    boolean plausible(AllocContextInfo c) {
        if (c.inUse() && Long.compareUnsigned(c.pointer(), c.limit()) > 0) {
            chase.problem(ProblemKind.BAD_ALLOC_CONTEXT, c.location(), "", String.format(
                    "%s: alloc_ptr 0x%x is above alloc_limit 0x%x; the context is ignored", c.owner(), c.pointer(), c.limit()),
                    allocPtr.at(c.location()));
            return false;
        }
        return true;
    }
}
