package io.clrheap.golden.bench;

import io.clrheap.cli.ClrheapCommand;
import io.clrheap.dac.DacEngine;
import io.clrheap.dac.library.DacException;
import io.clrheap.dac.walk.DacWalkKind;
import io.clrheap.dac.TestDac;
import io.clrheap.emulator.scenario.Feature;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.Scenarios;
import io.clrheap.generator.ClrheapVersion;
import io.clrheap.generator.answer.DacAnswerKeyCheck;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.generator.fixture.FixtureProgress;
import io.clrheap.generator.fixture.FixtureWriter;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.layout.view.bench.BenchmarksFile;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Microsoft's DAC side by side with clrheap's walker on the {@code large} scenario for .NET 9 (the engine under SOS
 * against the DAC-less walker), in one run: {@code walk CORE --stat} as a process with each engine (walker; dac, the SOS
 * path object by object; dac-heapwalk, the DAC's own heap walker), rounds interleaved so that load hits all three alike,
 * the median reported with the walker as the baseline. The SOS path is checked on {@code large} itself; the timed core is
 * {@code large} without the three allocation-context traps the DAC's heap walker cannot walk, where both DAC walks are
 * checked against the answer key and each engine's statistics against the key's before timing: a timing of a wrong
 * answer is not reported.
 * Writes its section of the benchmarks file given as argument (a file of its own by default).
 */
public final class DacBenchmarkReport {

    static final String HEADING = "## DAC: Microsoft's DAC's two heap walks vs `clrheap walk` on `large` (.NET 9)";
    static final int ROUNDS = 3;

    private DacBenchmarkReport() {
    }

    /**
     * The allocation-context traps of {@code large} that the 9.0.1 DAC's own heap walker cannot walk (docs/dac.md): it
     * does not skip the live global context and does not look for a second context where it lands after skipping one.
     */
    static final Set<Feature> HEAP_WALKER_TRAPS = EnumSet.of(Feature.GLOBAL_CONTEXT, Feature.CHAINED_CONTEXTS, Feature.CONTEXT_AT_REGION_START);

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "BENCHMARKS.md");
        Path dir = Files.createTempDirectory("clrheap-dac-bench");
        try {
            Scenario large = Scenarios.named("large").orElseThrow();
            large = large.on(RuntimeVersion.NET9, large.gc());
            Set<Feature> kept = EnumSet.copyOf(large.features());
            kept.removeAll(HEAP_WALKER_TRAPS);
            Scenario timed = large.toBuilder().name("large-dac").features(kept).build();
            Path dac = TestDac.path();
            DacEngine engine = DacEngine.open(dac);

            // large itself: the SOS path must equal its answer key (the heap walker cannot walk it: the traps)
            System.out.println("dac benchmark: generating large (net9, " + large.gc().id() + " GC) ...");
            FixtureWriter.write(large, EnumSet.of(FixtureFormat.ELF), dir.resolve("full"), ClrheapVersion.current(), FixtureProgress.NONE);
            String fullSos = checked(engine, dir.resolve("full"), "large", DacWalkKind.SOS);
            String fullHeapWalker;
            try {
                fullHeapWalker = checked(engine, dir.resolve("full"), "large", DacWalkKind.HEAPWALK);
            } catch (DacException e) {
                fullHeapWalker = e.getMessage().lines().findFirst().orElse("");
            }

            // the timed heap: large without the traps, walked by all three engines
            System.out.println("dac benchmark: generating large without the heap walker's traps ...");
            FixtureWriter.write(timed, EnumSet.of(FixtureFormat.ELF), dir.resolve("timed"), ClrheapVersion.current(), FixtureProgress.NONE);
            Path core = dir.resolve("timed").resolve("large-dac.core");
            Path answer = dir.resolve("timed").resolve("large-dac.answer");
            Map<String, String> checked = new LinkedHashMap<>();
            for (DacWalkKind kind : DacWalkKind.values()) {
                checked.put(kind.name(), checked(engine, dir.resolve("timed"), "large-dac", kind));
            }
            String expected = Files.readString(answer.resolve("dumpheap-stat.txt"));
            List<List<String>> engines = List.of(List.of(), List.of("--engine", "dac", "--dac", dac.toString()),
                    List.of("--engine", "dac-heapwalk", "--dac", dac.toString()));
            for (List<String> e : engines.subList(0, 2)) {
                List<String> arguments = Stream.concat(Stream.of("walk", core.toString(), "--stat", "-q"), e.stream()).toList();
                ClrheapCommand.Outcome o = ClrheapCommand.run(arguments.toArray(String[]::new));
                if (o.exitCode() != 0 || !o.out().equals(expected)) {
                    throw new IllegalStateException("dac benchmark: " + String.join(" ", arguments) + " does not print the answer key's statistics");
                }
            }
            double[] load = loadAverage();
            double[][] ms = new double[engines.size()][ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                for (int e = 0; e < engines.size(); e++) {
                    List<String> arguments = Stream.concat(Stream.of("walk", core.toString(), "--stat", "-q"), engines.get(e).stream()).toList();
                    ms[e][round] = processMs(arguments);
                    System.out.printf(Locale.ROOT, "dac benchmark: round %d, %s: %,.0f ms%n", round + 1, e == 0 ? "walker" : engines.get(e).get(1), ms[e][round]);
                }
            }
            StringBuilder s = new StringBuilder();
            s.append(HEADING).append("\n\n");
            s.append(String.format(Locale.ROOT, "Reproduce: `./clrheap bench -Dbench.only=dac` (each engine's `walk CORE --stat -q` as a process of its own, "
                    + "%d rounds interleaved, the median; %s, %d CPUs; load average when the timing started: %.2f, %.2f, %.2f).%n%n", ROUNDS,
                    Runtime.version(), Runtime.getRuntime().availableProcessors(), load[0], load[1], load[2]));
            s.append(String.format(Locale.ROOT, "`large` on .NET 9.0.1, %s GC: the SOS path equals its answer key (%s, free objects included); the DAC's own "
                    + "heap walker cannot walk it (%s): `large` holds every trap, among them three allocation-context states its walker does not "
                    + "handle (a live global context, an empty context right after another, an empty context at a region's start; docs/dac.md). "
                    + "So the three engines are timed on `large` without those three features (`large-dac`, %,.1f MiB ELF core; "
                    + "everything else of `large` kept), where both DAC walks equal the answer key (SOS path: %s, free objects included; "
                    + "heap walker: %s, free objects skipped, sizes rounded up to 8) and `walk --stat` prints the answer key's statistics "
                    + "with the walker and with `--engine dac`. The DAC engines run the DAC in a child JVM: their times include a second JVM start.%n%n",
                    large.gc().id(), fullSos, fullHeapWalker, Files.size(core) / 1048576.0, checked.get("SOS"), checked.get("HEAPWALK")));
            s.append("| engine | how it walks | median | rounds | × walker |\n|---|---|---|---|---|\n");
            String[] what = {"clrheap's walker (no DAC)", "the SOS path: ISOSDacInterface, GetObjectData object by object, GetMethodTableData once a type",
                "the DAC's own heap walker: IDacDbiInterface::WalkHeap, 4,096 objects a call"};
            String[] names = {"`walker`", "`dac`", "`dac-heapwalk`"};
            double base = median(ms[0]);
            for (int e = 0; e < engines.size(); e++) {
                s.append(String.format(Locale.ROOT, "| %s | %s | %,.0f ms | %s | **%.2f** |%n", names[e], what[e], median(ms[e]),
                        Arrays.stream(ms[e]).mapToObj(v -> String.format(Locale.ROOT, "%,.0f", v)).reduce((a, b) -> a + ", " + b).orElse(""),
                        median(ms[e]) / base));
            }
            String section = s.toString();
            System.out.println();
            System.out.println(section);
            BenchmarksFile.writeSection(out, section);
            System.out.println("wrote " + out.toAbsolutePath());
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** One DAC walk of {@code folder/NAME.core} against its answer key: "N objects", or an exception saying why not. */
    private static String checked(DacEngine engine, Path folder, String name, DacWalkKind kind) throws Exception {
        Path core = folder.resolve(name + ".core");
        try (ElfCore dump = ElfCore.open(core)) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(dump, dump.mappedFiles(), Optional.empty());
            DacAnswerKeyCheck.Outcome o = DacAnswerKeyCheck.check(engine, core, target, kind, folder.resolve(name + ".answer"), DacEngine.DEFAULT_TIMEOUT);
            if (!o.agrees()) {
                throw new IllegalStateException("dac benchmark: the DAC's " + kind + " walk of " + name + " disagrees with the answer key: "
                        + o.result() + "; not timing it");
            }
            System.out.printf(Locale.ROOT, "dac benchmark: %s, %s walk: agrees with the answer key, %,d objects%n", name, kind, o.result().objects());
            return String.format(Locale.ROOT, "%,d objects", o.result().objects());
        }
    }

    private static double processMs(List<String> arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), ClrheapCommand.class.getName()));
        command.addAll(arguments);
        long start = System.nanoTime();
        Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        if (!p.waitFor(30, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("dac benchmark: " + String.join(" ", arguments) + " did not finish in 30 minutes");
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException("dac benchmark: " + String.join(" ", arguments) + " exited " + p.exitValue());
        }
        return (System.nanoTime() - start) / 1e6;
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v[v.length / 2];
    }

    private static double[] loadAverage() {
        try {
            String[] t = Files.readString(Path.of("/proc/loadavg")).split("\\s+");
            return new double[] {Double.parseDouble(t[0]), Double.parseDouble(t[1]), Double.parseDouble(t[2])};
        } catch (IOException | RuntimeException e) {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
        }
    }
}
