package io.clrheap.cli;

import io.clrheap.value.ElementType;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.fields.FieldLayoutException;
import io.clrheap.walker.fields.ObjectFields;
import io.clrheap.walker.graph.HeapGraph;
import io.clrheap.walker.report.TypeNames;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code clrheap dumpobj}: an object's type, size and fields with their values, laid out as SOS's {@code !dumpobj}
 * prints them (dotnet/diagnostics, util.cpp DisplayFields): the Name/MethodTable/EEClass/Size lines, {@code String:}
 * for a string, then one row per instance field of the class and its bases (base-most first) and the statics the class
 * declares. Field names and declared types come from the dump's metadata (docs/reference/fields.md).
 */
@Command(
        name = "dumpobj",
        mixinStandardHelpOptions = true,
        description = {"Show an object's fields and their values, as SOS's !dumpobj (!do).",
            "Name, MethodTable, EEClass, Size, String (a string's text), then each field: its token, offset from the "
                    + "object's start, declared type, VT (1 for a struct stored inline, whose address is the value), instance "
                    + "or static, value (decimal for numbers, hex for references and pointers) and name. Inherited fields come "
                    + "first, as SOS lists them. A static field's value is not read (its storage is not located): '-'. Names "
                    + "come from the dump's metadata; a field whose module's image the dump lacks is shown by its token."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap dumpobj golden/real/net8-svr/core.xz 0x7f929d400220",
            "  ./clrheap dumpobj --emulate default 0x7e2000000028",
            "",
            "Exit codes: 0 success; 1 ADDR is no object start (the object holding it is named), or its fields cannot "
                    + "be read (where and why is said); 2 bad usage; 3 the dump cannot be opened."})
final class DumpObjCommand implements Callable<Integer> {

    /** dumpobj's field table header, as SOS prints it. */
    static final String HEADER = "              MT    Field   Offset                 Type VT     Attr            Value Name";

    @Mixin
    HeapSource source = new HeapSource();

    @Parameters(index = "1", arity = "0..1", paramLabel = "ADDR", description = "The object's address (hex).")
    String addressText;

    @Mixin
    GraphCommandSupport.ObjectOptions object = new GraphCommandSupport.ObjectOptions();

    @CommandLine.Option(names = "--json", description = "The object and its fields as JSON (docs/schemas/dumpobj.schema.json).")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        CommandLine cli = spec.commandLine();
        long address = GraphCommandSupport.parseAddress(cli, GraphCommandSupport.address(cli, source, addressText));
        PrintWriter out = cli.getOut();
        PrintWriter err = cli.getErr();
        return GraphCommandSupport.open("dumpobj", cli, source, object.module, object.names, err, (session, names) -> print(out, err, session, names, address, json));
    }

    private static int print(PrintWriter out, PrintWriter err, DumpSession session, TypeNames names, long object, boolean json) {
        HeapGraph graph = session.graph().graph();
        long free = session.heap().freeMethodTable();
        if (GraphCommandSupport.noObjectStart("dumpobj", err, graph, names, free, object)) {
            return 1;
        }
        int index = graph.indexOf(object);
        long mt = graph.methodTable(index);
        long size = graph.size(index);
        ObjectFields fields = session.fields();
        try {
            long eeClass = fields.reader().eeClass(mt);
            String type = names.display(mt, free);
            boolean string = mt == session.target().globalPointer("g_pStringClass");
            if (json) {
                printJson(out, session, graph, object, mt, eeClass, type, size, string ? fields.text(object, ObjectFields.MAX_TEXT) : null,
                        fields.instanceFields(object, mt), fields.staticFields(mt));
                return 0;
            }
            out.printf(Locale.ROOT, "Name:        %s%n", type);
            out.printf(Locale.ROOT, "MethodTable: %016x%n", mt);
            out.printf(Locale.ROOT, "EEClass:     %016x%n", eeClass);
            out.printf(Locale.ROOT, "Size:        %d(0x%x) bytes%n", size, size);
            if (string) {
                out.printf(Locale.ROOT, "String:      %s%n", fields.text(object, ObjectFields.MAX_TEXT));
            }
            List<ObjectFields.Field> instance = fields.instanceFields(object, mt);
            List<ObjectFields.Field> statics = fields.staticFields(mt);
            if (instance.isEmpty() && statics.isEmpty()) {
                out.println("Fields:");
                out.println("None");
                return 0;
            }
            out.println("Fields:");
            out.println(HEADER);
            for (ObjectFields.Field f : instance) {
                row(out, f, true, graph);
            }
            for (ObjectFields.Field f : statics) {
                row(out, f, false, graph);
            }
            return 0;
        } catch (FieldLayoutException e) {
            err.printf(Locale.ROOT, "clrheap dumpobj: the fields of 0x%x cannot be read: %s%n", object, e.getMessage());
            return 1;
        } catch (MissingMemoryException e) {
            err.printf(Locale.ROOT, "clrheap dumpobj: the fields of 0x%x cannot be read: %s%n", object, e.getMessage());
            return 1;
        }
    }

    private static void printJson(PrintWriter out, DumpSession session, HeapGraph graph, long object, long mt, long eeClass, String type, long size,
                                  String text, List<ObjectFields.Field> instance, List<ObjectFields.Field> statics) {
        var root = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        root.set("runtime", RuntimeJson.of(session.target()));
        root.put("address", hex(object));
        root.put("name", type);
        root.put("methodTable", hex(mt));
        root.put("eeClass", hex(eeClass));
        root.put("size", size);
        if (text != null) {
            root.put("string", text);
        }
        var list = root.putArray("fields");
        FieldJson.add(list, instance, false, 8, true, graph);
        FieldJson.add(list, statics, true, 8, true, graph);
        WalkCommand.printJson(out, root);
    }

    private static String hex(long v) {
        return FieldJson.hex(v);
    }

    /**
     * One field row: the MT column is the referenced object's MethodTable for a reference that holds one (the dump
     * does not say a declared type's MethodTable without the DAC), blank otherwise.
     */
    private static void row(PrintWriter out, ObjectFields.Field f, boolean instance, HeapGraph graph) {
        int target = f.reference() == 0 ? -1 : graph.indexOf(f.reference());
        String mt = target < 0 ? "                " : String.format(Locale.ROOT, "%016x", graph.methodTable(target));
        String offset = instance ? String.format(Locale.ROOT, "%x", f.desc().offset() + 8) : "-";
        out.printf(Locale.ROOT, "%s %8x %8s %20s %2d %8s %16s %s%n", mt, f.desc().token(), offset, f.type(), f.valueType() ? 1 : 0,
                instance ? "instance" : "static", f.value(), f.name());
    }
}
