package io.clrheap.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.fields.ArrayLayout;
import io.clrheap.value.ElementType;
import io.clrheap.walker.fields.FieldLayoutException;
import io.clrheap.walker.fields.ObjectFields;
import io.clrheap.walker.graph.HeapGraph;
import io.clrheap.walker.report.TypeNames;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code clrheap dumparray}: an array's elements as SOS's {@code !dumparray} prints them — Name, MethodTable, EEClass,
 * Size, the {@code Array:} line (rank, element count, element type), the element MethodTable, then {@code [i] value}
 * rows ({@code [i,j]} for a multi-dimensional array); {@code --details} adds each struct element's fields, or each
 * referenced object's type.
 */
@Command(
        name = "dumparray",
        mixinStandardHelpOptions = true,
        description = {"Show an array's elements, as SOS's !dumparray does.",
            "Name, MethodTable, EEClass, Size, the rank, element count and element type, then one [index] value row "
                    + "per element: numbers in decimal, references in hex (null for none), a struct stored inline as its "
                    + "address.",
            "--start and --length choose the elements; --details adds each struct's fields or each object's type."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap dumparray golden/real/net8-svr/core.xz 0x7f929cc00208",
            "  ./clrheap dumparray --start 2 --length 3 --details golden/real/net8-svr/core.xz 0x7f929cc00268",
            "",
            "Exit codes: 0 success; 1 ADDR is no array (or no object start: the object holding it is named); 2 bad usage;",
            "3 the dump cannot be opened."
        })
final class DumpArrayCommand implements Callable<Integer> {

    @Mixin
    HeapSource source = new HeapSource();

    @Parameters(index = "1", arity = "0..1", paramLabel = "ADDR", description = "The array's address (hex).")
    String addressText;

    @Option(names = "--start", paramLabel = "N", description = "The first element shown (default: 0).")
    long start;

    @Option(names = "--length", paramLabel = "N", description = "How many elements (default: all; at most 100,000 are printed at a time).")
    Long length;

    @Option(names = "--details", description = "Each struct element's fields, or each referenced object's type.")
    boolean details;

    @Option(names = "--json", description = "The array and its elements as JSON (docs/schemas/dumparray.schema.json).")
    boolean json;

    @Mixin
    GraphCommandSupport.ObjectOptions object = new GraphCommandSupport.ObjectOptions();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** No more rows than this in one run: a corrupt length cannot flood the terminal. */
    static final long MAX_ROWS = 100_000;

    @Override
    public Integer call() throws Exception {
        CommandLine cli = spec.commandLine();
        long address = GraphCommandSupport.parseAddress(cli, GraphCommandSupport.address(cli, source, addressText));
        if (start < 0 || (length != null && length < 0)) {
            throw new CommandLine.ParameterException(cli, "--start and --length cannot be negative");
        }
        PrintWriter out = cli.getOut();
        PrintWriter err = cli.getErr();
        return GraphCommandSupport.open("dumparray", cli, source, object.module, object.names, err, (session, names) -> print(out, err, session, names, address));
    }

    private int print(PrintWriter out, PrintWriter err, DumpSession session, TypeNames names, long array) {
        HeapGraph graph = session.graph().graph();
        long free = session.heap().freeMethodTable();
        if (GraphCommandSupport.noObjectStart("dumparray", err, graph, names, free, array)) {
            return 1;
        }
        int index = graph.indexOf(array);
        long mt = graph.methodTable(index);
        ObjectFields fields = session.fields();
        try {
            ArrayLayout a = fields.array(array, mt);
            long size = graph.size(index);
            long end = length == null ? a.length() : Math.min(a.length(), start + length);
            if (json) {
                printJson(out, session, graph, names, free, array, mt, size, a, end);
                return 0;
            }
            out.printf(Locale.ROOT, "Name:        %s%n", names.display(mt, free));
            out.printf(Locale.ROOT, "MethodTable: %016x%n", mt);
            out.printf(Locale.ROOT, "EEClass:     %016x%n", fields.reader().eeClass(mt));
            out.printf(Locale.ROOT, "Size:        %d(0x%x) bytes%n", size, size);
            out.printf(Locale.ROOT, "Array:       Rank %d, Number of elements %d, Type %s%n", a.rank(), a.length(), typeWord(a.elementType()));
            out.printf(Locale.ROOT, "Element Methodtable: %016x%n", a.elementMethodTable());
            long shown = 0;
            for (long i = start; i < end; i++) {
                if (shown++ == MAX_ROWS) {
                    out.printf(Locale.ROOT, "… %,d more elements: choose them with --start and --length%n", end - i);
                    break;
                }
                out.printf(Locale.ROOT, "%s %s%n", a.label(i), fields.element(a, i));
                if (details) {
                    details(out, fields, graph, names, free, a, i);
                }
            }
            return 0;
        } catch (FieldLayoutException | MissingMemoryException e) {
            err.printf(Locale.ROOT, "clrheap dumparray: 0x%x cannot be read as an array: %s%n", array, e.getMessage());
            return 1;
        }
    }

    private void printJson(PrintWriter out, DumpSession session, HeapGraph graph, TypeNames names, long free, long array, long mt, long size,
                           ArrayLayout a, long end) {
        ObjectFields fields = session.fields();
        var root = JsonNodeFactory.instance.objectNode();
        root.set("runtime", RuntimeJson.of(session.target()));
        root.put("address", FieldJson.hex(array));
        root.put("name", names.display(mt, free));
        root.put("methodTable", FieldJson.hex(mt));
        root.put("eeClass", FieldJson.hex(fields.reader().eeClass(mt)));
        root.put("size", size);
        root.put("rank", a.rank());
        root.put("length", a.length());
        if (!a.szArray()) {
            var lengths = root.putArray("lengths");
            var bounds = root.putArray("lowerBounds");
            for (int d = 0; d < a.rank(); d++) {
                lengths.add(a.lengths()[d]);
                bounds.add(a.lowerBounds()[d]);
            }
        }
        root.put("elementType", typeWord(a.elementType()));
        root.put("elementMethodTable", FieldJson.hex(a.elementMethodTable()));
        root.put("start", start);
        var elements = root.putArray("elements");
        long i = start;
        for (; i < end && i - start < MAX_ROWS; i++) {
            var e = elements.addObject();
            e.put("index", a.label(i));
            e.put("value", fields.element(a, i));
            long target = fields.elementReference(a, i);
            int t = target == 0 ? -1 : graph.indexOf(target);
            if (t >= 0) {
                e.put("valueMethodTable", FieldJson.hex(graph.methodTable(t)));
                if (details) {
                    e.put("valueType", names.display(graph.methodTable(t), free));
                }
            }
            if (details && a.elementType() == ElementType.VALUETYPE) {
                FieldJson.add(e.putArray("fields"), fields.structFields(a.element(i), a.elementMethodTable()), false, 0, true, graph);
            }
        }
        root.put("notShown", Math.max(0, end - i));
        WalkCommand.printJson(out, root);
    }

    private static void details(PrintWriter out, ObjectFields fields, HeapGraph graph, TypeNames names, long free, ArrayLayout a, long i) {
        if (a.elementType() == ElementType.VALUETYPE) {
            for (ObjectFields.Field f : fields.structFields(a.element(i), a.elementMethodTable())) {
                out.printf(Locale.ROOT, "    %8x %20s %16s %s%n", f.desc().offset(), f.type(), f.value(), f.name());
            }
        } else if (fields.elementReference(a, i) != 0) {
            int target = graph.indexOf(fields.elementReference(a, i));
            out.printf(Locale.ROOT, "    %s%n", target < 0 ? "(no object of the heap)" : names.display(graph.methodTable(target), free));
        }
    }

    /** SOS's word for the element type in the Array: line. */
    private static String typeWord(int type) {
        return switch (type) {
            case ElementType.BOOLEAN -> "Boolean";
            case ElementType.CHAR -> "Char";
            case ElementType.I1 -> "SByte";
            case ElementType.U1 -> "Byte";
            case ElementType.I2 -> "Int16";
            case ElementType.U2 -> "UInt16";
            case ElementType.I4 -> "Int32";
            case ElementType.U4 -> "UInt32";
            case ElementType.I8 -> "Int64";
            case ElementType.U8 -> "UInt64";
            case ElementType.R4 -> "Single";
            case ElementType.R8 -> "Double";
            case ElementType.I -> "IntPtr";
            case ElementType.U -> "UIntPtr";
            case ElementType.VALUETYPE -> "VALUETYPE";
            default -> ElementType.isReference(type) ? "CLASS" : ElementType.name(type);
        };
    }
}
