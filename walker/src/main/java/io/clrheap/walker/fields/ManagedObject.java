package io.clrheap.walker.fields;

import io.clrheap.value.ElementType;
import io.clrheap.memory.Memory;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * An object of the heap with its fields, as ClrMD's {@code ClrObject} offers it: its type, its fields by name read as
 * the runtime laid them out, a string's text, an array's elements. Reached from {@code DumpSession.object(address)}.
 *
 * <pre>{@code
 * ManagedObject d = dump.object(0x7f929d400220L).orElseThrow();
 * int count = d.readInt("_count");
 * ManagedObject buckets = d.readObject("_buckets").orElseThrow();   // an Int32[]
 * ManagedType t = d.type();                                          // its fields, base type, …
 * }</pre>
 */
public final class ManagedObject {

    private final ObjectFields fields;
    private final Memory memory;
    private final String typeName;
    private final long address;
    private final long methodTable;
    private final long size;
    private final boolean string;
    private final Lookup lookup;

    /** How an object's address becomes a ManagedObject, and a MethodTable a ManagedType (the session checks each is one). */
    public interface Lookup {
        Optional<ManagedObject> object(long address);

        Optional<ManagedType> type(long methodTable);
    }

    /** @param string whether {@code methodTable} is System.String's (g_pStringClass): a string whatever its name */
    public ManagedObject(ObjectFields fields, Memory memory, String typeName, long address, long methodTable, long size, boolean string,
                         Lookup lookup) {
        this.fields = fields;
        this.memory = memory;
        this.typeName = typeName;
        this.address = address;
        this.methodTable = methodTable;
        this.size = size;
        this.string = string;
        this.lookup = lookup;
    }

    public long address() {
        return address;
    }

    public long methodTable() {
        return methodTable;
    }

    /** The type's name as SOS spells it. */
    /** Its type: name, base type, fields, component type. */
    public ManagedType type() {
        return lookup.type(methodTable).orElseThrow(() -> new IllegalStateException(String.format(Locale.ROOT,
                "0x%x: its MethodTable 0x%x is no longer readable", address, methodTable)));
    }

    public String typeName() {
        return typeName;
    }

    /** The object's size in bytes (unaligned, as dumpheap prints it). */
    public long size() {
        return size;
    }

    /** Every instance field, base-most class first. */
    public List<ObjectFields.Field> fields() {
        return fields.instanceFields(address, methodTable);
    }

    /**
     * The instance field named {@code name} (the most derived one when a base class has one too).
     *
     * @throws NoSuchElementException naming the type and its fields, when it has no such field
     */
    public ObjectFields.Field field(String name) {
        List<ObjectFields.Field> all = fields();
        for (int i = all.size() - 1; i >= 0; i--) {
            if (all.get(i).name().equals(name)) {
                return all.get(i);
            }
        }
        throw new NoSuchElementException(String.format(Locale.ROOT, "%s (0x%x) has no field %s; its fields: %s", typeName, address, name,
                all.stream().map(ObjectFields.Field::name).collect(Collectors.joining(", "))));
    }

    public boolean readBoolean(String name) {
        return memory.readU8(primitive(name, ElementType.BOOLEAN).address()) != 0;
    }

    public char readChar(String name) {
        return (char) memory.readU16(primitive(name, ElementType.CHAR).address());
    }

    public int readInt(String name) {
        ObjectFields.Field f = field(name);
        int t = f.desc().elementType();
        if (t != ElementType.I4 && t != ElementType.U4) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s.%s is %s, not a 32-bit integer", typeName, name, f.type()));
        }
        return memory.readInt(f.address());
    }

    public long readLong(String name) {
        ObjectFields.Field f = field(name);
        int size = f.desc().valueSize();
        if (size != 8 || ElementType.isReference(f.desc().elementType()) || f.desc().elementType() == ElementType.R8) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s.%s is %s, not a 64-bit integer", typeName, name, f.type()));
        }
        return memory.readLong(f.address());
    }

    public double readDouble(String name) {
        return Double.longBitsToDouble(memory.readLong(primitive(name, ElementType.R8).address()));
    }

    /** The object a reference field holds; empty for null. */
    public Optional<ManagedObject> readObject(String name) {
        ObjectFields.Field f = field(name);
        if (!ElementType.isReference(f.desc().elementType())) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s.%s is %s, not a reference", typeName, name, f.type()));
        }
        long target = memory.readLong(f.address());
        return target == 0 ? Optional.empty() : lookup.object(target);
    }

    /** The text of the string a reference field holds; empty for null. */
    public Optional<String> readString(String name) {
        return readObject(name).map(ManagedObject::asString);
    }

    /**
     * This string's text (cut after {@link ObjectFields#MAX_TEXT} characters with "…"). A string is known by its
     * MethodTable being the runtime's g_pStringClass, or by its type's name where that global is not known.
     */
    public String asString() {
        if (!string) {
            throw new IllegalStateException(String.format(Locale.ROOT, "0x%x is a %s, not a string", address, typeName));
        }
        return fields.text(address, ObjectFields.MAX_TEXT);
    }

    /** Whether this is a System.String. */
    public boolean isString() {
        return string;
    }

    /** This array's layout: element type, rank, length. */
    public ArrayLayout array() {
        return fields.array(address, methodTable);
    }

    /** Element {@code i} of this array of references; empty for null. */
    public Optional<ManagedObject> arrayElement(long i) {
        ArrayLayout a = array();
        if (!a.references() || i < 0 || i >= a.length()) {
            throw new IndexOutOfBoundsException(String.format(Locale.ROOT, "%s (0x%x): no reference element %d of %d", typeName, address, i, a.length()));
        }
        long target = memory.readLong(a.element(i));
        return target == 0 ? Optional.empty() : lookup.object(target);
    }

    private ObjectFields.Field primitive(String name, int type) {
        ObjectFields.Field f = field(name);
        if (f.desc().elementType() != type) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s.%s is %s, not %s", typeName, name, f.type(), ElementType.name(type)));
        }
        return f;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s at 0x%x", typeName, address);
    }
}
