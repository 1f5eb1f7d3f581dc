package io.clrheap.emulator.types;

import io.clrheap.emulator.metadata.AssemblyIdentity;
import io.clrheap.emulator.metadata.FieldRow;
import io.clrheap.emulator.scenario.FieldSpec;
import io.clrheap.emulator.scenario.FieldType;
import io.clrheap.value.ElementType;
import io.clrheap.emulator.metadata.MetadataTables;
import io.clrheap.emulator.metadata.TypeDefRow;
import io.clrheap.emulator.scenario.TypeDef;
import io.clrheap.emulator.scenario.TypeName;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which assembly defines each type of an emulated process, and its TypeDef there. Two assemblies, as a small real
 * process has CoreLib and the app: {@value #CORE_LIB} defines every type whose namespace is {@code System} or under
 * it ({@code System.*}: the runtime's own types), the scenario's assembly (named after the scenario) every other type.
 * A type is defined once, by its name without array suffixes: an array has no TypeDef, it lives in its element's
 * module (the real dumps: docs/reference/type-names.md section 1); an element type that exists only as an array's
 * element ({@code Pt} of {@code Pt[]}) has its TypeDef too, and so has every type enclosing a nested one.
 */
public final class AssemblyPlan {

    /** CoreLib's simple name (its Assembly row). */
    public static final String CORE_LIB = "System.Private.CoreLib";
    /** The index of CoreLib in {@link #assemblies()}; the scenario's assembly is {@value #APP}. */
    public static final int CORE = 0;
    public static final int APP = 1;

    private final List<EmulatedAssembly> assemblies;
    private final Map<String, Integer> assemblyOf;

    private AssemblyPlan(List<EmulatedAssembly> assemblies, Map<String, Integer> assemblyOf) {
        this.assemblies = List.copyOf(assemblies);
        this.assemblyOf = assemblyOf;
    }

    /**
     * Plans the assemblies of a process with {@code types}.
     *
     * @param appName         the scenario's name: its assembly's simple name, and its file {@code appName.dll}
     * @param runtimeVersion  the runtime's version (major.minor…): CoreLib's assembly version is major.minor.0.0
     */
    public static AssemblyPlan of(String appName, String runtimeVersion, Collection<TypeDef> types) {
        // what each type name is: a value type (sealed, sequential, as C# compiles a struct) or a class
        Map<String, Boolean> valueType = new LinkedHashMap<>();
        for (TypeDef t : types) {
            TypeName n = t.typeName();
            if (!n.isArray()) {
                valueType.put(n.definitionName(), t.shape() == TypeDef.Shape.BOXED);
            }
        }
        for (TypeDef t : types) {
            TypeName n = t.typeName();
            if (n.isArray()) {
                // an element known only as an element is what TypeSystem makes of it: a class in a reference array, else a value
                boolean direct = n.suffixes().size() == 1;
                valueType.putIfAbsent(n.definitionName(), direct && t.shape() != TypeDef.Shape.REFERENCE_ARRAY);
            }
        }
        String[] version = runtimeVersion.split("\\.");
        AssemblyIdentity core = new AssemblyIdentity(CORE_LIB, CORE_LIB + ".dll", Integer.parseInt(version[0]),
                version.length > 1 ? Integer.parseInt(version[1]) : 0, 0, 0);
        AssemblyIdentity app = new AssemblyIdentity(appName, appName + ".dll", 1, 0, 0, 0);
        Builder[] builders = {new Builder(core), new Builder(app)};
        Map<String, Integer> assemblyOf = new HashMap<>();
        for (var e : valueType.entrySet()) {
            TypeName n = TypeName.parse(e.getKey());
            int a = n.namespace().equals("System") || n.namespace().startsWith("System.") ? CORE : APP;
            builders[a].define(n, e.getValue());
            assemblyOf.put(e.getKey(), a);
        }
        // the types with fields (and their struct, enum and class field types, known by name), defined by now
        Map<String, TypeDef> declared = new HashMap<>();
        for (TypeDef t : types) {
            if (t.hasFieldDescs()) {
                declared.put(t.typeName().definitionName(), t);
            }
        }
        return new AssemblyPlan(List.of(builders[CORE].build(declared, valueType), builders[APP].build(declared, valueType)), assemblyOf);
    }

    /** CoreLib, then the scenario's assembly. */
    public List<EmulatedAssembly> assemblies() {
        return assemblies;
    }

    /** The index in {@link #assemblies()} of the assembly that defines {@code type}, or whose module an array of it is in. */
    public int assemblyOf(TypeDef type) {
        Integer a = assemblyOf.get(type.typeName().definitionName());
        if (a == null) {
            throw new IllegalArgumentException("type " + type.name() + " was not planned");
        }
        return a;
    }

    /** The TypeDef RID of {@code type} (not an array) in its assembly. */
    public int rid(TypeDef type) {
        return assemblies.get(assemblyOf(type)).rids().get(type.typeName().definitionName());
    }

    /** The first byte of a FIELD signature (ECMA-335 II.23.2.4). */
    private static final int FIELD_SIGNATURE = 0x06;

    /** The Field RID of field {@code index} of {@code type} (its declaration order): the rows run type after type (II.22.37 FieldList). */
    public int fieldRid(TypeDef type, int index) {
        EmulatedAssembly assembly = assemblies.get(assemblyOf(type));
        int rid = 1;
        int own = rid(type);
        for (int i = 0; i < assembly.types().size() && MetadataTables.FIRST_TYPE_RID + i < own; i++) {
            rid += assembly.types().get(i).fields().size();
        }
        return rid + index;
    }

    /** The TypeDefs of one assembly as they are defined: enclosing types first, RIDs in order. */
    private static final class Builder {
        private final AssemblyIdentity identity;
        private final List<TypeDefRow> rows = new ArrayList<>();
        private final Map<String, Integer> rids = new LinkedHashMap<>();

        Builder(AssemblyIdentity identity) {
            this.identity = identity;
        }

        int define(TypeName n, boolean valueType) {
            String key = n.definitionName();
            Integer known = rids.get(key);
            if (known != null) {
                return known;
            }
            int enclosing = n.nested() ? define(n.enclosing(), false) : 0;
            int visibility = n.nested() ? TypeDefRow.NESTED_PUBLIC : TypeDefRow.PUBLIC;
            int flags = visibility | (valueType ? TypeDefRow.SEALED | TypeDefRow.SEQUENTIAL_LAYOUT : 0);
            rows.add(new TypeDefRow(flags, n.simpleName(), n.nested() ? "" : n.namespace(), enclosing));
            int rid = MetadataTables.FIRST_TYPE_RID + rows.size() - 1;
            rids.put(key, rid);
            return rid;
        }

        /** The rows, those of the types in {@code declared} with their base class and Field rows. */
        EmulatedAssembly build(Map<String, TypeDef> declared, Map<String, Boolean> valueType) {
            List<TypeDefRow> out = new ArrayList<>();
            List<String> keys = new ArrayList<>(rids.keySet());
            for (int i = 0; i < rows.size(); i++) {
                TypeDefRow row = rows.get(i);
                TypeDef t = declared.get(keys.get(i));
                if (t == null) {
                    out.add(row);
                    continue;
                }
                List<FieldRow> fields = new ArrayList<>();
                for (FieldSpec f : t.fields()) {
                    int flags = FieldRow.PUBLIC | (f.isStatic() ? FieldRow.STATIC : 0)
                            | (f.name().equals(TypeDef.ENUM_VALUE_FIELD) && t.isEnum() ? FieldRow.SPECIAL_NAME : 0);
                    java.io.ByteArrayOutputStream sig = new java.io.ByteArrayOutputStream();
                    sig.write(FIELD_SIGNATURE);
                    signature(sig, f.type(), t, valueType);
                    fields.add(new FieldRow(flags, f.name(), sig.toByteArray()));
                }
                int extendsRid = t.parent() == null ? 0 : rid(t.parent().typeName().definitionName(), t);
                out.add(new TypeDefRow(row.flags(), row.name(), row.namespace(), row.enclosingRid(), extendsRid, fields));
            }
            return new EmulatedAssembly(identity, out, rids);
        }

        /** A type's encoding in a FIELD signature (ECMA-335 II.23.2.12): an element type, a TypeDef coded index after CLASS or VALUETYPE. */
        private void signature(java.io.ByteArrayOutputStream sig, FieldType type, TypeDef owner, Map<String, Boolean> valueType) {
            switch (type.kind()) {
                case PRIMITIVE -> sig.write(type.primitive());
                case STRING -> sig.write(ElementType.STRING);
                case OBJECT -> sig.write(ElementType.OBJECT);
                case ARRAY -> {
                    sig.write(ElementType.SZARRAY);
                    signature(sig, type.element(), owner, valueType);
                }
                case CLASS, STRUCT, ENUM -> {
                    String name = TypeName.parse(type.name()).definitionName();
                    Boolean value = valueType.get(name);
                    if (value == null) {
                        throw new IllegalArgumentException(owner.name() + ": the type " + type.name() + " of a field is not one of the scenario's types");
                    }
                    sig.write(value ? ElementType.VALUETYPE : ElementType.CLASS);
                    // TypeDefOrRef coded index, tag 0: a TypeDef (II.23.2.8)
                    sig.writeBytes(io.clrheap.emulator.metadata.BlobHeap.compressed(rid(name, owner) << 2));
                }
                default -> throw new IllegalStateException();
            }
        }

        /** The RID of a type this assembly defines, which a field or base class of {@code owner} names. */
        private int rid(String name, TypeDef owner) {
            Integer rid = rids.get(name);
            if (rid == null) {
                throw new IllegalArgumentException(owner.name() + " (in " + identity.simpleName() + ") names " + name
                        + ", a type of another assembly: an emulated assembly has no TypeRefs");
            }
            return rid;
        }
    }
}
