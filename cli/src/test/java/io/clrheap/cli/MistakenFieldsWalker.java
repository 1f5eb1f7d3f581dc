package io.clrheap.cli;

import io.clrheap.value.ElementType;
import io.clrheap.value.FieldValueText;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.fields.ObjectFields;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A walker that prints fields.tsv's rows as {@code clrheap walk --fields} does, or with one of the mistakes the field
 * traps are there to catch: {@code MistakenFieldsWalker MISTAKE DUMP}. The mistaken walkers print each object's fields
 * without expanding structs (their mistakes are in the fields' own rows).
 */
public final class MistakenFieldsWalker {

    /** The mistakes; {@link #NONE} makes none (the CLI's own rows). */
    enum Mistake {
        NONE,
        /** Reads only the FieldDescs of the object's own class: the base classes' fields are missing. */
        IGNORES_BASE_FIELDS,
        /** Reads a struct stored inline as a reference: its first 8 bytes as the value, none of its fields. */
        STRUCT_AS_REFERENCE,
        /** Takes the offset from the low 27 bits of dword1 (the FieldDef RID) instead of dword2. */
        OFFSET_FROM_DWORD1
    }

    private MistakenFieldsWalker() {
    }

    public static void main(String[] args) throws Exception {
        Mistake mistake = Mistake.valueOf(args[0].toUpperCase(Locale.ROOT).replace('-', '_'));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        try (DumpSession session = Dumps.open(Path.of(args[1]))) {
            if (mistake == Mistake.NONE) {
                PrintWriter w = new PrintWriter(out, true, StandardCharsets.UTF_8);
                FieldsReport.print(w, new PrintWriter(System.err, true, StandardCharsets.UTF_8), true, session, session.typeNames());
                w.flush();
                return;
            }
            long free = session.heap().freeMethodTable();
            ObjectFields fields = session.fields();
            var memory = session.memory();
            out.println(FieldsReport.HEADER);
            session.walk((address, mt, size, region) -> {
                if (mt == free) {
                    return;
                }
                List<ObjectFields.Field> list = fields.instanceFields(address, mt);
                long own = fields.reader().canonical(mt);
                for (ObjectFields.Field f : list) {
                    if (mistake == Mistake.IGNORES_BASE_FIELDS && f.desc().enclosingClass() != own) {
                        continue;
                    }
                    long at = f.address();
                    int type = f.desc().elementType();
                    String value = f.value();
                    if (mistake == Mistake.STRUCT_AS_REFERENCE && f.valueType()) {
                        value = FieldValueText.of(ElementType.CLASS, memory.readLong(at));
                    }
                    if (mistake == Mistake.OFFSET_FROM_DWORD1) {
                        at = address + 8 + (memory.readU32(f.desc().address() + 8) & 0x7ffffff);
                        value = type == ElementType.VALUETYPE ? FieldValueText.structAt(at) : FieldValueText.of(type, switch (ElementType.size(type)) {
                            case 1 -> memory.readU8(at);
                            case 2 -> memory.readU16(at);
                            case 4 -> memory.readU32(at);
                            default -> memory.readLong(at);
                        });
                    }
                    out.printf(Locale.ROOT, "0x%x\t%s\t%s\t%d\t%s%n", address, f.name(), f.type(), at - address, value);
                }
            });
            out.flush();
        }
    }
}
