package io.clrheap.walker.fields;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import java.util.Optional;

/**
 * Where a MethodTable's static fields are stored on .NET 9 and later: its DynamicStaticsInfo, just before its
 * MethodTableAuxiliaryData (docs/reference/fields.md, statics). The GC statics base holds references (and boxed
 * structs), the non-GC base primitives; a field's value is at base + its FieldDesc offset. Bit 0 of a base is set
 * while the class is not initialized. Read only when the info points back at the MethodTable, so a build whose layout
 * differs gives no values rather than wrong ones; .NET 8 (statics in the DomainLocalModule) has none.
 *
 * @param gcStatics    the GC statics' base, 0 when not allocated
 * @param nonGcStatics the non-GC statics' base, 0 when not allocated
 * @param initialized  whether the class constructor has run (bit 0 of the GC base clear)
 */
public record DynamicStaticsInfo(long gcStatics, long nonGcStatics, boolean initialized) {

    /** StaticsPointerMask of the 10.0.9 contract descriptor: bit 0 is the not-initialized flag. */
    private static final long FLAG = 1;

    /** {@code mt}'s statics storage, or empty when the build has no such info or it does not point back at {@code mt}. */
    public static Optional<DynamicStaticsInfo> of(Memory memory, RuntimeLayout layout, long mt) {
        if (layout.findType("DynamicStaticsInfo").isEmpty()) {
            return Optional.empty();
        }
        try {
            long aux = memory.readPointer(mt + layout.offset("MethodTable", "AuxiliaryData"));
            long info = aux - layout.type("DynamicStaticsInfo").size().orElseThrow();
            if (aux == 0 || memory.readPointer(info + layout.offset("DynamicStaticsInfo", "MethodTable")) != mt) {
                return Optional.empty();
            }
            long gc = memory.readPointer(info + layout.offset("DynamicStaticsInfo", "GCStatics"));
            long nonGc = memory.readPointer(info + layout.offset("DynamicStaticsInfo", "NonGCStatics"));
            return Optional.of(new DynamicStaticsInfo(gc & ~FLAG, nonGc & ~FLAG, (gc & FLAG) == 0 && (nonGc & FLAG) == 0));
        } catch (MissingMemoryException e) {
            return Optional.empty();
        }
    }

    /** The record's components, the addresses in hex. */
    @Override
    public String toString() {
        return String.format("DynamicStaticsInfo[gcStatics=0x%x, nonGcStatics=0x%x, initialized=%b]", gcStatics, nonGcStatics, initialized);
    }
}
