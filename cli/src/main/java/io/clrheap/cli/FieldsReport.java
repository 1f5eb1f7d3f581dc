package io.clrheap.cli;

import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.fields.FieldLayoutException;
import io.clrheap.walker.fields.ObjectFields;
import io.clrheap.walker.report.TypeNames;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code walk --fields}: every instance field of every object whose type has any, one line each, in the answer key's
 * {@code fields.tsv} format (docs/answer-key.md): {@code object field declared_type offset value}, objects in address
 * order, each object's fields as the walker's {@link ObjectFields} reads them (base classes' first). A struct stored
 * inline is followed by its own fields, named {@code outer.inner}: its MethodTable is found by its declared type's name
 * among the MethodTables the heap's objects use (their types, base types and array element types) — a struct type
 * no object, array or base class on the heap uses is not found, and its fields are not listed.
 */
final class FieldsReport {

    static final String HEADER = "object\tfield\tdeclared_type\toffset\tvalue";
    /** At most this many distinct MethodTables are looked at to find structs' MethodTables by name. */
    private static final int MAX_TYPES = 1 << 16;
    /** Structs nested deeper than this are cut (a cycle in a corrupt dump). */
    private static final int MAX_NESTING = 16;

    private FieldsReport() {
    }

    /** Prints the rows; a summary (objects, rows, objects whose fields could not be read) goes to {@code err} unless quiet. */
    static int print(PrintWriter out, PrintWriter err, boolean quiet, DumpSession session, TypeNames names) {
        long free = session.heap().freeMethodTable();
        Set<Long> methodTables = new LinkedHashSet<>();
        session.walk((address, mt, size, region) -> {
            if (mt != free && methodTables.size() < MAX_TYPES) {
                methodTables.add(mt);
            }
        });
        Map<String, Long> byName = structsByName(session, names, methodTables);
        ObjectFields fields = session.fields();
        long[] counts = new long[3];
        out.println(HEADER);
        session.walk((address, mt, size, region) -> {
            if (mt == free) {
                return;
            }
            try {
                List<ObjectFields.Field> list = fields.instanceFields(address, mt);
                if (list.isEmpty()) {
                    return;
                }
                StringBuilder lines = new StringBuilder();
                rows(lines, fields, byName, address, "", list, 0);
                out.print(lines);
                counts[0]++;
                counts[1] += list.size();
            } catch (FieldLayoutException | MissingMemoryException e) {
                counts[2]++;
            }
        });
        out.flush();
        if (!quiet) {
            err.printf(Locale.ROOT, "clrheap: fields of %,d objects%s%n", counts[0],
                    counts[2] == 0 ? "" : String.format(Locale.ROOT, "; %,d objects' fields could not be read", counts[2]));
        }
        return 0;
    }

    private static void rows(StringBuilder lines, ObjectFields fields, Map<String, Long> byName, long object, String prefix,
                             List<ObjectFields.Field> list, int depth) {
        for (ObjectFields.Field f : list) {
            lines.append(String.format(Locale.ROOT, "0x%x\t%s%s\t%s\t%d\t%s%n", object, prefix, f.name(), f.type(), f.address() - object, f.value()));
            Long struct = f.valueType() ? byName.get(f.type()) : null;
            if (struct != null && depth < MAX_NESTING) {
                rows(lines, fields, byName, object, prefix + f.name() + ".", fields.structFields(f.address(), struct), depth + 1);
            }
        }
    }

    /** The MethodTables of value types by name: the objects' types and their arrays' element types. */
    private static Map<String, Long> structsByName(DumpSession session, TypeNames names, Set<Long> methodTables) {
        ObjectFields fields = session.fields();
        Set<Long> all = new LinkedHashSet<>(methodTables);
        for (long mt : methodTables) {
            try {
                long e = fields.isArray(mt) ? fields.elementTypeHandle(mt) : 0;
                if (e != 0 && (e & 2) == 0) { // bit 1 marks a TypeDesc, no MethodTable
                    all.add(e);
                }
            } catch (MissingMemoryException e) {
                // a MethodTable not in the dump gives no element type
            }
        }
        Map<String, Long> byName = new HashMap<>();
        for (long mt : all) {
            names.name(mt).ifPresent(n -> byName.putIfAbsent(n, mt));
        }
        return byName;
    }
}
