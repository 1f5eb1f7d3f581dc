package io.clrheap.emulator;

import io.clrheap.layout.view.EeClass;
import io.clrheap.layout.view.MethodTable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The MethodTables of the emulated process: one per type, in the loader heap, each with its EEClass pointing back
 * to it (the test walkers use to tell a MethodTable from garbage); the free-object MethodTable, a zeroed
 * sizeof(MethodTable) block of the malloc heap with only MTFlags and BaseSize set (CEEMAIN; the real dumps).
 */
final class TypeSystem {

    private final Process process;
    private final Map<TypeCatalog.TypeSpec, Long> methodTables = new LinkedHashMap<>();
    private final long freeMethodTable;
    private final long objectMethodTable;

    TypeSystem(Process process) {
        this.process = process;
        long mtSize = process.layout().type("MethodTable").size().orElseThrow();
        freeMethodTable = process.nativeHeap().allocate(process.layout().constant("free_object.mt_block_size"), 16);
        MethodTable.Writable free = process.views().view(MethodTable.Writable.class, process.memory(), freeMethodTable);
        free.flags((int) process.layout().constant("free_object.mt_flags"));
        free.baseSize((int) process.layout().constant("free_object.base_size"));
        objectMethodTable = define(TypeCatalog.OBJECT, 0, mtSize);
        for (TypeCatalog.TypeSpec spec : TypeCatalog.SMALL) {
            methodTable(spec);
        }
        methodTable(TypeCatalog.LONG_ARRAY);
        methodTable(TypeCatalog.INT_MD_ARRAY);
        methodTable(TypeCatalog.STRUCT_ARRAY);
    }

    long freeMethodTable() {
        return freeMethodTable;
    }

    long objectMethodTable() {
        return objectMethodTable;
    }

    long stringMethodTable() {
        return methodTable(TypeCatalog.STRING);
    }

    long methodTable(TypeCatalog.TypeSpec spec) {
        Long mt = methodTables.get(spec);
        if (mt == null) {
            mt = define(spec, objectMethodTable, process.layout().type("MethodTable").size().orElseThrow());
        }
        return mt;
    }

    private long define(TypeCatalog.TypeSpec spec, long parent, long mtSize) {
        // MethodTable, then its EEClass (as a loader heap lays them out: one allocation after the other)
        long mt = process.loaderHeap().allocate(mtSize, 8);
        long eeClass = process.loaderHeap().allocate(0x40, 8);
        MethodTable.Writable view = process.views().view(MethodTable.Writable.class, process.memory(), mt);
        view.flags(spec.flags() | spec.componentSize());
        view.baseSize(spec.baseSize());
        view.parentMethodTable(parent);
        view.eeClassOrCanonMt(eeClass);
        process.views().view(EeClass.Writable.class, process.memory(), eeClass).methodTable(mt);
        methodTables.put(spec, mt);
        process.names().put(mt, spec.name());
        return mt;
    }
}
