package io.clrheap.golden.examples;

import io.clrheap.walker.Dumps;
import io.clrheap.walker.DumpSession;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.Scenarios;
import io.clrheap.generator.ClrheapVersion;
import io.clrheap.conformance.Comparison;
import io.clrheap.conformance.WalkerOutput;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.generator.fixture.FixtureProgress;
import io.clrheap.generator.fixture.FixtureWriter;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Example 5: check your own walker against fixtures with known answers. Replace {@link #myWalker} with yours; each
 * fixture is written as an ELF core with its answer key, your walker's objects are compared with the key, and every
 * failure says which mistake the fixture is there to catch. (For a JUnit test instead, extend
 * {@code WalkerConformanceTest}; for a walker in another language, {@code ./clrheap conform}.)
 * Run it: {@code ./clrheap example CheckYourWalker [SCENARIO ...]}.
 */
public final class CheckYourWalker {

    private CheckYourWalker() {
    }

    public static void main(String[] args) throws Exception {
        PrintWriter out = new PrintWriter(System.out, true);
        List<String> names = args.length > 0 ? List.of(args) : List.of("naive-plain", "trap-live-context", "trap-frozen", "trap-unaligned-size");
        Path folder = Files.createTempDirectory("clrheap-check");
        System.exit(run(out, names, folder) ? 0 : 1);
    }

    /** Your walker: the objects it finds in a core, as (address, MethodTable, size). This one is clrheap's own. */
    static List<WalkerOutput.Listed> myWalker(Path core) throws Exception {
        try (DumpSession dump = Dumps.open(core)) {
            List<WalkerOutput.Listed> objects = new ArrayList<>();
            dump.walk((address, mt, size, region) -> objects.add(new WalkerOutput.Listed(address, mt, size)));
            return objects;
        }
    }

    /** Writes each scenario's fixture into {@code folder}, checks {@link #myWalker} on it; true when every one passes. */
    public static boolean run(PrintWriter out, List<String> scenarios, Path folder) throws Exception {
        int failed = 0;
        for (String name : scenarios) {
            Scenario scenario = Scenarios.named(name).orElseThrow(() -> new IllegalArgumentException("no built-in scenario " + name));
            FixtureWriter.write(scenario, Set.of(FixtureFormat.ELF), folder, ClrheapVersion.current(), FixtureProgress.NONE);
            List<WalkerOutput.Listed> found = new ArrayList<>(myWalker(folder.resolve(name + FixtureFormat.ELF.suffix())));
            found.sort((a, b) -> Long.compareUnsigned(a.address(), b.address()));
            Comparison.Result result = Comparison.objects(found, folder.resolve(name + ".answer"));
            out.printf("%s %-20s %,d objects%n", result.passed() ? "PASS" : "FAIL", name, found.size());
            if (!result.passed()) {
                failed++;
                out.println("     designed to catch: " + scenario.description());
                result.first().forEach(d -> out.println("     " + d));
            }
        }
        out.printf("%d of %d fixtures passed%n", scenarios.size() - failed, scenarios.size());
        return failed == 0;
    }
}
