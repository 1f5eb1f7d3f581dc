package io.clrheap.walker.fields;

import io.clrheap.value.ElementType;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * A type of the heap, as ClrMD's {@code ClrType} offers it: its name, MethodTable, base type, an array's component
 * type, whether it is a value type, and its fields (the bases' first, then its own instance fields, then its statics).
 * Reached from {@code DumpSession.type(methodTable)} or {@link ManagedObject#type()}.
 */
public final class ManagedType {

    private final ObjectFields fields;
    private final long methodTable;
    private final String name;
    private final LongFunction<Optional<ManagedType>> lookup;

    /** @param lookup how a MethodTable becomes a ManagedType (the session checks it is one) */
    public ManagedType(ObjectFields fields, long methodTable, String name, LongFunction<Optional<ManagedType>> lookup) {
        this.fields = fields;
        this.methodTable = methodTable;
        this.name = name;
        this.lookup = lookup;
    }

    public long methodTable() {
        return methodTable;
    }

    /** The type's name as walk --stat spells it. */
    public String name() {
        return name;
    }

    /** The parent class; empty for System.Object and interfaces. */
    public Optional<ManagedType> baseType() {
        long parent = fields.reader().parent(methodTable);
        return parent == 0 ? Optional.empty() : lookup.apply(parent);
    }

    /** Whether the type is a struct, an enum or a primitive (its EEClass's NormType is not a reference). */
    public boolean isValueType() {
        int norm = fields.normType(methodTable);
        return !ElementType.isReference(norm) && norm != 0;
    }

    /** Whether its objects are arrays (a string is not, though it too has a component size). */
    public boolean isArray() {
        return fields.isArray(methodTable);
    }

    /** An array's element type; empty for any other type and for elements that are no MethodTable (pointers). */
    public Optional<ManagedType> componentType() {
        if (!isArray()) {
            return Optional.empty();
        }
        long element = fields.elementTypeHandle(methodTable);
        return element == 0 || (element & 2) != 0 ? Optional.empty() : lookup.apply(element);
    }

    /** Every field: the instance fields of its bases and its own (base-most first), then the statics it declares. */
    public List<TypeField> fields() {
        return fields.typeFields(methodTable);
    }

    /** The field named {@code name}, an instance field of the type or a base, or a static it declares. */
    public Optional<TypeField> field(String name) {
        return fields().stream().filter(f -> f.name().equals(name)).findFirst();
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s (MethodTable 0x%x)", name, methodTable);
    }
}
