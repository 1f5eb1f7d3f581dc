package io.clrheap.emulator.metadata;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The {@code #~} stream of ECMA-335 metadata (II.24.2.6): the header (reserved, version 2.0, HeapSizes, the Valid and
 * Sorted masks), the row counts, then the rows of the tables present, in table order: Module (0x00), TypeDef (0x02),
 * Field (0x04, when a type declares fields), Assembly (0x20) and NestedClass (0x29) — what a type's name, its nesting,
 * its fields and its assembly's simple name are read from. TypeDef row 1 is {@code <Module>}, the global type every
 * module has (II.22.37); the types follow from RID {@value #FIRST_TYPE_RID}, each type's FieldList the first of its
 * run of Field rows (II.22.37). MethodDef is absent (no rows): the TypeDefs' method lists start at 1 and are empty.
 * Index sizes follow II.24.2.6: 2 bytes while the heap or the tables indexed stay small, 4 beyond.
 */
public final class MetadataTables {

    /** RID of the first type after {@code <Module>}. */
    public static final int FIRST_TYPE_RID = 2;
    static final int MODULE = 0x00;
    static final int TYPE_DEF = 0x02;
    static final int FIELD = 0x04;
    static final int ASSEMBLY = 0x20;
    static final int NESTED_CLASS = 0x29;
    /**
     * The Sorted mask compilers write (Roslyn, and every assembly of the real dumps' runtime): among others,
     * NestedClass (bit 0x29) sorted by its NestedClass column, which readers binary-search.
     */
    static final long SORTED = 0x000016003301FA00L;
    /** CALG_SHA1, the HashAlgId of the Assembly table of assemblies compiled by Roslyn. */
    static final int CALG_SHA1 = 0x8004;
    /** Most rows of the tables a coded index with 2 tag bits (TypeDefOrRef) refers to for a 2-byte index: 2^14 (II.24.2.6). */
    private static final int SMALL_TYPE_DEF_OR_REF = 1 << 14;

    private MetadataTables() {
    }

    /**
     * The stream's bytes.
     *
     * @param types TypeDef rows from RID {@value #FIRST_TYPE_RID} on; their enclosing RIDs refer to these RIDs
     */
    public static byte[] stream(AssemblyIdentity assembly, List<TypeDefRow> types, StringHeap strings, int mvidIndex) {
        return stream(assembly, types, strings, new BlobHeap(), mvidIndex);
    }

    /** The stream's bytes; the fields' signatures are added to {@code blobs}. */
    public static byte[] stream(AssemblyIdentity assembly, List<TypeDefRow> types, StringHeap strings, BlobHeap blobs, int mvidIndex) {
        int typeDefs = types.size() + 1;
        if (typeDefs >= SMALL_TYPE_DEF_OR_REF) {
            throw new IllegalArgumentException(types.size() + " types: more than an emulated assembly holds (" + (SMALL_TYPE_DEF_OR_REF - 2) + ")");
        }
        int moduleName = strings.add(assembly.moduleName());
        int assemblyName = strings.add(assembly.simpleName());
        int moduleType = strings.add("<Module>");
        int[][] names = new int[types.size()][2];
        List<int[]> nested = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            TypeDefRow t = types.get(i);
            names[i][0] = strings.add(t.name());
            names[i][1] = strings.add(t.namespace());
            if (t.nested()) {
                if (t.enclosingRid() < FIRST_TYPE_RID || t.enclosingRid() > typeDefs) {
                    throw new IllegalArgumentException(t.name() + ": enclosing TypeDef RID " + t.enclosingRid() + " is not a type's");
                }
                nested.add(new int[] {FIRST_TYPE_RID + i, t.enclosingRid()});
            }
        }
        nested.sort(Comparator.comparingInt(n -> n[0]));
        // the Field rows, type after type: names and signatures into their heaps first (their sizes set the index widths)
        List<int[]> fieldCells = new ArrayList<>();
        for (TypeDefRow t : types) {
            for (FieldRow f : t.fields()) {
                fieldCells.add(new int[] {f.flags(), strings.add(f.name()), blobs.add(f.signature())});
            }
        }
        int fields = fieldCells.size();
        if (fields >= 1 << 16 || blobs.wide()) {
            throw new IllegalArgumentException(fields + " fields: more than an emulated assembly holds (2-byte Field and #Blob indexes)");
        }
        boolean wideStrings = strings.wide();
        int heapSizes = wideStrings ? 0x01 : 0;
        long valid = (1L << MODULE) | (1L << TYPE_DEF) | (fields == 0 ? 0 : 1L << FIELD) | (1L << ASSEMBLY) | (nested.isEmpty() ? 0 : 1L << NESTED_CLASS);
        int tables = Long.bitCount(valid);

        int str = wideStrings ? 4 : 2;
        int moduleRow = 2 + str + 2 + 2 + 2;
        int typeDefRow = 4 + str + str + 2 + 2 + 2;
        int fieldRow = 2 + str + 2;
        int assemblyRow = 4 + 2 * 4 + 4 + 2 + str + str;
        int nestedRow = 2 + 2;
        int size = 24 + 4 * tables + moduleRow + typeDefRow * typeDefs + fieldRow * fields + assemblyRow + nestedRow * nested.size();
        ByteBuffer b = ByteBuffer.allocate((size + 3) & -4).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0).put((byte) 2).put((byte) 0).put((byte) heapSizes).put((byte) 1).putLong(valid).putLong(SORTED);
        b.putInt(1).putInt(typeDefs);
        if (fields != 0) {
            b.putInt(fields);
        }
        b.putInt(1);
        if (!nested.isEmpty()) {
            b.putInt(nested.size());
        }
        // Module: Generation, Name, Mvid (the one GUID), EncId, EncBaseId
        b.putShort((short) 0);
        putIndex(b, moduleName, str);
        b.putShort((short) mvidIndex).putShort((short) 0).putShort((short) 0);
        // TypeDef 1, <Module>: no flags, no namespace, extends nil, empty field and method lists
        typeDef(b, 0, moduleType, 0, 0, 1, str);
        int fieldList = 1;
        for (int i = 0; i < types.size(); i++) {
            TypeDefRow t = types.get(i);
            // Extends: a TypeDefOrRef coded index, tag 0 for a TypeDef (II.24.2.6)
            typeDef(b, t.flags(), names[i][0], names[i][1], t.extendsRid() << 2, fieldList, str);
            fieldList += t.fields().size();
        }
        for (int[] f : fieldCells) {
            b.putShort((short) f[0]);
            putIndex(b, f[1], str);
            b.putShort((short) f[2]);
        }
        // Assembly: HashAlgId, version, Flags 0, PublicKey (none), Name, Culture (neutral)
        b.putInt(CALG_SHA1).putShort((short) assembly.major()).putShort((short) assembly.minor()).putShort((short) assembly.build())
                .putShort((short) assembly.revision()).putInt(0).putShort((short) 0);
        putIndex(b, assemblyName, str);
        putIndex(b, 0, str);
        for (int[] n : nested) {
            b.putShort((short) n[0]).putShort((short) n[1]);
        }
        return b.array();
    }

    private static void typeDef(ByteBuffer b, int flags, int name, int namespace, int extendsCoded, int fieldList, int str) {
        b.putInt(flags);
        putIndex(b, name, str);
        putIndex(b, namespace, str);
        b.putShort((short) extendsCoded).putShort((short) fieldList).putShort((short) 1);
    }

    private static void putIndex(ByteBuffer b, int index, int size) {
        if (size == 4) {
            b.putInt(index);
        } else {
            b.putShort((short) index);
        }
    }
}
