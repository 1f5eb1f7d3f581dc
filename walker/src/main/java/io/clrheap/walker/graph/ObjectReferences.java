package io.clrheap.walker.graph;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.heap.Region;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Enumerates an object's references from its MethodTable's GC descriptor ({@link GcDescriptor}), as the GC marks them
 * (gcdesc.h go_through_object): objects whose MethodTable lacks ContainsGCPointers have none. Descriptors are read
 * once per MethodTable and shared by every thread of a walk. A descriptor that cannot be its type's, or does not fit
 * the object, is a {@link ProblemKind#BAD_GC_DESCRIPTOR} problem and the object's references are skipped; a field
 * whose memory is missing is reported as {@link ProblemKind#UNREADABLE_STRUCTURE}.
 */
public final class ObjectReferences {

    /** The most MethodTables whose descriptors are kept (a real process has tens of thousands of types). */
    static final int MAX_CACHED = 1 << 20;

    private final Memory memory;
    private final long flagsOffset;
    private final long baseSizeOffset;
    private final long containsPointers;
    private final long componentMask;
    private final long hasComponentSize;
    private final ConcurrentHashMap<Long, Object> descriptors = new ConcurrentHashMap<>(); // GcDescriptor, or a Problem
    private static final Object NONE = new Object();

    public ObjectReferences(Memory memory, RuntimeLayout layout) {
        this.memory = memory;
        this.flagsOffset = layout.offset("MethodTable", "MTFlags");
        this.baseSizeOffset = layout.offset("MethodTable", "BaseSize");
        this.containsPointers = layout.constant("method_table.flags.contains_gc_pointers");
        this.componentMask = layout.constant("method_table.flags.component_size_mask");
        this.hasComponentSize = layout.constant("method_table.flags.has_component_size");
    }

    /**
     * Hands {@code sink} every non-null reference of the object at {@code object} (MethodTable {@code mt}, {@code size}
     * bytes as the walk computed them), in field order; {@code region} (may be null) only names where a problem is.
     *
     * @return null, or the problem that kept some or all of its references from being read
     */
    public Problem references(long object, long mt, long size, Region region, ReferenceSink sink) {
        Object d = descriptor(mt);
        if (d == NONE) {
            return null;
        }
        if (d instanceof Problem p) {
            return new Problem(p.kind(), p.address(), String.valueOf(region), String.format("object 0x%x: %s", object, p.detail()));
        }
        GcDescriptor descriptor = (GcDescriptor) d;
        String misfit = descriptor.check(size);
        if (misfit != null) {
            return new Problem(ProblemKind.BAD_GC_DESCRIPTOR, object, String.valueOf(region),
                    String.format("the GC descriptor of MethodTable 0x%x does not fit object 0x%x: %s", mt, object, misfit));
        }
        MissingMemoryException[] missing = {null};
        descriptor.forEachSlot(size, offset -> {
            if (missing[0] != null) {
                return;
            }
            try {
                long to = memory.readLong(object + offset);
                if (to != 0) {
                    sink.reference(object, offset, to);
                }
            } catch (MissingMemoryException e) {
                missing[0] = e;
            }
        });
        if (missing[0] != null) {
            return new Problem(ProblemKind.UNREADABLE_STRUCTURE, missing[0].address(), String.valueOf(region),
                    String.format("object 0x%x: its references from 0x%x on cannot be read: %s", object, missing[0].address(), missing[0].getMessage()));
        }
        return null;
    }

    /** The descriptor of {@code mt}, or NONE (no references), or the Problem that makes it unusable. */
    private Object descriptor(long mt) {
        Object known = descriptors.get(mt);
        if (known != null) {
            return known;
        }
        Object d;
        try {
            long flags = memory.readU32(mt + flagsOffset);
            if ((flags & containsPointers) == 0) {
                d = NONE;
            } else {
                int component = (flags & hasComponentSize) != 0 ? (int) (flags & componentMask) : 0;
                d = GcDescriptor.read(memory, mt, memory.readU32(mt + baseSizeOffset), component);
            }
        } catch (GcDescriptor.Malformed e) {
            d = new Problem(ProblemKind.BAD_GC_DESCRIPTOR, e.address(), "", e.getMessage());
        } catch (MissingMemoryException e) {
            d = new Problem(ProblemKind.BAD_GC_DESCRIPTOR, e.address(), "",
                    String.format("the GC descriptor of MethodTable 0x%x cannot be read: %s", mt, e.getMessage()));
        }
        if (descriptors.size() < MAX_CACHED) {
            descriptors.putIfAbsent(mt, d);
        }
        return d;
    }
}
