package io.clrheap.cli;

import io.clrheap.walker.Dumps;
import io.clrheap.walker.DumpSession;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.generator.answer.AnswerKeyCheck;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.generator.fixture.FixtureName;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.report.DumpHeapStat;
import io.clrheap.walker.runtime.Target;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code clrheap demo}: the main job on the built-in default scenario — emulate a .NET process, write it as every
 * fixture format with its answer key (what {@code generate --scenario default} writes, named by {@link FixtureName}:
 * {@code default-net8-server.core} ...), walk each written file with
 * the walker and compare with the answer key.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {"Write the default scenario's fixtures, walk each one, and check the walks against the answer key.",
            "The main job on the built-in default scenario (.NET 8, server GC unless told otherwise): emulate the "
                    + "process, write it as fixture files with the answer key (as generate --scenario default does), walk each "
                    + "file, compare."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap demo",
            "  ./clrheap demo --runtime net10 --gc workstation --out /tmp/demo",
            "",
            "When Microsoft's DAC for the scenario's build is at hand (--dac, $CLRHEAP_DAC, $DOTNET_ROOT), the ELF "
                    + "core is walked with it too, both ways, and checked against the same answer key.",
            "",
            "Exit codes: 0 the walker (and the DAC, when one was found) agrees with the answer key; 1 it does not "
                    + "(the differences are printed); 2 bad usage; 3 too little memory or disk for the build (as generate "
                    + "checks; --force builds anyway)."})
final class DemoCommand implements Callable<Integer> {

    @Mixin
    RuntimeOptions runtime = new RuntimeOptions();

    @Option(names = "--out", paramLabel = "DIR", description = "The folder to write into (default: ${DEFAULT-VALUE}).", defaultValue = "clrheap-out")
    Path out = Path.of("clrheap-out");

    @Option(names = "--dac", paramLabel = "PATH",
            description = "Microsoft's DAC (libmscordaccore.so, or a folder holding it or the DACs of several builds) to check the ELF core with too; without it one is looked "
                    + "for as walk --engine dac does, and the check is skipped, saying so, when there is none for the build.")
    Path dac;

    @Option(names = "--force", description = "Build even when the estimate says the machine has too little memory, Java heap or disk.")
    boolean force;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--out " + out + " is a file, not a folder");
        }
        Scenario scenario = Scenario.defaultScenario(runtime.runtime, runtime.gc);
        stdout.printf("Scenario '%s' on %s, %s GC: %s.%n%n", scenario.name(), scenario.runtimeName(), scenario.gc().id(), scenario.description());
        // a minidump is a Windows process of the build, and clrheap lays out only the Windows builds it has seen
        java.util.Set<FixtureFormat> formats = io.clrheap.generator.fixture.FixtureWriter.withoutRefusedMinidump(scenario,
                EnumSet.allOf(FixtureFormat.class), why -> stdout.printf("No minidump: %s.%n%n", why));
        var refusal = GenerateCommand.check("demo", scenario, formats, out, force, err);
        if (refusal.isPresent()) {
            err.println(refusal.get());
            return GenerateCommand.EXIT_INVALID_INPUT;
        }
        List<Path> written = GenerateCommand.generate(scenario, formats, out, err);
        String name = FixtureName.of(scenario).toString();
        Path answer = out.resolve(name + ".answer");
        for (Path p : written) {
            stdout.printf("wrote %s%s%n", p, Files.isDirectory(p) ? "/" : String.format(java.util.Locale.ROOT, " (%,d bytes)", Files.size(p)));
        }
        stdout.println();
        boolean all = true;
        boolean statPrinted = false;
        for (Path file : written) {
            if (Files.isDirectory(file)) {
                continue;
            }
            try (DumpSession dump = Dumps.open(file)) {
                Target target = dump.target();
                DiscoveredHeap heap = dump.heap();
                if (!statPrinted) {
                    stdout.printf("dumpheap -stat of %s (%s, found through g_dacTable as a DAC-less walker does):%n", file.getFileName(), target.describe());
                    DumpHeapStat stat = new DumpHeapStat();
                    dump.walk(stat);
                    stat.print(stdout, dump.typeNames(), heap.freeMethodTable());
                    stdout.println();
                    statPrinted = true;
                }
                AnswerKeyCheck.Result result = AnswerKeyCheck.check(dump, answer);
                if (result.agrees()) {
                    stdout.printf("%s (%s): walker agrees with the answer key: %,d objects, %,d bytes%n", file.getFileName(), dump.format(),
                            result.objects(), result.bytes());
                } else {
                    all = false;
                    stdout.printf("%s (%s): walker DISAGREES with the answer key: %,d differences, %,d problems (%,d objects found, %,d expected)%n",
                            file.getFileName(), dump.format(), result.differences(), result.problems(), result.objects(), result.expected());
                    result.first().forEach(d -> stdout.println("  " + d));
                }
            }
        }
        stdout.println();
        Path core = out.resolve(name + FixtureFormat.ELF.suffix());
        DacCheck.Outcome dacOutcome = new DacCheck(stdout).check(core, answer, dac);
        if (!dacOutcome.made()) {
            String why = dacOutcome.summary().lines().findFirst().orElse("");
            if (why.startsWith("no DAC")) {
                // none was given and none is installed: the usual case, and nothing is wrong; say what one would add
                stdout.println("The walker needs no DAC. To cross-check these files with Microsoft's too, give the build's "
                        + "libmscordaccore.so: ./clrheap demo --dac PATH (or $CLRHEAP_DAC).");
            } else {
                stdout.println("Microsoft's DAC: not checked: " + (why.contains("; looked at") ? why.substring(0, why.indexOf("; looked at"))
                        + " (give one with --dac PATH or $CLRHEAP_DAC)" : why));
            }
        } else if (!dacOutcome.agrees()) {
            all = false;
        }
        stdout.println();
        stdout.println("Next: ./clrheap walk " + core + " --eeheap   (heaps and their regions by generation, as SOS's eeheap -gc)");
        stdout.println("      ./clrheap explain " + core + "          (how the heap was found, read by read)");
        stdout.println("      ./clrheap scenarios                                  (the other built-in fixtures)");
        stdout.println("      ./clrheap conform --walker './clrheap walk {dump} --stat -q' --suite " + out + "   (check a walker against these files)");
        return all ? 0 : 1;
    }
}
