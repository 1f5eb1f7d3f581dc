package io.clrheap.cli;

import io.clrheap.layout.Constant;
import io.clrheap.layout.DacTable;
import io.clrheap.layout.FieldLayout;
import io.clrheap.layout.GlobalValue;
import io.clrheap.layout.Provenance;
import io.clrheap.layout.RuntimeBuild;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.TypeLayout;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Prints a profile's structures, constants and tables as aligned text, each fact with its source. */
final class LayoutPrinter {

    private final RuntimeLayout layout;
    private final PrintWriter out;
    private final boolean notes;
    private final Set<String> citedSources = new TreeSet<>();

    LayoutPrinter(RuntimeLayout layout, PrintWriter out, boolean notes) {
        this.layout = layout;
        this.out = out;
        this.notes = notes;
    }

    void header() {
        RuntimeBuild primary = layout.primaryBuild();
        out.printf("%s — builds %s — profile %s%n", layout.describe(),
                String.join(", ", layout.builds().stream().map(RuntimeBuild::version).toList()), layout.profileName());
        out.printf("g_dacTable: %d entries in %s%n%n", primary.dacTable().length(), primary.version());
    }

    void structure(TypeLayout type) {
        String size = type.size().isPresent()
                ? String.format("size 0x%x (%d)%s", type.size().getAsLong(), type.size().getAsLong(), cite(type.sizeProvenance()))
                : String.format("size not fixed (known fields end at 0x%x)", type.extent());
        out.printf("%s — %s%n", type.name(), size);
        if (type.description() != null && notes) {
            out.printf("  %s%n", type.description());
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(notes ? new String[] {"FIELD", "OFFSET", "SIZE", "TYPE", "SOURCE", "NOTE"}
                : new String[] {"FIELD", "OFFSET", "SIZE", "TYPE", "SOURCE"});
        for (FieldLayout f : type.fields()) {
            Provenance p = f.provenance();
            citedSources.add(p.sourceKey());
            String source = p.certainty().id() + ": " + p.sourceKey();
            rows.add(notes
                    ? new String[] {f.name(), hex(f.offset()), Long.toString(f.size()), f.type().name(), source, nullToEmpty(p.note())}
                    : new String[] {f.name(), hex(f.offset()), Long.toString(f.size()), f.type().name(), source});
        }
        table(rows);
        out.println();
    }

    void constants() {
        out.println("Constants");
        List<String[]> rows = new ArrayList<>();
        rows.add(notes ? new String[] {"NAME", "VALUE", "HEX", "SOURCE", "NOTE"} : new String[] {"NAME", "VALUE", "HEX", "SOURCE"});
        for (Constant c : layout.constants().values()) {
            citedSources.add(c.provenance().sourceKey());
            String source = c.provenance().certainty().id() + ": " + c.provenance().sourceKey();
            rows.add(notes
                    ? new String[] {c.name(), Long.toString(c.value()), hex(c.value()), source, nullToEmpty(c.provenance().note())}
                    : new String[] {c.name(), Long.toString(c.value()), hex(c.value()), source});
        }
        table(rows);
        out.println();
    }

    void globals() {
        if (layout.globals().isEmpty()) {
            out.println("Descriptor globals: none (this runtime ships no contract descriptor)");
            out.println();
            return;
        }
        out.println("Descriptor globals");
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"NAME", "VALUE", "TYPE", "SOURCE"});
        for (GlobalValue g : layout.globals().values()) {
            citedSources.add(g.provenance().sourceKey());
            String value = g.value() instanceof Long l ? hex(l) : "\"" + g.value() + "\"";
            rows.add(new String[] {g.name(), value, g.type(), g.provenance().certainty().id() + ": " + g.provenance().sourceKey()});
        }
        table(rows);
        if (!layout.contracts().isEmpty()) {
            out.println("Contracts: " + layout.contracts());
        }
        out.println();
    }

    void dacTable() {
        for (RuntimeBuild build : layout.builds()) {
            DacTable table = build.dacTable();
            out.printf("g_dacTable of %s: %d entries%s%n", build.version(), table.length(), cite(build.provenance()));
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"GLOBAL", "INDEX", "ENTRY OFFSET", "SOURCE"});
            table.entries().values().stream()
                    .sorted(java.util.Comparator.comparingInt(DacTable.DacTableEntry::index))
                    .forEach(e -> {
                        citedSources.add(e.provenance().sourceKey());
                        rows.add(new String[] {e.name(), Integer.toString(e.index()), hex(e.index() * 8L),
                                e.provenance().certainty().id() + ": " + e.provenance().sourceKey()});
                    });
            table(rows);
            out.println();
        }
    }

    void sources() {
        out.println("Sources");
        for (String key : citedSources) {
            out.printf("  %-8s %s%n", key, layout.sources().getOrDefault(key, "?"));
        }
    }

    private String cite(Provenance p) {
        if (p == null) {
            return "";
        }
        citedSources.add(p.sourceKey());
        return " [" + p.certainty().id() + ": " + p.sourceKey() + "]";
    }

    private void table(List<String[]> rows) {
        int columns = rows.get(0).length;
        int[] width = new int[columns];
        for (String[] row : rows) {
            for (int i = 0; i < columns; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder("  ");
            for (int i = 0; i < columns; i++) {
                line.append(row[i]);
                if (i < columns - 1) {
                    line.append(" ".repeat(width[i] - row[i].length() + 2));
                }
            }
            out.println(line.toString().stripTrailing());
        }
    }

    private static String hex(long v) {
        return v < 0 ? "-0x" + Long.toHexString(-v) : "0x" + Long.toHexString(v);
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
