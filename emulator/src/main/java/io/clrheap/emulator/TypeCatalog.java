package io.clrheap.emulator;

import java.util.List;

/**
 * The types an emulated process allocates, with the MethodTable facts the runtime gives them (seen in the real
 * dumps: string MTFlags 0x80000002 and BaseSize 22; int[] 0x800a0004 and 24; a class with references 0x01000000).
 */
final class TypeCatalog {

    /** A type: name, BaseSize, component size (0: none), flags without the component size, and kind. */
    record TypeSpec(String name, int baseSize, int componentSize, int flags, Shape shape) {
    }

    enum Shape { PLAIN, STRING, ARRAY }

    /** HasComponentSize | Category_Array | IfArrayThenSzArray (RTSMD; int[] = 0x800a0004 in the dumps). */
    private static final int SZ_ARRAY = 0x800a0000;
    private static final int CONTAINS_GC_POINTERS = 0x01000000;

    static final TypeSpec OBJECT = new TypeSpec("System.Object", 24, 0, 0, Shape.PLAIN);
    static final TypeSpec STRING = new TypeSpec("System.String", 22, 2, 0x80000000, Shape.STRING);
    static final TypeSpec BYTE_ARRAY = new TypeSpec("System.Byte[]", 24, 1, SZ_ARRAY, Shape.ARRAY);
    static final TypeSpec INT_ARRAY = new TypeSpec("System.Int32[]", 24, 4, SZ_ARRAY, Shape.ARRAY);
    static final TypeSpec LONG_ARRAY = new TypeSpec("System.Int64[]", 24, 8, SZ_ARRAY, Shape.ARRAY);
    static final TypeSpec OBJECT_ARRAY = new TypeSpec("System.Object[]", 24, 8, SZ_ARRAY | CONTAINS_GC_POINTERS, Shape.ARRAY);
    static final TypeSpec NODE = new TypeSpec("Node", 48, 0, CONTAINS_GC_POINTERS, Shape.PLAIN);
    static final TypeSpec LEAF = new TypeSpec("Leaf", 32, 0, 0, Shape.PLAIN);
    static final TypeSpec PAIR = new TypeSpec("Pair", 40, 0, CONTAINS_GC_POINTERS, Shape.PLAIN);

    /** int[2,3]: a rank-2 array, BaseSize 24 + 8 x rank for the bounds (seen in the real dumps: 40), Category_Array without the SZ bit. */
    static final TypeSpec INT_MD_ARRAY = new TypeSpec("System.Int32[,]", 40, 4, 0x80080000, Shape.ARRAY);
    /** An array of 12-byte structs. */
    static final TypeSpec STRUCT_ARRAY = new TypeSpec("Pt[]", 24, 12, SZ_ARRAY, Shape.ARRAY);

    /** What small-object allocations pick from. */
    static final List<TypeSpec> SMALL = List.of(OBJECT, STRING, BYTE_ARRAY, INT_ARRAY, OBJECT_ARRAY, NODE, LEAF, PAIR);

    private TypeCatalog() {
    }
}
