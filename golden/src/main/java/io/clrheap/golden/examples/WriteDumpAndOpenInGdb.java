package io.clrheap.golden.examples;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.generator.elf.ElfCoreWriter;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Example 2: write an emulated process as a Linux ELF core and open it in gdb, which reads the same bytes: the
 * MethodTable pointer of a few objects. Run it: {@code ./clrheap example WriteDumpAndOpenInGdb [OUT.core]}.
 */
public final class WriteDumpAndOpenInGdb {

    private WriteDumpAndOpenInGdb() {
    }

    public static void main(String[] args) throws Exception {
        PrintWriter out = new PrintWriter(System.out, true);
        Path core = args.length > 0 ? Path.of(args[0]) : Path.of("clrheap-out", "example.core");
        System.exit(run(out, core) ? 0 : 1);
    }

    /** Writes the core to {@code core}, runs gdb on it and prints what gdb read; true when gdb read every MethodTable. */
    public static boolean run(PrintWriter out, Path core) throws IOException, InterruptedException {
        EmulatedRuntime process = new RuntimeBuilder().build(Scenario.defaultScenario(RuntimeVersion.NET8, GcFlavor.SERVER));
        Files.createDirectories(core.toAbsolutePath().getParent());
        ElfCoreWriter.write(process, core);
        out.printf("wrote %s (%,d bytes)%n", core, Files.size(core));

        // The first three objects the emulator placed: gdb's x/gx prints the word at each address, its MethodTable.
        List<long[]> first = new ArrayList<>();
        process.groundTruth().forEachObject((address, mt, size, generation, heap, kind) -> {
            if (first.size() < 3) {
                first.add(new long[] {address, mt});
            }
        });
        List<String> command = new ArrayList<>(List.of("gdb", "-q", "-nx", "-batch", "-ex", "core-file " + core.toAbsolutePath()));
        first.forEach(o -> command.addAll(List.of("-ex", String.format("x/gx 0x%x", o[0]))));
        Process gdb;
        try {
            gdb = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            out.println("gdb is not installed (Debian: apt-get install gdb); the core is written, open it with: gdb -c " + core);
            return false;
        }
        String printed = new String(gdb.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!gdb.waitFor(60, TimeUnit.SECONDS)) {
            gdb.destroyForcibly();
            out.println("gdb did not finish in 60 s");
            return false;
        }
        out.println("gdb says:");
        printed.lines().filter(l -> l.startsWith("0x")).forEach(l -> out.println("  " + l));
        boolean all = true;
        for (long[] o : first) {
            boolean read = printed.matches(String.format("(?s).*0x%x(?: <[^>]*>)?:\\s+0x0*%x\\b.*", o[0], o[1]));
            out.printf("object 0x%x: MethodTable 0x%x %s%n", o[0], o[1], read ? "as gdb read it" : "NOT what gdb read");
            all &= read;
        }
        return all;
    }
}
