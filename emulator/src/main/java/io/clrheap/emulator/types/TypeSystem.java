package io.clrheap.emulator.types;

import io.clrheap.layout.view.EeClass;
import io.clrheap.layout.view.MethodTable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.clrheap.emulator.process.Process;
import io.clrheap.emulator.truth.FieldTruth;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.scenario.TypeDef;

/**
 * The MethodTables of the emulated process: one per type, in the loader heap, each with its EEClass pointing back
 * to it (the test walkers use to tell a MethodTable from garbage) and, for types holding references, the GC
 * pointer-series descriptor just before it; the free-object MethodTable, a zeroed sizeof(MethodTable) block of the
 * malloc heap with only MTFlags and BaseSize set (CEEMAIN; the real dumps).
 *
 * <p>Each type's TypeDef is in one of two assemblies ({@link AssemblyPlan}), each with its Module: a MethodTable points
 * at the Module of its type's assembly (an array's at its element's) and carries its TypeDef RID in MTFlags2, shifted
 * by the profile's {@code method_table.flags2.token_shift} (docs/reference/type-names.md section 1; arrays carry 0).
 */
public final class TypeSystem {

    private final Process process;
    private final Map<String, TypeDef> byName = new LinkedHashMap<>();
    private final Map<TypeDef, Long> methodTables = new LinkedHashMap<>();
    private final Map<TypeDef, Placed> placed = new java.util.HashMap<>();
    private final Map<Long, TypeDef> byMethodTable = new java.util.HashMap<>();
    private final Map<Long, GcDescriptor> descriptors = new java.util.HashMap<>();
    private final Map<Long, List<FieldTruth>> fields = new java.util.HashMap<>();
    private final FieldDescWriter fieldDescs;
    /**
     * An EEClass's size in the loader heap, the same on Linux and Windows so that the twins keep their addresses:
     * 128 bytes hold the longest, Windows 8.0's 72-byte fixed part and its 44-byte EEClassPackedFields, Windows 10.0's
     * 96-byte ArrayClass (docs/reference/fields.md section 2).
     */
    private static final long EECLASS_SIZE = 128;

    /** A type ready to place: its MethodTable and its entry in the ground truth, looked up once, not per object. */
    public record Placed(TypeDef def, long methodTable, int truthType) {
    }
    private final long freeMethodTable;
    private final long objectMethodTable;
    private final long arrayMethodTable;
    private final long valueTypeMethodTable;
    private final long mtSize;
    private final AssemblyPlan plan;
    private final long[] modules = new long[2];
    private final long moduleVtable;
    /** MethodTables whose Module is not allocated yet, with the index of their assembly. */
    private final Map<Long, Integer> pendingModules = new LinkedHashMap<>();

    /**
     * @param moduleVtable the address every Module starts with: the value of g_dacTable's Module VPTR entry (the DAC
     *                     reads a Module only when its first word is that vtable)
     */
    public TypeSystem(Process process, List<TypeDef> scenarioTypes, long moduleVtable) {
        this.process = process;
        this.mtSize = process.layout().type("MethodTable").size().orElseThrow();
        this.moduleVtable = moduleVtable;
        // every type's assembly and TypeDef, known before any MethodTable is written
        List<TypeDef> all = new java.util.ArrayList<>(TypeDef.BUILT_IN);
        all.add(TypeDef.ARRAY_BASE);
        all.add(TypeDef.VALUE_TYPE_BASE);
        all.addAll(scenarioTypes);
        plan = AssemblyPlan.of(process.scenario().name(), process.layout().primaryBuild().version(), all);
        fieldDescs = new FieldDescWriter(process, plan);
        // CoreLib's Module first; the scenario assembly's after the MethodTables (so that CoreLib's MethodTables stay
        // where a process with one Module had them); the files they were loaded from are laid out last (AssemblyFile)
        modules[AssemblyPlan.CORE] = newModule();
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
        // every type is known by name before any MethodTable is laid out: an array's element type may come later
        for (TypeDef t : TypeDef.BUILT_IN) {
            byName.put(t.name(), t);
        }
        for (TypeDef t : scenarioTypes) {
            TypeDef known = byName.putIfAbsent(t.name(), t);
            if (known != null && !known.equals(t)) {
                throw new IllegalArgumentException("type " + t.name() + " is defined twice, differently");
            }
        }
        for (TypeDef t : TypeDef.BUILT_IN) {
            methodTable(t);
        }
        for (TypeDef t : scenarioTypes) {
            methodTable(t);
        }
        modules[AssemblyPlan.APP] = newModule();
        pendingModules.forEach((mt, assembly) -> process.memory().writePointer(mt + process.layout().offset("MethodTable", "Module"), modules[assembly]));
        pendingModules.clear();
    }

    private long newModule() {
        long m = process.loaderHeap().allocate(process.layout().type("Module").size().orElseThrow(), 16);
        process.memory().writePointer(m, moduleVtable);
        return m;
    }

    /** The primitive element types by name, with their CorElementType (corhdr.h; ECMA-335 II.23.1.16) and size. */
    private static final Map<String, int[]> PRIMITIVES = Map.ofEntries(
            Map.entry("System.Boolean", new int[] {0x2, 1}), Map.entry("System.Char", new int[] {0x3, 2}),
            Map.entry("System.SByte", new int[] {0x4, 1}), Map.entry("System.Byte", new int[] {0x5, 1}),
            Map.entry("System.Int16", new int[] {0x6, 2}), Map.entry("System.UInt16", new int[] {0x7, 2}),
            Map.entry("System.Int32", new int[] {0x8, 4}), Map.entry("System.UInt32", new int[] {0x9, 4}),
            Map.entry("System.Int64", new int[] {0xa, 8}), Map.entry("System.UInt64", new int[] {0xb, 8}),
            Map.entry("System.Single", new int[] {0xc, 4}), Map.entry("System.Double", new int[] {0xd, 8}),
            Map.entry("System.IntPtr", new int[] {0x18, 8}), Map.entry("System.UIntPtr", new int[] {0x19, 8}));

    /** An array type's element type: named by the array's name without its brackets ({@code System.Int32[,]} -> {@code System.Int32}). */
    public static String elementName(TypeDef array) {
        String name = array.name();
        int bracket = name.endsWith("]") ? name.lastIndexOf('[') : -1;
        return bracket > 0 ? name.substring(0, bracket) : name + " (element)";
    }

    /**
     * The element type of an array type: the type of that name when the process has one; else a value type of the
     * component's size (a class for arrays of references), as the runtime loads an array's element type before the array.
     */
    private TypeDef elementType(TypeDef array) {
        String name = elementName(array);
        TypeDef known = byName.get(name);
        if (known != null) {
            return known;
        }
        if (name.endsWith("]")) {
            throw new IllegalArgumentException("the element type " + name + " of " + array.name()
                    + " is an array type: define it in the scenario's types (its shape and component size are not implied)");
        }
        if (array.shape() == TypeDef.Shape.REFERENCE_ARRAY) {
            return TypeDef.ofClass(name, 24, 0);
        }
        int baseSize = (int) Math.min(0x10000, Math.max(24, (16L + array.componentSize() + 7) & -8));
        // a struct with references boxed: its references after the MethodTable word (element offset + 8)
        return TypeDef.boxed(name, baseSize, array.references().stream().map(r -> r + 8).toList());
    }

    /** The CorElementType an ArrayClass records for arrays of {@code element}. */
    private int corElementType(TypeDef array, TypeDef element) {
        var layout = process.layout();
        if (array.shape() == TypeDef.Shape.REFERENCE_ARRAY) {
            return (int) layout.constant("element_type.class");
        }
        int[] primitive = PRIMITIVES.get(element.name());
        if (primitive != null && primitive[1] == array.componentSize()) {
            return primitive[0];
        }
        return (int) layout.constant("element_type.valuetype");
    }

    /** The type whose MethodTable is at {@code mt}, or null. */
    public TypeDef typeAt(long mt) {
        return byMethodTable.get(mt);
    }

    /** MethodTable → the instance fields of its objects (base classes' first, structs' fields after each struct), for types with fields. */
    public Map<Long, List<FieldTruth>> fields() {
        return java.util.Collections.unmodifiableMap(fields);
    }

    /** The GC descriptor written before the MethodTable at {@code mt}, or null when its objects hold no references. */
    public GcDescriptor descriptor(long mt) {
        return descriptors.get(mt);
    }

    public long freeMethodTable() {
        return freeMethodTable;
    }

    public long objectMethodTable() {
        return objectMethodTable;
    }

    public long stringMethodTable() {
        return methodTable(TypeDef.STRING);
    }

    /** System.Array, the parent of every array type (g_pArrayClass). */
    public long arrayMethodTable() {
        return arrayMethodTable;
    }

    /** System.Object[] (g_pPredefinedArrayTypes[ELEMENT_TYPE_OBJECT]). */
    public long objectArrayMethodTable() {
        return methodTable(TypeDef.OBJECT_ARRAY);
    }

    /** CoreLib's Module. */
    public long module() {
        return modules[AssemblyPlan.CORE];
    }

    /** The Modules, in the order of {@link AssemblyPlan#assemblies()}: CoreLib's, the scenario assembly's. */
    public List<Long> modules() {
        return List.of(modules[AssemblyPlan.CORE], modules[AssemblyPlan.APP]);
    }

    /** Which assembly defines each type, and its TypeDef RID. */
    public AssemblyPlan plan() {
        return plan;
    }

    /** The type named in a scenario. */
    public TypeDef named(String name) {
        TypeDef t = byName.get(name);
        if (t == null) {
            throw new IllegalArgumentException("unknown type '" + name + "': define it in the scenario's types, or use a built-in one "
                    + byName.keySet());
        }
        return t;
    }

    public Placed placed(TypeDef type) {
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
                default -> type.parent() != null ? methodTable(type.parent()) : objectMethodTable;
            };
            mt = define(type, parent);
        }
        return mt;
    }

    private long define(TypeDef type, long parent) {
        var memory = process.memory();
        boolean isArray = type.shape() == TypeDef.Shape.ARRAY || type.shape() == TypeDef.Shape.REFERENCE_ARRAY
                || type.shape() == TypeDef.Shape.MD_ARRAY;
        // the runtime loads an array's element type first: its MethodTable is the array MethodTable's element TypeHandle
        TypeDef element = isArray ? elementType(type) : null;
        long elementMt = isArray ? methodTable(element) : 0;
        // The GC descriptor grows down from the MethodTable (gcdesc.h; GcDescriptor): one allocation, descriptor first
        GcDescriptor descriptor = GcDescriptor.of(type);
        byte[] gcDesc = descriptor == null ? new byte[0] : descriptor.bytes();
        long block = process.loaderHeap().allocate(gcDesc.length + mtSize, 8);
        long mt = block + gcDesc.length;
        if (descriptor != null) {
            memory.write(block, gcDesc, 0, gcDesc.length);
            descriptors.put(mt, descriptor);
            process.truth().referenceLayout(mt, descriptor);
        }
        var layout = process.layout();
        // one size on every platform (a Windows EEClass is 16 bytes longer: COM interop members), so that the twins keep
        // their MethodTables at the same addresses; as long as the longest layout's, so that a field reader reading any
        // EEClass's counts (its own type's, its base classes') never reads them from the next block
        long eeClass = process.loaderHeap().allocate(EECLASS_SIZE, 8);
        MethodTable.Writable view = process.views().view(MethodTable.Writable.class, memory, mt);
        view.flags(type.flags());
        view.baseSize(type.baseSize());
        view.parentMethodTable(parent);
        view.eeClassOrCanonMt(eeClass);
        int assembly = plan.assemblyOf(type);
        if (modules[assembly] != 0) {
            memory.writePointer(mt + layout.offset("MethodTable", "Module"), modules[assembly]);
        } else {
            pendingModules.put(mt, assembly);
        }
        if (!isArray) {
            // the TypeDef RID in the token bits of MTFlags2 (the other bits are flags the emulator leaves 0); arrays: 0
            int shift = (int) layout.constant("method_table.flags2.token_shift");
            long rid = plan.rid(type);
            if (rid >= 1L << (32 - shift)) {
                throw new IllegalArgumentException(type.name() + ": TypeDef RID " + rid + " does not fit MTFlags2's token bits");
            }
            long flags2Offset = layout.offset("MethodTable", "MTFlags2");
            memory.writeInt(mt + flags2Offset, memory.readInt(mt + flags2Offset) | (int) (rid << shift));
        }
        process.views().view(EeClass.Writable.class, memory, eeClass).methodTable(mt);
        if (type.hasFieldDescs()) {
            fieldDescs.write(type, mt, eeClass);
            fields.put(mt, FieldDescWriter.truth(type));
        }
        if (isArray) {
            // MethodTable +0x30 is the element TypeHandle of an array; its ArrayClass holds rank and CorElementType
            memory.writePointer(mt + layout.offset("MethodTable", "PerInstInfo"), elementMt);
            memory.writeInt(eeClass + layout.offset("ArrayClass", "AttrClass"), (int) layout.constant("array_class.attributes"));
            memory.writeByte(eeClass + layout.offset("ArrayClass", "Rank"), (byte) type.rank());
            memory.writeInt(eeClass + layout.offset("ArrayClass", "ElementType"), corElementType(type, element));
        }
        methodTables.put(type, mt);
        byMethodTable.put(mt, type);
        process.names().put(mt, type.name());
        return mt;
    }
}
