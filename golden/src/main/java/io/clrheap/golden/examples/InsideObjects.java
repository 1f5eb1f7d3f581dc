package io.clrheap.golden.examples;

import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.fields.ManagedObject;
import io.clrheap.walker.heap.Region;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Example: inside objects, from a real dump, without the DAC — the ten largest strings with their text, and the first
 * Dictionary keyed by strings: its {@code _count} and keys, read by field name as ClrMD's {@code ClrObject} reads them.
 * Run it: {@code ./clrheap example InsideObjects [DUMP]} (default: golden/real/net8-svr, a .NET 8.0.30 process).
 */
public final class InsideObjects {

    private InsideObjects() {
    }

    public static void main(String[] args) throws Exception {
        PrintWriter out = new PrintWriter(System.out, true);
        Path dump = args.length > 0 ? Path.of(args[0]) : Path.of(System.getProperty("clrheap.home", "."), "golden", "real", "net8-svr", "core.xz");
        System.exit(run(out, dump) ? 0 : 1);
    }

    /** Prints the ten largest strings and one Dictionary's entries; true when it found both. */
    public static boolean run(PrintWriter out, Path path) throws Exception {
        try (DumpSession dump = Dumps.open(path)) {
            long stringMt = dump.target().globalPointer("g_pStringClass");
            List<long[]> strings = new ArrayList<>(); // {address, size}
            long[] dictionary = {0};
            dump.walk((long address, long mt, long size, Region region) -> {
                if (mt == stringMt) {
                    strings.add(new long[] {address, size});
                } else if (dictionary[0] == 0 && dump.typeNames().display(mt, 0).startsWith("System.Collections.Generic.Dictionary`2[[System.String,")) {
                    dictionary[0] = address;
                }
            });
            strings.sort(Comparator.comparingLong((long[] s) -> s[1]).reversed());
            out.println("The ten largest strings:");
            for (long[] s : strings.subList(0, Math.min(10, strings.size()))) {
                String text = dump.object(s[0]).orElseThrow().asString();
                out.printf("  %,7d bytes  %s%n", s[1], text.length() > 60 ? text.substring(0, 60) + "…" : text);
            }
            Optional<ManagedObject> d = dictionary[0] == 0 ? Optional.empty() : dump.object(dictionary[0]);
            if (d.isEmpty()) {
                return false;
            }
            ManagedObject map = d.get();
            int count = map.readInt("_count");
            out.printf("%s: _count = %d%n", map, count);
            ManagedObject entries = map.readObject("_entries").orElseThrow();
            int shown = 0;
            for (long i = 0; i < count && shown < 5; i++, shown++) {
                var entry = dump.fields().structFields(entries.array().element(i), entries.array().elementMethodTable());
                // the keys are strings: each entry's key field holds one (or null in a removed entry)
                String key = entry.stream().filter(f -> f.name().equals("key")).findFirst()
                        .map(f -> f.reference() == 0 ? "null" : dump.object(f.reference()).map(o -> "\"" + o.asString() + "\"").orElse("?"))
                        .orElse("?");
                out.printf("  [%d] key %s%n", i, key);
            }
            return !strings.isEmpty() && count >= 0;
        }
    }
}
