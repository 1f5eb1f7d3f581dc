package io.clrheap.emulator;

import io.clrheap.layout.view.EeClass;
import io.clrheap.layout.view.MethodTable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The MethodTables of the emulated process: one per type, in the loader heap, each with its EEClass pointing back
 * to it (the test walkers use to tell a MethodTable from garbage) and, for types holding references, the GC
 * pointer-series descriptor just before it; the free-object MethodTable, a zeroed sizeof(MethodTable) block of the
 * malloc heap with only MTFlags and BaseSize set (CEEMAIN; the real dumps).
 */
final class TypeSystem {

    private final Process process;
    private final Map<String, TypeDef> byName = new LinkedHashMap<>();
    private final Map<TypeDef, Long> methodTables = new LinkedHashMap<>();
    private final Map<TypeDef, Placed> placed = new java.util.HashMap<>();

    /** A type ready to place: its MethodTable and its entry in the ground truth, looked up once, not per object. */
    record Placed(TypeDef def, long methodTable, int truthType) {
    }
    private final long freeMethodTable;
    private final long objectMethodTable;
    private final long arrayMethodTable;
    private final long valueTypeMethodTable;
    private final long mtSize;

    TypeSystem(Process process, List<TypeDef> scenarioTypes) {
        this.process = process;
        this.mtSize = process.layout().type("MethodTable").size().orElseThrow();
        freeMethodTable = process.nativeHeap().allocate(process.layout().constant("free_object.mt_block_size"), 16);
        MethodTable.Writable free = process.views().view(MethodTable.Writable.class, process.memory(), freeMethodTable);
        free.flags((int) process.layout().constant("free_object.mt_flags"));
        free.baseSize((int) process.layout().constant("free_object.base_size"));
        objectMethodTable = define(TypeDef.OBJECT, 0);
        arrayMethodTable = define(TypeDef.ARRAY_BASE, objectMethodTable);
        // System.Array's flags differ by version (the real dumps): the profile has them
        process.views().view(MethodTable.Writable.class, process.memory(), arrayMethodTable)
                .flags((int) process.layout().constant("system_array.mt_flags"));
        valueTypeMethodTable = define(TypeDef.VALUE_TYPE_BASE, objectMethodTable);
        for (TypeDef t : TypeDef.BUILT_IN) {
            byName.put(t.name(), t);
            methodTable(t);
        }
        for (TypeDef t : scenarioTypes) {
            TypeDef known = byName.putIfAbsent(t.name(), t);
            if (known != null && !known.equals(t)) {
                throw new IllegalArgumentException("type " + t.name() + " is defined twice, differently");
            }
            methodTable(t);
        }
    }

    long freeMethodTable() {
        return freeMethodTable;
    }

    long objectMethodTable() {
        return objectMethodTable;
    }

    long stringMethodTable() {
        return methodTable(TypeDef.STRING);
    }

    /** The type named in a scenario. */
    TypeDef named(String name) {
        TypeDef t = byName.get(name);
        if (t == null) {
            throw new IllegalArgumentException("unknown type '" + name + "': define it in the scenario's types, or use a built-in one "
                    + byName.keySet());
        }
        return t;
    }

    Placed placed(TypeDef type) {
        Placed p = placed.get(type);
        if (p == null) {
            long mt = methodTable(type);
            p = new Placed(type, mt, process.truth().typeIndex(mt, type.baseSize(), type.componentSize(), GroundTruth.Kind.OBJECT));
            placed.put(type, p);
        }
        return p;
    }

    long methodTable(TypeDef type) {
        Long mt = methodTables.get(type);
        if (mt == null) {
            // arrays derive from System.Array, boxed values from System.ValueType (the real dumps' parent pointers)
            long parent = switch (type.shape()) {
                case ARRAY, REFERENCE_ARRAY, MD_ARRAY -> arrayMethodTable;
                case BOXED -> valueTypeMethodTable;
                default -> objectMethodTable;
            };
            mt = define(type, parent);
        }
        return mt;
    }

    private long define(TypeDef type, long parent) {
        var memory = process.memory();
        // The GC descriptor grows down from the MethodTable (gcdesc.h): the series count at MT - 8, then the series
        // {seriessize, startoffset} below it, seriessize adjusted by -BaseSize. One allocation, descriptor first.
        long gcDescSize = type.containsPointers() ? 8 + 16 : 0;
        long block = process.loaderHeap().allocate(gcDescSize + mtSize, 8);
        long mt = block + gcDescSize;
        if (type.containsPointers()) {
            boolean array = type.shape() == TypeDef.Shape.REFERENCE_ARRAY;
            long seriesBytes = array ? 0 : 8L * type.pointerFields(); // an array's series is its whole data: ObjectSize - BaseSize
            memory.writeLong(mt - 8, 1);
            memory.writeLong(mt - 24, seriesBytes - type.baseSize());
            memory.writeLong(mt - 16, array ? TypeDef.SZ_ARRAY_DATA_OFFSET : 8);
        }
        long eeClass = process.loaderHeap().allocate(0x40, 8);
        MethodTable.Writable view = process.views().view(MethodTable.Writable.class, memory, mt);
        view.flags(type.flags());
        view.baseSize(type.baseSize());
        view.parentMethodTable(parent);
        view.eeClassOrCanonMt(eeClass);
        process.views().view(EeClass.Writable.class, memory, eeClass).methodTable(mt);
        methodTables.put(type, mt);
        process.names().put(mt, type.name());
        return mt;
    }
}
