package io.clrheap.cli;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.TypeLayout;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.layout.profile.ProfileWriter;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code clrheap layout}: prints the structures and constants of a runtime profile. */
@Command(
        name = "layout",
        mixinStandardHelpOptions = true,
        description = "Print the layout of a runtime's structures (field, offset, size, type, source).",
        footer = {
            "",
            "Examples:",
            "  ./clrheap layout --runtime net8 --gc server --struct heap_segment",
            "  ./clrheap layout --runtime net10 --gc workstation --struct Thread --struct ThreadStore --notes",
            "  ./clrheap layout --runtime net9 --constants",
            "  ./clrheap layout --list",
            "  ./clrheap layout --runtime net10 --format json > net10-server.json"
        })
final class LayoutCommand implements Runnable {

    @Mixin
    RuntimeOptions runtime = new RuntimeOptions();

    @Option(names = "--struct", paramLabel = "NAME", description = "Only this structure (repeatable), e.g. heap_segment, Thread, generation.")
    List<String> structs = List.of();

    @Option(names = "--constants", description = "Print the constants (flag bits, sizes, slots, alignment).")
    boolean constants;

    @Option(names = "--globals", description = "Print the descriptor globals and contracts.")
    boolean globals;

    @Option(names = "--dac-table", description = "Print the g_dacTable indexes of each known build.")
    boolean dacTable;

    @Option(names = "--list", description = "List the structures with their sizes.")
    boolean list;

    @Option(names = "--notes", description = "Add each fact's note and each structure's description.")
    boolean notes;

    @Option(names = "--format", paramLabel = "text|json", defaultValue = "text",
            description = "text (default) or json: the resolved profile in the runtime's data-descriptor shape.")
    String format;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        RuntimeLayout layout = runtime.runtime.layout(ProfileLoader.builtIn(), runtime.gc);
        PrintWriter out = spec.commandLine().getOut();
        for (String name : structs) {
            if (layout.findType(name).isEmpty()) {
                throw new CommandLine.ParameterException(spec.commandLine(), "no structure '" + name + "' in the "
                        + layout.describe() + " profile; known: " + String.join(", ", layout.types().keySet()));
            }
        }
        switch (format) {
            case "json" -> {
                if (!structs.isEmpty() || constants || globals || dacTable || list || notes) {
                    throw new CommandLine.ParameterException(spec.commandLine(),
                            "--format json writes the whole resolved profile; it takes no --struct, --constants, --globals, --dac-table, --list or --notes");
                }
                out.println(ProfileWriter.toJson(layout));
                return;
            }
            case "text" -> { }
            default -> throw new CommandLine.ParameterException(spec.commandLine(), "unknown --format '" + format + "'; known: text, json");
        }
        if (list && (!structs.isEmpty() || constants || globals || dacTable)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--list lists the structures; it takes no --struct, --constants, --globals or --dac-table");
        }
        LayoutPrinter printer = new LayoutPrinter(layout, out, notes);
        printer.header();
        if (list) {
            for (TypeLayout t : layout.types().values()) {
                out.printf("  %-22s %s%n", t.name(), t.size().isPresent()
                        ? String.format("0x%x", t.size().getAsLong()) : String.format("≥0x%x", t.extent()));
            }
            return;
        }
        boolean everything = structs.isEmpty() && !constants && !globals && !dacTable;
        if (everything) {
            layout.types().values().forEach(printer::structure);
        } else {
            structs.forEach(name -> printer.structure(layout.type(name)));
        }
        if (constants || everything) {
            printer.constants();
        }
        if (globals || everything) {
            printer.globals();
        }
        if (dacTable || everything) {
            printer.dacTable();
        }
        printer.sources();
    }
}
