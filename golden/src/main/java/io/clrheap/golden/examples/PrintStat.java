package io.clrheap.golden.examples;

import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.report.DumpHeapStat;
import io.clrheap.walker.report.TypeNames;
import java.io.PrintWriter;
import java.nio.file.Path;

/** Example 0: open a dump of any format and print its {@code dumpheap -stat}. Run: ./clrheap example PrintStat DUMP [NAMES] */
public final class PrintStat {

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("usage: ./clrheap example PrintStat DUMP [NAMES]");
            System.exit(2);
        }
        run(new PrintWriter(System.out, true), Path.of(args[0]), args.length > 1 ? Path.of(args[1]) : null);
    }

    public static void run(PrintWriter out, Path file, Path namesFile) throws Exception {
        try (DumpSession dump = Dumps.open(file)) { // an ELF core (.xz too), a minidump or a fixture bundle
            TypeNames names = namesFile != null ? dump.typeNames().orElse(TypeNames.load(namesFile)) : dump.typeNames();
            DumpHeapStat stat = new DumpHeapStat();
            dump.walk(stat); // every object of every region, in address order, without the DAC
            stat.print(out, names, dump.heap().freeMethodTable());
            dump.heap().problems().forEach(p -> out.println("problem: " + p.describe()));
        }
    }
}
