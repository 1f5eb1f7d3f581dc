package io.clrheap.walker.metadata;

import io.clrheap.layout.FieldLayout;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * Names MethodTables from the ECMA-335 metadata of their modules, without the DAC (docs/reference/type-names.md):
 * MethodTable → Module → image base → metadata → TypeDef (RID from MTFlags2). Each name is composed in two spellings:
 * <ul>
 * <li>the DAC's, which SOS prints ({@code GetMethodTableName}: TypeString with FormatNamespace | FormatFullInst):
 *     {@code Namespace.Outer+Inner}, reserved characters {@code ,[]&*+\} escaped with a backslash, generic arguments
 *     assembly-qualified by simple name {@code Dictionary`2[[System.String, System.Private.CoreLib],[…]]}, arrays
 *     {@code T[]}, {@code T[,]} and {@code T[*]} (rank-1 multi-dimensional), {@code (dynamicClass)} for a RID of 0;</li>
 * <li>the runtime's GCBulkType events' (the names of a heap snapshot's {@code live-objects.txt}): arguments in
 *     {@code [a,b]} without assemblies, a nested type bare at top level but {@code Outer+Inner} inside arguments.</li>
 * </ul>
 * Offsets come from the layout profile.
 *
 * <p>Never throws for what is in the dump: missing memory or corrupt metadata makes a {@link TypeNameLookup.Unnamed}
 * naming the address. Caches per MethodTable and per Module, both bounded. Thread-safe (one lock: names are asked
 * for per distinct MethodTable, not per object).
 *
 * <p>Long because the composition of both spellings, the bounds on every count read and the module chase share the
 * per-target offsets and the caches; apart, each would need them all.
 */
public final class MethodTableNames {

    /** The most MethodTables (and Modules) whose answers are cached; beyond, answers are recomputed. */
    static final int MAX_CACHED = 1 << 20;
    /** Deepest composition (type arguments of type arguments, nesting, array element chains) followed. */
    static final int MAX_DEPTH = 64;
    /** The most type arguments read of one instantiation (NumTypeArgs is a u16). */
    static final int MAX_TYPE_ARGS = 1024;
    /** MAX_RANK of the runtime (docs/reference/type-names.md: rank = (BaseSize - 24) / 8 for MD arrays). */
    static final int MAX_RANK = 32;
    /** BaseSize of an MD array = this + 8 per dimension (docs/reference/type-names.md, Int32[,] BaseSize 40). */
    static final int MD_ARRAY_BASE = 24;
    /** A TypeHandle with this bit set is a TypeDesc, not a MethodTable (https://github.com/dotnet/runtime/blob/main/docs/design/datacontracts/RuntimeTypeSystem.md). */
    static final long TYPE_DESC_BIT = 2;
    static final int ELEMENT_TYPE_PTR = 0x0f;
    static final int ELEMENT_TYPE_BYREF = 0x10;
    /** ParamTypeDesc.TypeArg (the 9.0.1 and 10.0.9 descriptors; docs/reference/type-names.md). */
    static final long PARAM_TYPE_DESC_ARG = 0x10;
    /** The longest PEImage path read, in bytes (a Linux path is at most 4096 bytes; UTF-16 doubles it). */
    static final long MAX_PATH_BYTES = 8192;
    /** What TypeString prints for a MethodTable whose TypeDef RID is 0 (typestring.cpp). */
    static final String DYNAMIC_CLASS = "(dynamicClass)";
    /** The characters TypeNameBuilder escapes inside a name (typestring.cpp, TypeNameBuilder::EscapeName). */
    static final String RESERVED = ",[]&*+\\";

    private final Memory memory;
    private final long mtFlags;
    private final long mtBaseSize;
    private final long mtFlags2;
    private final long mtModule;
    private final long mtPerInstInfo;
    private final long moduleBase;       // -1 when the profile has no Module.Base (8.0)
    private final long modulePeAssembly;
    private final long peAssemblyPeImage;
    private final long peImageLoaded;
    private final long peImageFlat;
    private final long layoutBase;
    private final long peImagePath;
    private final long stringSize;
    private final long stringBuffer;
    private final int tokenShift;
    private final long numDictsOffset;
    private final long numTypeArgsOffset;
    private final long hasComponentSize;
    private final long arrayMask;
    private final long arrayCategory;
    private final long szArray;
    private final long genericsMask;

    private final Map<Long, Resolved> byMethodTable = new HashMap<>();
    private final Map<Long, ModuleEntry> byModule = new LinkedHashMap<>();
    private final Map<Long, TypeNameLookup> answers = new HashMap<>();

    /**
     * A name in every spelling: {@code dac} (the DAC's, without assembly), {@code assembly} (the simple name of the
     * type's assembly, empty when unknown: what qualifies it as a generic argument), {@code full} (GCBulkType spelling
     * as a type argument) and {@code display} (GCBulkType spelling at top level).
     */
    private record Resolved(String dac, String assembly, String full, String display) {

        /** As a generic argument in the DAC's spelling: {@code [Name, Assembly]}, or the bare name without an assembly. */
        String dacArgument() {
            return assembly.isEmpty() ? dac : "[" + dac + ", " + assembly.replace("]", "\\]") + "]";
        }
    }

    private record ModuleEntry(ModuleMetadata status, EcmaMetadata metadata, String assembly) {
    }

    /** A failure with the address it happened at, carried up to {@link #lookup}. */
    private static final class Failure extends RuntimeException {
        final long address;
        final boolean corrupt;

        Failure(long address, String message) {
            this(address, message, false);
        }

        Failure(long address, String message, boolean corrupt) {
            super(message, null, false, false);
            this.address = address;
            this.corrupt = corrupt;
        }
    }

    public MethodTableNames(Memory memory, RuntimeLayout layout) {
        this.memory = memory;
        this.mtFlags = layout.offset("MethodTable", "MTFlags");
        this.mtBaseSize = layout.offset("MethodTable", "BaseSize");
        this.mtFlags2 = layout.offset("MethodTable", "MTFlags2");
        this.mtModule = layout.offset("MethodTable", "Module");
        this.mtPerInstInfo = layout.offset("MethodTable", "PerInstInfo");
        this.moduleBase = layout.type("Module").findField("Base").map(FieldLayout::offset).orElse(-1L);
        this.modulePeAssembly = layout.offset("Module", "PEAssembly");
        this.peAssemblyPeImage = layout.offset("PEAssembly", "PEImage");
        this.peImageLoaded = layout.offset("PEImage", "LoadedLayout");
        this.peImageFlat = layout.offset("PEImage", "FlatLayout");
        this.layoutBase = layout.offset("PEImageLayout", "Base");
        this.peImagePath = layout.offset("PEImage", "Path");
        this.stringSize = layout.offset("SString", "Size");
        this.stringBuffer = layout.offset("SString", "Buffer");
        this.tokenShift = (int) layout.constant("method_table.flags2.token_shift");
        this.numDictsOffset = layout.constant("method_table.generics_dict_info.num_dicts");
        this.numTypeArgsOffset = layout.constant("method_table.generics_dict_info.num_type_args");
        this.hasComponentSize = layout.constant("method_table.flags.has_component_size");
        this.arrayMask = layout.constant("method_table.flags.category_array_mask");
        this.arrayCategory = layout.constant("method_table.flags.category_array");
        this.szArray = layout.constant("method_table.flags.if_array_then_sz_array");
        this.genericsMask = layout.constant("method_table.flags.generics_mask");
    }

    /** The name of the type whose MethodTable is at {@code methodTable}, or why there is none. */
    public synchronized TypeNameLookup lookup(long methodTable) {
        TypeNameLookup known = answers.get(methodTable);
        if (known != null) {
            return known;
        }
        TypeNameLookup answer;
        try {
            Resolved r = resolve(methodTable, 0);
            answer = new TypeNameLookup.Named(r.dac(), r.display());
        } catch (Failure f) {
            answer = new TypeNameLookup.Unnamed(f.address, f.getMessage(), f.corrupt);
        }
        if (answers.size() < MAX_CACHED) {
            answers.put(methodTable, answer); // a listing asks once per object: an answer, named or not, is found once
        }
        return answer;
    }

    /**
     * How the name of {@code methodTable} is found, step by step with the addresses read: the TypeDef RID from MTFlags2,
     * the Module, the image and its metadata root, the TypeDef row and its #Strings entries, the enclosing types, the
     * type arguments or the array's element; the last line is the name or why there is none. For {@code explain}.
     */
    public synchronized List<String> chase(long methodTable) {
        List<String> lines = new ArrayList<>();
        try {
            chaseInto(methodTable, lines);
        } catch (MissingMemoryException e) {
            lines.add("stopped: " + e.getMessage());
        } catch (MetadataFormatException e) {
            lines.add(String.format("stopped: corrupt metadata at 0x%x: %s", e.address(), e.getMessage()));
        } catch (IllegalArgumentException e) {
            lines.add("stopped: " + e.getMessage());
        }
        TypeNameLookup answer = lookup(methodTable);
        lines.add(answer instanceof TypeNameLookup.Named n ? "name: " + n.name()
                : String.format("no name: %s (at 0x%x)", ((TypeNameLookup.Unnamed) answer).reason(), ((TypeNameLookup.Unnamed) answer).address()));
        return lines;
    }

    private void chaseInto(long mt, List<String> lines) {
        long flags = memory.readU32(mt + mtFlags);
        if ((flags & hasComponentSize) != 0 && (flags & arrayMask) == arrayCategory) {
            long element = memory.readPointer(mt + mtPerInstInfo);
            lines.add(String.format("MTFlags 0x%08x: an array (%s); its element TypeHandle is MethodTable+0x%x = 0x%x, named %s",
                    flags, (flags & szArray) != 0 ? "single-dimensional: []" : "multi-dimensional: rank = (BaseSize - 24) / 8",
                    mtPerInstInfo, element, describe(lookup(element))));
            return;
        }
        long flags2 = memory.readU32(mt + mtFlags2);
        int rid = (int) (flags2 >>> tokenShift);
        lines.add(String.format("MethodTable+0x%x MTFlags2 0x%08x >> %d (method_table.flags2.token_shift) = TypeDef RID %d: token 0x%08x",
                mtFlags2, flags2, tokenShift, rid, 0x02000000 | rid));
        long module = memory.readPointer(mt + mtModule);
        ModuleEntry entry = moduleEntry(module);
        lines.add(String.format("MethodTable+0x%x Module = 0x%x%s", mtModule, module, entry.status().file().isEmpty() ? "" : " (" + entry.status().file() + ")"));
        if (entry.metadata() == null) {
            lines.add(String.format("its image gives no metadata: %s (at 0x%x)", entry.status().problem(), entry.status().address()));
            return;
        }
        EcmaMetadata md = entry.metadata();
        MetadataLocation at = entry.status().location();
        lines.add(String.format("image at 0x%x (%s layout) → CLI header → metadata root BSJB at 0x%x (%s, %d bytes)%s", at.imageBase(),
                at.kind().name().toLowerCase(java.util.Locale.ROOT), at.root(), md.version(), at.size(),
                entry.assembly().isEmpty() ? "" : ", assembly " + entry.assembly()));
        int current = rid;
        for (int depth = 0; current != 0 && depth <= MAX_DEPTH; depth++) {
            long row = md.tableStart(EcmaMetadata.TYPE_DEF) + (long) (current - 1) * md.rowSize(EcmaMetadata.TYPE_DEF);
            long name = md.cell(EcmaMetadata.TYPE_DEF, current, 1);
            long namespace = md.cell(EcmaMetadata.TYPE_DEF, current, 2);
            TypeDefName def = md.typeDef(current);
            lines.add(String.format("TypeDef row %d at 0x%x: Flags 0x%08x, TypeName #Strings[0x%x] = \"%s\", TypeNamespace #Strings[0x%x] = \"%s\"%s",
                    current, row, def.flags(), name, def.name(), namespace, def.namespace(),
                    def.nested() ? "; nested: its NestedClass row names the enclosing TypeDef " + def.enclosingRid() : ""));
            current = def.enclosingRid();
        }
        long generics = flags & genericsMask;
        if ((flags & hasComponentSize) == 0 && generics != 0 && generics != genericsMask) {
            long perInstInfo = memory.readPointer(mt + mtPerInstInfo);
            int dicts = memory.readU16(perInstInfo + numDictsOffset);
            int count = memory.readU16(perInstInfo + numTypeArgsOffset);
            StringJoiner args = new StringJoiner(", ");
            if (dicts >= 1 && count <= MAX_TYPE_ARGS) {
                long dictionary = memory.readPointer(perInstInfo + (dicts - 1) * 8L);
                for (int i = 0; i < count; i++) {
                    long arg = memory.readPointer(dictionary + 8L * i);
                    args.add(String.format("0x%x %s", arg, describe(lookup(arg))));
                }
            }
            lines.add(String.format("generic instantiation (MTFlags & 0x%x = 0x%x): PerInstInfo 0x%x, %d dictionaries, %d type arguments: %s",
                    genericsMask, generics, perInstInfo, dicts, count, args));
        }
    }

    private static String describe(TypeNameLookup lookup) {
        return lookup instanceof TypeNameLookup.Named n ? n.name() : "(unnamed: " + ((TypeNameLookup.Unnamed) lookup).reason() + ")";
    }

    /** The name, or empty when {@link #lookup} has none. */
    public Optional<String> name(long methodTable) {
        return Optional.ofNullable(lookup(methodTable).nameOrNull());
    }

    /** Every Module reached so far, with its metadata or why it has none, in the order reached. */
    public synchronized List<ModuleMetadata> modules() {
        List<ModuleMetadata> out = new ArrayList<>();
        for (ModuleEntry e : byModule.values()) {
            out.add(e.status());
        }
        return out;
    }

    /** What {@link #modules} says for {@code module}, looking it up now if it was not reached yet. */
    /**
     * The metadata of the module {@code methodTable}'s type is defined in (a generic instantiation's: its definition's),
     * when the dump holds that module's image; empty otherwise.
     */
    public synchronized Optional<EcmaMetadata> metadataOf(long methodTable) {
        try {
            return Optional.ofNullable(moduleEntry(memory.readPointer(methodTable + mtModule)).metadata());
        } catch (io.clrheap.memory.MissingMemoryException e) {
            return Optional.empty();
        }
    }

    public synchronized ModuleMetadata module(long module) {
        return moduleEntry(module).status();
    }

    private Resolved resolve(long th, int depth) {
        if (depth > MAX_DEPTH) {
            throw new Failure(th, "type composition deeper than " + MAX_DEPTH + " (a cycle of TypeHandles?)");
        }
        Resolved cached = byMethodTable.get(th);
        if (cached != null) {
            return cached;
        }
        Resolved r;
        try {
            r = compose(th, depth);
        } catch (MissingMemoryException e) {
            throw new Failure(e.address(), "reading type handle 0x" + Long.toHexString(th) + ": " + e.getMessage());
        } catch (MetadataFormatException e) {
            throw new Failure(e.address(), "corrupt metadata: " + e.getMessage(), true);
        } catch (IllegalArgumentException e) {
            throw new Failure(th, "reading type handle 0x" + Long.toHexString(th) + ": " + e.getMessage());
        }
        if (byMethodTable.size() < MAX_CACHED) {
            byMethodTable.put(th, r);
        }
        return r;
    }

    private Resolved compose(long th, int depth) {
        if ((th & TYPE_DESC_BIT) != 0) {
            long desc = th & ~3L;
            int elementType = memory.readU8(desc);
            String suffix = switch (elementType) {
                case ELEMENT_TYPE_PTR -> "*";
                case ELEMENT_TYPE_BYREF -> "&";
                default -> throw new Failure(desc, String.format("TypeDesc of element type 0x%x is not named yet", elementType));
            };
            Resolved arg = resolve(memory.readPointer(desc + PARAM_TYPE_DESC_ARG), depth + 1);
            return new Resolved(arg.dac() + suffix, arg.assembly(), arg.full() + suffix, arg.display() + suffix);
        }
        long flags = memory.readU32(th + mtFlags);
        if ((flags & hasComponentSize) != 0 && (flags & arrayMask) == arrayCategory) {
            Resolved element = resolve(memory.readPointer(th + mtPerInstInfo), depth + 1);
            String suffix;
            String dacSuffix;
            if ((flags & szArray) != 0) {
                suffix = "[]";
                dacSuffix = suffix;
            } else {
                long baseSize = memory.readU32(th + mtBaseSize);
                long rank = (baseSize - MD_ARRAY_BASE) / 8;
                if (baseSize < MD_ARRAY_BASE + 8 || rank > MAX_RANK) {
                    throw new Failure(th + mtBaseSize, "array BaseSize " + baseSize + " gives no rank in 1.." + MAX_RANK);
                }
                suffix = "[" + ",".repeat((int) rank - 1) + "]";
                // TypeNameBuilder::AddArray: a multi-dimensional array of rank 1 is T[*] (typestring.cpp)
                dacSuffix = rank == 1 ? "[*]" : suffix;
            }
            // an array's MethodTable.Module is its element type's module (docs/reference/type-names.md), so its assembly too
            return new Resolved(element.dac() + dacSuffix, element.assembly(), element.full() + suffix, element.display() + suffix);
        }
        int rid = (int) (memory.readU32(th + mtFlags2) >>> tokenShift);
        long module = memory.readPointer(th + mtModule);
        ModuleEntry entry = moduleEntry(module);
        if (entry.metadata() == null) {
            throw new Failure(entry.status().address(), String.format("module 0x%x has no metadata in the dump: %s", module, entry.status().problem()),
                    entry.status().corrupt());
        }
        if (rid == 0) {
            // a type without a TypeDef (ReflectionEmit's dynamic classes): TypeString's name for it (typestring.cpp).
            // Only said of a module whose metadata was found: elsewhere a RID of 0 is as likely a MethodTable that is
            // not the runtime's (a fixture of an older clrheap), and a names file may know it.
            return new Resolved(DYNAMIC_CLASS, "", DYNAMIC_CLASS, DYNAMIC_CLASS);
        }
        EcmaMetadata md = entry.metadata();
        if (rid > md.rowCount(EcmaMetadata.TYPE_DEF)) {
            throw new Failure(th + mtFlags2, String.format("TypeDef RID %d of MethodTable 0x%x is not in module 0x%x's %d TypeDefs",
                    rid, th, module, md.rowCount(EcmaMetadata.TYPE_DEF)), true);
        }
        TypeDefName def = md.typeDef(rid);
        String full = def.name();
        String dac = escape(def.namespace(), def.name());
        TypeDefName outer = def;
        for (int n = 0; outer.nested(); n++) {
            if (n > MAX_DEPTH) {
                throw new Failure(md.tableStart(EcmaMetadata.NESTED_CLASS), "NestedClass chain of TypeDef " + rid + " deeper than " + MAX_DEPTH);
            }
            outer = md.typeDef(outer.enclosingRid());
            full = outer.name() + "+" + full;
            dac = escape(outer.namespace(), outer.name()) + "+" + dac;
        }
        full = outer.namespace().isEmpty() ? full : outer.namespace() + "." + full;
        // EventPipe's GCBulkType spelling: a nested type at top level is its bare name (docs/reference/type-names.md)
        String display = def.nested() ? def.name() : full;
        long generics = flags & genericsMask;
        // a generic type definition (the typical instantiation) is named without arguments (TypeString::AppendType)
        if ((flags & hasComponentSize) == 0 && generics != 0 && generics != genericsMask) {
            List<Resolved> args = typeArguments(th, depth);
            StringJoiner bulk = new StringJoiner(",", "[", "]");
            StringJoiner qualified = new StringJoiner(",", "[", "]");
            for (Resolved arg : args) {
                bulk.add(arg.full());
                qualified.add(arg.dacArgument());
            }
            full += bulk;
            display += bulk;
            dac += qualified;
        }
        return new Resolved(dac, entry.assembly(), full, display);
    }

    /**
     * A TypeDef's name in the DAC's spelling: {@code namespace.name} with the characters a type name reserves escaped
     * by a backslash (TypeNameBuilder::EscapeName: {@code ,[]&*+\}).
     */
    static String escape(String namespace, String name) {
        StringBuilder s = new StringBuilder(namespace.length() + name.length() + 1);
        if (!namespace.isEmpty()) {
            appendEscaped(s, namespace);
            s.append('.');
        }
        appendEscaped(s, name);
        return s.toString();
    }

    private static void appendEscaped(StringBuilder s, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (RESERVED.indexOf(c) >= 0) {
                s.append('\\');
            }
            s.append(c);
        }
    }

    /**
     * The type arguments of a generic instantiation ({@code String}, {@code Object} for
     * {@code Dictionary<String,Object>}): the first NumTypeArgs slots of its own dictionary,
     * {@code PerInstInfo[NumDicts - 1]} (docs/reference/type-names.md); empty for any other MethodTable. A slot may
     * hold a TypeDesc (bit 1 set) rather than a MethodTable.
     */
    public List<Long> typeArgumentHandles(long mt) {
        long flags = memory.readU32(mt + mtFlags);
        long generics = flags & genericsMask;
        if ((flags & hasComponentSize) != 0 || generics == 0 || generics == genericsMask) {
            return List.of();
        }
        long perInstInfo = memory.readPointer(mt + mtPerInstInfo);
        int dicts = memory.readU16(perInstInfo + numDictsOffset);
        int count = memory.readU16(perInstInfo + numTypeArgsOffset);
        if (dicts < 1 || count > MAX_TYPE_ARGS) {
            return List.of();
        }
        long dictionary = memory.readPointer(perInstInfo + (dicts - 1) * 8L);
        List<Long> args = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            args.add(memory.readPointer(dictionary + 8L * i));
        }
        return args;
    }

    private List<Resolved> typeArguments(long th, int depth) {
        long perInstInfo = memory.readPointer(th + mtPerInstInfo);
        int dicts = memory.readU16(perInstInfo + numDictsOffset);
        int count = memory.readU16(perInstInfo + numTypeArgsOffset);
        if (dicts < 1 || count > MAX_TYPE_ARGS) {
            throw new Failure(perInstInfo + numDictsOffset, String.format("GenericsDictInfo of MethodTable 0x%x: %d dictionaries, %d type arguments", th, dicts, count));
        }
        long dictionary = memory.readPointer(perInstInfo + (dicts - 1) * 8L);
        List<Resolved> args = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            args.add(resolve(memory.readPointer(dictionary + 8L * i), depth + 1));
        }
        return args;
    }

    private ModuleEntry moduleEntry(long module) {
        ModuleEntry e = byModule.get(module);
        if (e == null) {
            e = openModule(module);
            if (byModule.size() < MAX_CACHED) {
                byModule.put(module, e);
            }
        }
        return e;
    }

    /**
     * The image bases to try (docs/reference/type-names.md section 2): Module.Base where the profile has it (9, 10),
     * then PEAssembly → PEImage → loaded layout, flat layout → PEImageLayout.Base; each tried mapped, then flat.
     */
    private ModuleEntry openModule(long module) {
        List<Long> bases = new ArrayList<>();
        long failedAt = module;
        String problem = null;
        boolean corrupt = false;
        try {
            if (moduleBase >= 0) {
                addBase(bases, memory.readPointer(module + moduleBase));
            }
            long image = memory.readPointer(memory.readPointer(module + modulePeAssembly) + peAssemblyPeImage);
            for (long slot : new long[] {peImageLoaded, peImageFlat}) {
                long layout = memory.readPointer(image + slot);
                if (layout != 0) {
                    addBase(bases, memory.readPointer(layout + layoutBase));
                }
            }
        } catch (MissingMemoryException e) {
            failedAt = e.address();
            problem = "reading the Module's image pointers: " + e.getMessage();
        }
        for (long base : bases) {
            try {
                MetadataLocation location = PeImage.locate(memory, base);
                EcmaMetadata md = EcmaMetadata.read(memory, location.root());
                return new ModuleEntry(new ModuleMetadata(module, fileName(module), location, 0, null, false), md, md.assemblyName());
            } catch (MissingMemoryException e) {
                if (problem == null) {
                    failedAt = e.address();
                    problem = String.format("image at 0x%x: %s", base, e.getMessage());
                }
            } catch (MetadataFormatException | IllegalArgumentException e) {
                if (problem == null) {
                    failedAt = e instanceof MetadataFormatException m ? m.address() : base;
                    problem = String.format("image at 0x%x: %s", base, e.getMessage());
                    corrupt = true;
                }
            }
        }
        if (problem == null) {
            problem = "no image base (Module.Base and the PEImage layouts are null)";
        }
        return new ModuleEntry(new ModuleMetadata(module, fileName(module), null, failedAt, problem, corrupt), null, "");
    }

    /**
     * The file name of the Module's image (the last part of {@code PEImage.m_path}, an SString of UTF-16), to say which
     * module a missing image belongs to; empty when it cannot be read.
     */
    private String fileName(long module) {
        try {
            long path = memory.readPointer(memory.readPointer(module + modulePeAssembly) + peAssemblyPeImage) + peImagePath;
            long bytes = memory.readU32(path + stringSize);
            if (bytes < 2 || bytes > MAX_PATH_BYTES || (bytes & 1) != 0) {
                return "";
            }
            String text = new String(memory.readBytes(memory.readPointer(path + stringBuffer), (int) bytes - 2), StandardCharsets.UTF_16LE);
            return text.substring(Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\')) + 1);
        } catch (MissingMemoryException | IllegalArgumentException e) {
            return "";
        }
    }

    private static void addBase(List<Long> bases, long base) {
        if (base != 0 && !bases.contains(base)) {
            bases.add(base);
        }
    }
}
