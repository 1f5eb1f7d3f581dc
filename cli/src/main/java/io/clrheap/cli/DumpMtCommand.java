package io.clrheap.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.fields.FieldDescReader;
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
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code clrheap dumpmt}: a MethodTable as SOS's {@code !dumpmt} prints it — EEClass, Module, Name, BaseSize,
 * ComponentSize, ContainsPointers, the vtable's slots and the interface count, the parent — and with {@code --fields}
 * the fields of the class and its bases (SOS's dumpclass), from the FieldDescs (docs/reference/fields.md). An address
 * whose EEClass does not point back at its canonical MethodTable is refused: it is no MethodTable.
 */
@Command(
        name = "dumpmt",
        mixinStandardHelpOptions = true,
        description = {"Show a MethodTable as SOS's !dumpmt does.",
            "EEClass, Module, Name, BaseSize, ComponentSize, ContainsPointers, slots in the vtable, interfaces, "
                    + "parent. --fields adds every field of the class and its bases (instance ones with their offset from an "
                    + "object's start) and the statics it declares, in dumpobj's columns: statics with their values (.NET 9 and "
                    + "later), instance fields without."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap dumpmt golden/real/net8-svr/core.xz 0x55b1d0df3598",
            "  ./clrheap dumpmt --fields golden/real/net10-windows-wks/dump.dmp.xz 0xe0997740",
            "",
            "Exit codes: 0 success; 1 MT is no MethodTable, or its fields cannot be read (where and why is said); 2 "
                    + "bad usage; 3 the dump cannot be opened."})
final class DumpMtCommand implements Callable<Integer> {

    /** MTFlags.ContainsGCPointers (methodtable.h enum_flag_ContainsGCPointers). */
    private static final long CONTAINS_POINTERS = 0x01000000L;

    @Mixin
    HeapSource source = new HeapSource();

    @Parameters(index = "1", arity = "0..1", paramLabel = "MT", description = "The MethodTable's address (hex).")
    String addressText;

    @Option(names = "--fields", description = "Also list the fields of the class and its bases.")
    boolean fields;

    @Option(names = "--json", description = "The MethodTable (and with --fields its fields) as JSON (docs/schemas/dumpmt.schema.json).")
    boolean json;

    @Mixin
    GraphCommandSupport.ObjectOptions object = new GraphCommandSupport.ObjectOptions();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        CommandLine cli = spec.commandLine();
        long mt = GraphCommandSupport.parseAddress(cli, GraphCommandSupport.address(cli, source, addressText));
        PrintWriter out = cli.getOut();
        PrintWriter err = cli.getErr();
        return GraphCommandSupport.open("dumpmt", cli, source, object.module, object.names, err, (session, names) -> print(out, err, session, names, mt));
    }

    private int print(PrintWriter out, PrintWriter err, DumpSession session, TypeNames names, long mt) {
        Memory memory = session.memory();
        RuntimeLayout layout = session.target().layout();
        ObjectFields objectFields = session.fields();
        FieldDescReader reader = objectFields.reader();
        try {
            long eeClass = reader.eeClass(mt);
            if (!io.clrheap.walker.walk.WalkRules.of(layout).hasEeClass(memory, mt)) {
                err.printf(Locale.ROOT, "clrheap dumpmt: 0x%x is no MethodTable: its EEClass 0x%x does not point back at its canonical MethodTable 0x%x%n",
                        mt, eeClass, reader.canonical(mt));
                return 1;
            }
            long flags = memory.readU32(mt + layout.offset("MethodTable", "MTFlags"));
            long componentSize = (flags & 0x80000000L) != 0 ? flags & 0xffff : 0;
            long module = memory.readPointer(mt + layout.offset("MethodTable", "Module"));
            String name = names.display(mt, session.heap().freeMethodTable());
            long baseSize = memory.readU32(mt + layout.offset("MethodTable", "BaseSize"));
            int slots = memory.readU16(mt + layout.offset("MethodTable", "NumVirtuals"));
            int interfaces = memory.readU16(mt + layout.offset("MethodTable", "NumInterfaces"));
            long parent = reader.parent(mt);
            String parentName = parent == 0 ? "" : names.display(parent, session.heap().freeMethodTable());
            FieldDescReader.Counts counts = fields ? reader.counts(eeClass) : null;
            List<ObjectFields.Field> instance = fields ? objectFields.instanceFields(0, mt) : List.of();
            List<ObjectFields.Field> statics = fields ? objectFields.staticFields(mt) : List.of();
            if (json) {
                var root = JsonNodeFactory.instance.objectNode();
                root.set("runtime", RuntimeJson.of(session.target()));
                root.put("methodTable", FieldJson.hex(mt));
                root.put("eeClass", FieldJson.hex(eeClass));
                root.put("module", FieldJson.hex(module));
                root.put("name", name);
                root.put("baseSize", baseSize);
                root.put("componentSize", componentSize);
                root.put("containsPointers", (flags & CONTAINS_POINTERS) != 0);
                root.put("slots", slots);
                root.put("interfaces", interfaces);
                root.put("parent", FieldJson.hex(parent));
                if (parent != 0) {
                    root.put("parentName", parentName);
                }
                if (fields) {
                    root.put("numInstanceFields", counts.instance());
                    root.put("numStaticFields", counts.statics());
                    root.put("numThreadStaticFields", counts.threadStatics());
                    var list = root.putArray("fields");
                    FieldJson.add(list, instance, false, 8, false, null);
                    FieldJson.add(list, statics, true, 8, true, null); // statics have values, as SOS's dumpclass shows
                }
                WalkCommand.printJson(out, root);
                return 0;
            }
            out.printf(Locale.ROOT, "EEClass:         %016x%n", eeClass);
            out.printf(Locale.ROOT, "Module:          %016x%n", module);
            out.printf(Locale.ROOT, "Name:            %s%n", name);
            out.printf(Locale.ROOT, "BaseSize:        0x%x%n", baseSize);
            out.printf(Locale.ROOT, "ComponentSize:   0x%x%n", componentSize);
            out.printf(Locale.ROOT, "ContainsPointers: %s%n", (flags & CONTAINS_POINTERS) != 0);
            out.printf(Locale.ROOT, "Slots in VTable: %d%n", slots);
            out.printf(Locale.ROOT, "Number of IFaces in IFaceMap: %d%n", interfaces);
            out.printf(Locale.ROOT, "Parent:          %016x%s%n", parent, parent == 0 ? "" : " " + parentName);
            if (fields) {
                out.printf(Locale.ROOT, "NumInstanceFields: %d (inherited ones included)%n", counts.instance());
                out.printf(Locale.ROOT, "NumStaticFields: %d (%d thread-static)%n", counts.statics(), counts.threadStatics());
                out.println("Fields:");
                out.println(DumpObjCommand.HEADER);
                for (ObjectFields.Field f : instance) {
                    out.printf(Locale.ROOT, "%16s %8x %8x %20s %2d %8s %16s %s%n", "", f.desc().token(), f.desc().offset() + 8, f.type(),
                            f.valueType() ? 1 : 0, "instance", "", f.name());
                }
                for (ObjectFields.Field f : statics) {
                    out.printf(Locale.ROOT, "%16s %8x %8s %20s %2d %8s %16s %s%n", "", f.desc().token(), "-", f.type(), f.valueType() ? 1 : 0,
                            f.desc().isThreadStatic() ? "TLstatic" : "static", f.value(), f.name());
                }
            }
            return 0;
        } catch (FieldLayoutException | MissingMemoryException e) {
            err.printf(Locale.ROOT, "clrheap dumpmt: 0x%x cannot be read as a MethodTable: %s%n", mt, e.getMessage());
            return 1;
        }
    }
}
