package io.clrheap.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.value.ElementType;
import io.clrheap.walker.fields.ObjectFields;
import io.clrheap.walker.graph.HeapGraph;
import java.util.List;
import java.util.Locale;

/**
 * The field rows of {@code dumpobj}, {@code dumpvc} and {@code dumpmt --json}: one object per field with its name,
 * token, offset, declared and stored type, and (where it is read) its value; the item of each schema's {@code fields}.
 */
final class FieldJson {

    private FieldJson() {
    }

    /**
     * Appends {@code fields} to {@code list}.
     *
     * @param header    bytes before the fields' offset 0: 8 (the MethodTable pointer) for an object's or a type's
     *                  fields, 0 for a struct stored inline
     * @param values    whether the values were read (an object or a struct; not a type)
     * @param graph     where a reference's target is looked up for its MethodTable; null for none
     */
    static void add(ArrayNode list, List<ObjectFields.Field> fields, boolean isStatic, int header, boolean values, HeapGraph graph) {
        for (ObjectFields.Field f : fields) {
            ObjectNode row = list.addObject();
            row.put("name", f.name());
            row.put("token", String.format(Locale.ROOT, "0x%08x", f.desc().token()));
            if (!isStatic) {
                row.put("offset", f.desc().offset() + header);
            }
            row.put("type", f.type());
            row.put("elementType", ElementType.name(f.desc().elementType()));
            row.put("valueType", f.valueType());
            row.put("static", isStatic);
            if (isStatic && f.desc().isThreadStatic()) {
                row.put("threadStatic", true);
            }
            if (values && (!isStatic || f.address() != 0)) { // a static's value where its storage was found
                row.put("value", f.value());
                int target = f.reference() == 0 || graph == null ? -1 : graph.indexOf(f.reference());
                if (target >= 0) {
                    row.put("valueMethodTable", hex(graph.methodTable(target)));
                }
            }
        }
    }

    static String hex(long v) {
        return String.format(Locale.ROOT, "0x%x", v);
    }
}
