package io.clrheap.cli;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.generator.materialize.MaterializeException;
import io.clrheap.generator.materialize.MaterializedProcess;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.profile.RuntimeChoice;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code clrheap materialize SCENARIO}: an emulated process's memory at its real addresses in a helper process. */
@Command(
        name = "materialize",
        mixinStandardHelpOptions = true,
        description = {"Place an emulated .NET process's memory at its real addresses in a helper process, to walk it with --pid.",
            "Builds the scenario's emulated process and starts a helper process (a JVM) that maps every range of its "
                    + "memory at its exact virtual address (mmap with MAP_FIXED_NOREPLACE, through JNA), the runtime module "
                    + "from a file named libcoreclr.so, so that the live walker (walk --pid), gdb -p or any tool that reads "
                    + "process memory finds a running runtime there. Prints the helper's pid and keeps it until Ctrl-C or --for "
                    + "has passed; then ends it and removes its temporary files."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap materialize default",
            "  ./clrheap materialize every-edge --runtime net10 --gc workstation --for 10m",
            "  ./clrheap walk --pid PID --stat --names /tmp/clrheap-materialize-…/type-names.txt   (in another "
                    + "terminal)",
            "",
            "Exit codes: 0 the helper ran until Ctrl-C or --for; 1 the helper could not place the memory (an address "
                    + "taken, named; JNA not usable) or ended by itself; 2 bad usage; 3 an unknown scenario or an invalid "
                    + "scenario file, or one this machine cannot hold (estimated before building: the emulated process and the "
                    + "helper's copy of its memory, the Java heap, the temporary folder's disk; --force builds anyway)."})
final class MaterializeCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "SCENARIO",
            description = "A built-in scenario (./clrheap scenarios lists them) or a scenario JSON file (docs/scenarios.md).")
    String scenario;

    @Option(names = "--runtime", paramLabel = "net8|net9|net10|BUILD", converter = RuntimeOptions.RuntimeConverter.class,
            description = "Runtime: net8, net9 or net10 (each its reference build: 8.0.30, 9.0.1, 10.0.9) or an exact build, e.g. 9.0.7 "
                    + "(default: the scenario's).")
    RuntimeChoice runtime;

    @Option(names = "--gc", paramLabel = "server|workstation", converter = RuntimeOptions.GcConverter.class,
            description = "GC flavour (default: the scenario's).")
    GcFlavor gc;

    @Option(names = "--seed", paramLabel = "N", description = "The seed of every random choice (default: the scenario's).")
    Long seed;

    @Option(names = "--for", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "End after this long: 90s, 10m, 2h, 500ms, or ISO-8601 (PT1M) (default: until Ctrl-C).")
    Duration lifetime;

    @Option(names = "--force", description = "Build even when the estimate says the machine has too little memory, Java heap or disk.")
    boolean force;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        EmulatedRuntime process;
        try {
            Scenario s = ScenarioOption.resolve(scenario);
            s = s.on(runtime == null ? s.runtimeChoice() : runtime, gc == null ? s.gc() : gc);
            if (seed != null) {
                s = s.toBuilder().seed(seed).build();
            }
            // the helper holds a copy of the memory, written first to a temporary folder
            io.clrheap.emulator.BuildEstimate estimate = io.clrheap.emulator.BuildEstimate.of(s);
            java.nio.file.Path tmp = java.nio.file.Path.of(System.getProperty("java.io.tmpdir"));
            var refusal = BuildCheck.check("materialize", s, estimate,
                    BuildCheck.needs(estimate, 2, estimate.memoryBytes(), "the helper's memory image", tmp), force, err);
            if (refusal.isPresent()) {
                err.println(refusal.get());
                return GenerateCommand.EXIT_INVALID_INPUT;
            }
            process = new RuntimeBuilder().build(s);
        } catch (IllegalArgumentException | IllegalStateException e) {
            err.println("clrheap materialize: " + e.getMessage());
            return GenerateCommand.EXIT_INVALID_INPUT;
        }
        MaterializedProcess helper;
        try {
            helper = MaterializedProcess.start(process, lifetime);
        } catch (MaterializeException e) {
            err.println("clrheap materialize: " + e.getMessage());
            return 1;
        }
        Thread cleanup = new Thread(helper::close, "materialize-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup); // Ctrl-C: the helper and its files go too
        try {
            describe(out, process, helper);
            out.flush();
            boolean ended = lifetime == null ? awaitExit(helper, null) : awaitExit(helper, lifetime.plusSeconds(30));
            if (ended && lifetime == null) {
                err.println("clrheap materialize: the helper process " + helper.pid() + " ended by itself (exit code "
                        + helper.onExit().getNow(null).exitValue() + ")" + messages(helper));
                return 1;
            }
            return 0;
        } finally {
            helper.close();
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException e) {
                // shutting down: the hook is running or ran
            }
        }
    }

    private void describe(PrintWriter out, EmulatedRuntime process, MaterializedProcess helper) {
        Scenario s = process.scenario();
        long pid = helper.pid();
        out.printf(Locale.ROOT, "materialized %s (.NET %s, %s GC, %d heap%s, seed %d) in process %d: %d ranges, %,d KiB at their own addresses%n",
                s.name(), process.layout().primaryBuild().version(), s.gc().id(), s.heaps(), s.heaps() == 1 ? "" : "s", s.seed(), pid,
                helper.image().ranges().size(), helper.image().bytes() >> 10);
        out.printf(Locale.ROOT, "runtime module: %s at 0x%x%n", helper.image().moduleFile(), process.module().base());
        out.printf(Locale.ROOT, "walk it:   ./clrheap walk --pid %d --stat --names %s%n", pid, helper.image().typeNames());
        long[] first = firstObject(process);
        if (first != null) {
            out.printf(Locale.ROOT, "read it:   gdb -p %d -batch -ex 'x/2gx 0x%x'     (an object: its MethodTable is 0x%x)%n", pid, first[0], first[1]);
        }
        String notes = helper.messages().strip();
        if (!notes.isEmpty()) {
            out.println(notes);
        }
        out.println(lifetime == null ? "running until Ctrl-C" : "running for " + format(lifetime) + " (Ctrl-C ends it sooner)");
    }

    private static long[] firstObject(EmulatedRuntime process) {
        long[] first = new long[2];
        boolean[] found = {false};
        process.groundTruth().forEachObject((address, mt, size, generation, heap, kind) -> {
            if (!found[0]) {
                first[0] = address;
                first[1] = mt;
                found[0] = true;
            }
        });
        return found[0] ? first : null;
    }

    /** True when the helper ended within {@code limit} (null: however long it takes). */
    private static boolean awaitExit(MaterializedProcess helper, Duration limit) throws InterruptedException {
        try {
            if (limit == null) {
                helper.onExit().get();
            } else {
                helper.onExit().get(limit.toMillis(), TimeUnit.MILLISECONDS);
            }
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true;
        }
    }

    private static String messages(MaterializedProcess helper) {
        String m = helper.messages().strip();
        return m.isEmpty() ? "" : ": " + m;
    }

    static String format(Duration d) {
        return d.toMillis() % 1000 != 0 ? d.toMillis() + " ms" : d.toString().substring(2).toLowerCase(Locale.ROOT);
    }

    /** {@code --for}: 90s, 10m, 2h, 500ms, 1d, or ISO-8601 (PT1M30S); positive. */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        private static final Pattern SIMPLE = Pattern.compile("(\\d+)(ms|s|m|h|d)");

        @Override
        public Duration convert(String value) {
            String v = value.strip().toLowerCase(Locale.ROOT);
            Matcher m = SIMPLE.matcher(v);
            Duration d;
            try {
                if (m.matches()) {
                    long n = Long.parseLong(m.group(1));
                    d = switch (m.group(2)) {
                        case "ms" -> Duration.ofMillis(n);
                        case "s" -> Duration.ofSeconds(n);
                        case "m" -> Duration.ofMinutes(n);
                        case "h" -> Duration.ofHours(n);
                        default -> Duration.ofDays(n);
                    };
                } else {
                    d = Duration.parse(value.strip().toUpperCase(Locale.ROOT));
                }
            } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a duration (e.g. 90s, 10m, 2h, 500ms, PT1M)");
            }
            if (d.isNegative() || d.isZero()) {
                throw new CommandLine.TypeConversionException("'" + value + "': the duration must be positive");
            }
            return d;
        }
    }
}
