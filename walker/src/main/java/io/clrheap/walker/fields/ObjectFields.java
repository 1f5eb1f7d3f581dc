package io.clrheap.walker.fields;

import io.clrheap.value.ElementType;
import io.clrheap.value.FieldValueText;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.metadata.EcmaMetadata;
import io.clrheap.walker.metadata.FieldDef;
import io.clrheap.walker.metadata.FieldSignature;
import io.clrheap.walker.metadata.MetadataFormatException;
import io.clrheap.walker.metadata.MethodTableNames;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * An object's fields with their names, declared types and values, as SOS's dumpobj shows them: the FieldDescs
 * ({@link FieldDescReader}), each named from its declaring module's metadata (FieldDef row, FIELD signature) when the
 * dump holds that module's image, its value read at {@code object + 8 + offset}.
 */
public final class ObjectFields {

    /** A string's text is cut after this many characters (with "…"). */
    public static final int MAX_TEXT = 4096;

    private final Memory memory;
    private final RuntimeLayout layout;
    private final FieldDescReader reader;
    private final MethodTableNames names;
    private final long stringLength;
    private final long firstChar;
    private final long objectHeader;
    private final long mtFlags;
    private final long baseSizeOffset;
    private final long elementTypeHandle;
    private final long normType;
    private final long arrayLength;
    /** sizeof(ArrayBase) plus the object header: a T[]'s BaseSize (ARRAYBASE_BASESIZE, object.h). */
    private static final long SZ_ARRAY_BASE_SIZE = 24;

    /** @param names where field names come from; null when the dump's metadata is not read */
    public ObjectFields(Memory memory, RuntimeLayout layout, MethodTableNames names) {
        this.memory = memory;
        this.layout = layout;
        this.reader = new FieldDescReader(memory, layout);
        this.names = names;
        this.stringLength = layout.offset("String", "m_StringLength");
        this.firstChar = layout.offset("String", "m_FirstChar");
        this.objectHeader = layout.type("Object").size().orElseThrow(); // sizeof(Object): instance fields follow the MethodTable pointer
        this.mtFlags = layout.offset("MethodTable", "MTFlags");
        this.baseSizeOffset = layout.offset("MethodTable", "BaseSize");
        this.elementTypeHandle = layout.offset("MethodTable", "PerInstInfo"); // an array's element TypeHandle (union)
        this.normType = layout.offset("EEClass", "NormType");
        this.arrayLength = layout.offset("Array", "m_NumComponents");
    }

    /**
     * One field of an object.
     *
     * @param desc    its FieldDesc
     * @param name    its name, or {@code <field 0x0400abcd>} when the metadata is not in the dump
     * @param type    its declared type from the signature ({@code System.Int32[]}), or the stored element type's name
     * @param address where its value is (0 for a static field whose storage is not found)
     * @param value   the value as dumpobj prints it: decimal for numbers, 16 hex digits for a reference, a pointer or
     *                (for a struct) the struct's address; for a static without storage, why ({@code -}: not located)
     * @param reference the object a reference field holds, 0 for null, for any other field, or when not in the dump
     */
    public record Field(FieldDesc desc, String name, String type, long address, String value, long reference) {

        /** Whether the value is a struct stored inline (dumpobj's VT column). */
        public boolean valueType() {
            return desc.elementType() == ElementType.VALUETYPE;
        }

        /** The record's components, the addresses in hex. */
        @Override
        public String toString() {
            return String.format("Field[desc=%s, name=%s, type=%s, address=0x%x, value=%s, reference=0x%x]", desc, name, type, address, value, reference);
        }
    }

    /** A field with its name and declared type: what is the same for every object of a type, read once per MethodTable. */
    private record Declared(FieldDesc desc, String name, String type) {
    }

    /** Per MethodTable: its instance fields (bases first) and its statics, named. */
    private record TypeFields(List<Declared> instance, List<Declared> statics) {
    }

    /** At most this many types' fields are kept; past it they are read again when asked. */
    private static final int MAX_CACHED_TYPES = 1 << 14;

    private final java.util.Map<Long, TypeFields> types = new java.util.concurrent.ConcurrentHashMap<>();

    public FieldDescReader reader() {
        return reader;
    }

    /** Every instance field of the object at {@code object} of type {@code mt}, base-most class first. */
    public List<Field> instanceFields(long object, long mt) {
        return read(named(mt).instance(), object + objectHeader);
    }

    /**
     * The static fields {@code mt}'s class declares, with their values where the statics' storage is found
     * ({@link DynamicStaticsInfo}, .NET 9+): a reference's target, a number, a struct's address inside its box. Without
     * it (.NET 8), a thread static, or storage not allocated: address 0 and a value that says why ({@code -} when
     * the build keeps statics elsewhere).
     */
    public List<Field> staticFields(long mt) {
        Optional<DynamicStaticsInfo> storage = DynamicStaticsInfo.of(memory, layout, mt);
        List<Field> out = new ArrayList<>();
        for (Declared d : named(mt).statics()) {
            out.add(staticField(d, storage));
        }
        return out;
    }

    private Field staticField(Declared d, Optional<DynamicStaticsInfo> storage) {
        FieldDesc f = d.desc();
        if (storage.isEmpty()) {
            return new Field(f, d.name(), d.type(), 0, "-", 0);
        }
        if (f.isThreadStatic()) {
            return new Field(f, d.name(), d.type(), 0, "(thread static)", 0);
        }
        int type = f.elementType();
        // references and structs live with the GC statics (a struct boxed, its slot a reference), the rest apart
        boolean gc = ElementType.isReference(type) || type == ElementType.VALUETYPE;
        long base = gc ? storage.get().gcStatics() : storage.get().nonGcStatics();
        if (base == 0) {
            return new Field(f, d.name(), d.type(), 0, "(not allocated)", 0);
        }
        long at = base + f.offset();
        if (type == ElementType.VALUETYPE) {
            long box = referenceAt(at);
            return new Field(f, d.name(), d.type(), at, box == 0 ? "(no box)" : FieldValueText.structAt(box + objectHeader), 0);
        }
        return new Field(f, d.name(), d.type(), at, value(type, at), ElementType.isReference(type) ? referenceAt(at) : 0);
    }

    /** {@code mt}'s fields without values: instance fields, then statics (offsets as {@link TypeField} says). */
    public List<TypeField> typeFields(long mt) {
        TypeFields t = named(mt);
        List<TypeField> out = new ArrayList<>(t.instance().size() + t.statics().size());
        for (Declared d : t.instance()) {
            out.add(typeField(d));
        }
        for (Declared d : t.statics()) {
            out.add(typeField(d));
        }
        return out;
    }

    private static TypeField typeField(Declared d) {
        FieldDesc f = d.desc();
        return new TypeField(d.name(), d.type(), f.token(), f.offset(), f.elementType(), f.isStatic(), f.isThreadStatic());
    }

    /** {@code mt}'s EEClass's NormType: the element type of the type itself (VALUETYPE for a struct, CLASS for a class). */
    public int normType(long mt) {
        return memory.readU8(reader.eeClass(mt) + normType);
    }

    /** Whether {@code mt} is an array type: MTFlags & Category_Array_Mask (0x000C0000) == Category_Array (0x00080000), methodtable.h. */
    public boolean isArray(long mt) {
        return (memory.readU32(mt + mtFlags) & 0x000C0000L) == 0x00080000L;
    }

    /** An array MethodTable's element TypeHandle (PerInstInfo's union): bit 1 set for a TypeDesc. */
    public long elementTypeHandle(long mt) {
        return memory.readPointer(mt + elementTypeHandle);
    }

    /** The fields of {@code mt} named, from the cache or read (FieldDescs, then each one's metadata row and signature). */
    private TypeFields named(long mt) {
        TypeFields known = types.get(mt);
        if (known != null) {
            return known;
        }
        // each class's fields are typed with that class's own instantiation: a base Base<int> of Derived gives !0 = Int32
        List<Declared> instance = new ArrayList<>();
        for (long t : reader.chain(mt)) {
            List<String> arguments = typeArguments(t);
            for (FieldDesc f : reader.introduced(t)) {
                if (!f.isStatic()) {
                    instance.add(declared(f, arguments));
                }
            }
        }
        List<String> arguments = typeArguments(mt);
        TypeFields read = new TypeFields(instance, reader.staticFields(mt).stream().map(f -> declared(f, arguments)).toList());
        if (types.size() < MAX_CACHED_TYPES) {
            types.put(mt, read);
        }
        return read;
    }

    /** The fields {@code declared} of a value whose offset 0 is at {@code base}, with their values read. */
    private List<Field> read(List<Declared> declared, long base) {
        List<Field> out = new ArrayList<>(declared.size());
        for (Declared d : declared) {
            long at = base + d.desc().offset();
            int type = d.desc().elementType();
            out.add(new Field(d.desc(), d.name(), d.type(), at, value(type, at), ElementType.isReference(type) ? referenceAt(at) : 0));
        }
        return out;
    }

    /** Arrays of more dimensions than this are no real array (the runtime's limit is 32). */
    static final int MAX_RANK = 32;

    /** The array at {@code array} of MethodTable {@code mt}: its element type, rank, bounds and where its elements are. */
    public ArrayLayout array(long array, long mt) {
        long flags = memory.readU32(mt + mtFlags);
        if ((flags & 0x80000000L) == 0) {
            throw new FieldLayoutException(mt, String.format("0x%x is no array: its MethodTable 0x%x has no component size", array, mt));
        }
        int componentSize = (int) (flags & 0xffff);
        long baseSize = memory.readU32(mt + baseSizeOffset);
        long element = memory.readPointer(mt + elementTypeHandle);
        // a TypeHandle with bit 1 set is a TypeDesc (pointers, function pointers: T*[]), whose elements are addresses
        int type = element == 0 ? ElementType.CLASS : (element & 2) != 0 ? ElementType.I : memory.readU8(reader.eeClass(element) + normType);
        long count = memory.readU32(array + arrayLength);
        // ArrayBase: an SZ array's BaseSize is 24; a rank-r array's adds r lengths and r lower bounds (2·4·r bytes)
        boolean sz = baseSize == SZ_ARRAY_BASE_SIZE;
        int rank = sz ? 1 : (int) ((baseSize - SZ_ARRAY_BASE_SIZE) / 8);
        if (rank < 1 || rank > MAX_RANK) {
            throw new FieldLayoutException(mt, String.format("array MethodTable 0x%x: BaseSize 0x%x gives rank %d", mt, baseSize, rank));
        }
        long[] lengths = new long[rank];
        long[] bounds = new long[rank];
        if (sz) {
            lengths[0] = count;
        } else {
            for (int d = 0; d < rank; d++) {
                lengths[d] = memory.readU32(array + 16 + 4L * d);
                bounds[d] = memory.readInt(array + 16 + 4L * rank + 4L * d);
            }
        }
        return new ArrayLayout(element, type, rank, sz, count, componentSize, array + (sz ? 16 : 16 + 8L * rank), lengths, bounds);
    }

    /** Element {@code i} of {@code array} as dumparray prints it: a number, a reference in hex, or a struct's address. */
    public String element(ArrayLayout array, long i) {
        long at = array.element(i);
        if (array.references()) {
            try {
                return FieldValueText.reference(memory.readLong(at));
            } catch (MissingMemoryException e) {
                return "(not in the dump)";
            }
        }
        return value(array.elementType(), at);
    }

    /** The object element {@code i} of an array of references holds; 0 for null, another array, or when not in the dump. */
    public long elementReference(ArrayLayout array, long i) {
        return array.references() ? referenceAt(array.element(i)) : 0;
    }

    /**
     * What the word at {@code object + offset} is, named for a reader: a field ({@code _buckets}), a place inside a
     * struct field ({@code _value+0x8}), an array element ({@code [927]}) or a place in a struct element
     * ({@code [3].key}); {@code +0x18} when no field is known there (the dump lacks the metadata or the layout cannot be
     * read).
     */
    public String slotName(long object, long mt, long offset) {
        String plain = String.format(Locale.ROOT, "+0x%x", offset);
        try {
            if (isArray(mt)) {
                ArrayLayout a = array(object, mt);
                long at = object + offset - a.data();
                if (at < 0 || a.componentSize() == 0 || at / a.componentSize() >= a.length()) {
                    return plain;
                }
                long i = at / a.componentSize();
                long inner = at % a.componentSize();
                if (a.elementType() != ElementType.VALUETYPE) {
                    return a.label(i);
                }
                return a.label(i) + structSlot(named(a.elementMethodTable()).instance(), inner, ".", "+0x" + Long.toHexString(inner));
            }
            String name = structSlot(named(mt).instance(), offset - objectHeader, "", null);
            return name == null ? plain : name;
        } catch (FieldLayoutException | MissingMemoryException e) {
            return plain;
        }
    }

    /** The field of {@code fields} covering {@code offset} (from their offset 0), {@code prefix}ed; {@code otherwise} when none. */
    private static String structSlot(List<Declared> fields, long offset, String prefix, String otherwise) {
        for (Declared d : fields) {
            long start = d.desc().offset();
            int size = d.desc().valueSize();
            if (offset == start || (offset > start && offset < start + size)) {
                return prefix + d.name() + (offset == start ? "" : String.format(Locale.ROOT, "+0x%x", offset - start));
            }
        }
        // a struct field's size is its type's, not in the FieldDesc: the field starting last at or before the offset
        // holds it when it is a struct (no other field starts between them)
        Declared holder = null;
        for (Declared d : fields) {
            if (d.desc().offset() <= offset && (holder == null || d.desc().offset() > holder.desc().offset())) {
                holder = d;
            }
        }
        if (holder != null && holder.desc().elementType() == ElementType.VALUETYPE) {
            return prefix + holder.name() + String.format(Locale.ROOT, "+0x%x", offset - holder.desc().offset());
        }
        return otherwise;
    }

    /** The fields of a struct stored at {@code address} (an array element, a field): offsets from its start, no header. */
    public List<Field> structFields(long address, long mt) {
        return read(named(mt).instance(), address);
    }

    private long referenceAt(long at) {
        try {
            return memory.readLong(at);
        } catch (MissingMemoryException e) {
            return 0;
        }
    }

    /** A string object's text, cut after {@code max} characters with an explicit "…". */
    public String text(long string, int max) {
        long length = memory.readU32(string + stringLength);
        int n = (int) Math.min(length, Math.min(max, MAX_TEXT));
        byte[] bytes = memory.readBytes(string + firstChar, 2 * n);
        String text = new String(bytes, StandardCharsets.UTF_16LE);
        return length > n ? text + "…" : text;
    }

    /**
     * The field named and typed from its declaring module's metadata (Field row, FIELD signature); by its token and
     * stored element type when the dump lacks that module's image or the row cannot be read.
     */
    /** The names of {@code mt}'s type arguments when it is a generic instantiation (unnamed ones as {@code !i}); else none. */
    private List<String> typeArguments(long mt) {
        if (names == null) {
            return List.of();
        }
        try {
            List<Long> handles = names.typeArgumentHandles(mt);
            List<String> out = new ArrayList<>(handles.size());
            for (int i = 0; i < handles.size(); i++) {
                long th = handles.get(i);
                out.add((th & 2) != 0 ? "!" + i : names.name(th).orElse("!" + i));
            }
            return out;
        } catch (MissingMemoryException e) {
            return List.of();
        }
    }

    private Declared declared(FieldDesc f, List<String> typeArguments) {
        String name = String.format(Locale.ROOT, "<field 0x%08x>", f.token());
        String type = ElementType.name(f.elementType());
        Optional<EcmaMetadata> md = names == null ? Optional.empty() : names.metadataOf(f.enclosingClass());
        if (md.isPresent()) {
            try {
                FieldDef def = md.get().field(f.rid());
                name = def.name();
                type = FieldSignature.typeName(md.get(), def.signature(), typeArguments);
            } catch (MetadataFormatException | MissingMemoryException e) {
                // what was read stands: the name without a readable signature, or neither
            }
        }
        return new Declared(f, name, type);
    }

    private String value(int elementType, long at) {
        try {
            if (elementType == ElementType.VALUETYPE) {
                return FieldValueText.structAt(at);
            }
            int size = ElementType.size(elementType);
            long bits = switch (size) {
                case 1 -> memory.readU8(at);
                case 2 -> memory.readU16(at);
                case 4 -> memory.readU32(at);
                default -> memory.readLong(at);
            };
            return FieldValueText.of(elementType, bits);
        } catch (MissingMemoryException e) {
            return "(not in the dump)";
        }
    }
}
