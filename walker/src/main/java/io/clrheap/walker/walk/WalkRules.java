package io.clrheap.walker.walk;

import io.clrheap.layout.RuntimeLayout;

/**
 * The numbers the object walk runs on, taken from the profile once (docs/reference/walker-semantics.md section 1; docs/reference/discovery.md
 * section 9): MethodTable field offsets and flag bits, the minimum object size, alignment, the allocation-context
 * tail reserve, the MethodTable mark-bit mask, and the EEClass back pointer that tells a real MethodTable from a
 * pointer that happens to lead to readable memory (docs/reference/discovery.md section 10).
 */
public record WalkRules(long mtFlagsOffset, long mtBaseSizeOffset, int hasComponentSize, int componentSizeMask,
                        long componentCountOffset, long minObjectSize, long alignment, long contextTailReserve,
                        long methodTableMask, int minBaseSize, int maxBaseSize,
                        long eeClassOrCanonOffset, long canonBit, long eeClassMethodTableOffset) {

    /** No type has a base size beyond this (the largest struct layouts are far below); a bigger one is garbage. */
    private static final int MAX_BASE_SIZE = 1 << 24;

    public static WalkRules of(RuntimeLayout layout) {
        return new WalkRules(
                layout.offset("MethodTable", "MTFlags"),
                layout.offset("MethodTable", "BaseSize"),
                (int) layout.constant("method_table.flags.has_component_size"),
                (int) layout.constant("method_table.flags.component_size_mask"),
                layout.offset("Array", "m_NumComponents"),
                layout.constant("object.min_size"),
                layout.constant("object.alignment"),
                layout.constant("alloc_context.tail_reserve"),
                ~layout.constant("object.mt_unmask"),
                // the smallest BaseSize is a string's 22 (header + MT + length + NUL)
                (int) layout.constant("string.base_size"),
                MAX_BASE_SIZE,
                layout.offset("MethodTable", "EEClassOrCanonMT"),
                layout.constant("method_table.eeclass_or_canon_mt.canon_bit"),
                layout.offset("EEClass", "MethodTable"));
    }

    /**
     * The EEClass back-pointer test (docs/reference/discovery.md section 10): EEClassOrCanonMT leads (through the
     * canonical MethodTable when its low bit is set) to an EEClass whose MethodTable field points back to the canonical
     * one. False for memory the dump lacks. The free-object MethodTable has no EEClass: callers take it on its address.
     */
    public boolean hasEeClass(io.clrheap.memory.Memory memory, long mt) {
        try {
            long e = memory.readPointer(mt + eeClassOrCanonOffset);
            long canonical = mt;
            if ((e & canonBit) != 0) {
                canonical = e & ~canonBit;
                e = memory.readPointer(canonical + eeClassOrCanonOffset);
            }
            return e != 0 && memory.readPointer(e + eeClassMethodTableOffset) == canonical;
        } catch (io.clrheap.memory.MissingMemoryException e) {
            return false;
        }
    }

    /** {@code size} rounded up to the object alignment (8). */
    public long align(long size) {
        return (size + alignment - 1) & -alignment;
    }

    /** How far the walk moves past an object of {@code size}: max(align(size), min object size). */
    public long step(long size) {
        return Math.max(align(size), minObjectSize);
    }

    /** The component size a MethodTable's flags give: their low 16 bits when HasComponentSize is set, else 0. */
    public int componentSize(int mtFlags) {
        return (mtFlags & hasComponentSize) != 0 ? mtFlags & componentSizeMask : 0;
    }

    /** An object's size as reported (unaligned): BaseSize + count × ComponentSize. */
    public long size(long baseSize, int componentSize, long count) {
        return baseSize + count * componentSize;
    }

    /** Where the walk resumes after an allocation context whose alloc_limit is {@code limit}: align(limit + tail reserve). */
    public long contextEnd(long limit) {
        return align(limit + contextTailReserve);
    }
}
