package io.clrheap.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.value.ElementType;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.fields.FieldLayoutException;
import io.clrheap.walker.fields.ObjectFields;
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
 * {@code clrheap dumpvc}: a struct stored inline — an array element, a field whose VT column is 1 — read with its
 * MethodTable's fields, as SOS's {@code !dumpvc MT ADDR} prints it: offsets are from the struct's start (no object
 * header), values read there.
 */
@Command(
        name = "dumpvc",
        mixinStandardHelpOptions = true,
        description = {"Show a struct stored inline, as SOS's !dumpvc MT ADDR does.",
            "Name, MethodTable, EEClass, Size, then each field of the struct type MT at ADDR: offsets from the "
                    + "struct's start, values read there. ADDR is what dumpobj prints as a struct field's value, or dumparray "
                    + "as an element's."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap dumpvc golden/real/net8-svr/core.xz 0x55b1d0df7c20 0x7f929cc00290",
            "",
            "Exit codes: 0 success; 1 MT is no struct's MethodTable, or its fields cannot be read (where and why is said);",
            "2 bad usage; 3 the dump cannot be opened."
        })
final class DumpVcCommand implements Callable<Integer> {

    @Mixin
    HeapSource source = new HeapSource();

    @Parameters(index = "1", arity = "0..1", paramLabel = "MT", description = "The struct type's MethodTable (hex).")
    String mtText;

    @Parameters(index = "2", arity = "0..1", paramLabel = "ADDR", description = "Where the struct is (hex).")
    String addressText;

    @Mixin
    GraphCommandSupport.ObjectOptions object = new GraphCommandSupport.ObjectOptions();

    @CommandLine.Option(names = "--json", description = "The struct and its fields as JSON (docs/schemas/dumpvc.schema.json).")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        CommandLine cli = spec.commandLine();
        String first = mtText;
        String second = addressText;
        if (source.emulated() && source.dump != null) { // with --emulate there is no DUMP: the positionals move left
            second = first;
            first = source.dump.toString();
            source.dump = null;
        }
        if (first == null || second == null) {
            throw new CommandLine.ParameterException(cli, "give the struct's MethodTable (MT) and its address (ADDR)");
        }
        long mt = GraphCommandSupport.parseAddress(cli, first);
        long address = GraphCommandSupport.parseAddress(cli, second);
        PrintWriter out = cli.getOut();
        PrintWriter err = cli.getErr();
        return GraphCommandSupport.open("dumpvc", cli, source, object.module, object.names, err, (session, names) -> print(out, err, session, names, mt, address, json));
    }

    private static int print(PrintWriter out, PrintWriter err, DumpSession session, TypeNames names, long mt, long address, boolean json) {
        ObjectFields fields = session.fields();
        try {
            long eeClass = fields.reader().eeClass(mt);
            if (session.memory().readU8(eeClass + session.target().layout().offset("EEClass", "NormType")) != ElementType.VALUETYPE) {
                err.printf(Locale.ROOT, "clrheap dumpvc: 0x%x is no struct's MethodTable (%s)%n", mt, names.display(mt, session.heap().freeMethodTable()));
                return 1;
            }
            long baseSize = session.memory().readU32(mt + session.target().layout().offset("MethodTable", "BaseSize"));
            if (json) {
                var root = JsonNodeFactory.instance.objectNode();
                root.set("runtime", RuntimeJson.of(session.target()));
                root.put("address", FieldJson.hex(address));
                root.put("name", names.display(mt, session.heap().freeMethodTable()));
                root.put("methodTable", FieldJson.hex(mt));
                root.put("eeClass", FieldJson.hex(eeClass));
                root.put("boxedSize", baseSize);
                FieldJson.add(root.putArray("fields"), fields.structFields(address, mt), false, 0, true, session.graph().graph());
                WalkCommand.printJson(out, root);
                return 0;
            }
            out.printf(Locale.ROOT, "Name:        %s%n", names.display(mt, session.heap().freeMethodTable()));
            out.printf(Locale.ROOT, "MethodTable: %016x%n", mt);
            out.printf(Locale.ROOT, "EEClass:     %016x%n", eeClass);
            out.printf(Locale.ROOT, "Size:        %d(0x%x) bytes (boxed)%n", baseSize, baseSize);
            List<ObjectFields.Field> list = fields.structFields(address, mt);
            out.println("Fields:");
            out.println(DumpObjCommand.HEADER);
            for (ObjectFields.Field f : list) {
                out.printf(Locale.ROOT, "%16s %8x %8x %20s %2d %8s %16s %s%n", "", f.desc().token(), f.desc().offset(), f.type(), f.valueType() ? 1 : 0,
                        "instance", f.value(), f.name());
            }
            return 0;
        } catch (FieldLayoutException | MissingMemoryException e) {
            err.printf(Locale.ROOT, "clrheap dumpvc: the struct 0x%x at 0x%x cannot be read: %s%n", mt, address, e.getMessage());
            return 1;
        }
    }
}
