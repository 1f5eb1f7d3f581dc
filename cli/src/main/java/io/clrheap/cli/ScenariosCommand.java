package io.clrheap.cli;

import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.ScenarioJson;
import io.clrheap.emulator.Scenarios;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code clrheap scenarios}: the built-in scenarios, each with its description. */
@Command(
        name = "scenarios",
        mixinStandardHelpOptions = true,
        description = {"List the built-in scenarios: what each emulated process holds and which walker mistake it is there to catch."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap scenarios",
            "  ./clrheap scenarios --json every-edge > my-scenario.json   (a starting point for your own; docs/scenarios.md)",
            "  ./clrheap generate --scenario my-scenario.json --out fixtures/",
            "",
            "Exit codes: 0 success, 2 bad usage."
        })
final class ScenariosCommand implements Callable<Integer> {

    @Option(names = "--json", paramLabel = "NAME", description = "Print that built-in scenario as JSON instead of the list.")
    String json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (json != null) {
            Scenario s = Scenarios.named(json).orElseThrow(() -> new CommandLine.ParameterException(spec.commandLine(),
                    "no built-in scenario named '" + json + "'"));
            out.println(ScenarioJson.write(s));
            return 0;
        }
        int width = Scenarios.all().stream().mapToInt(s -> s.name().length()).max().orElse(0);
        for (Scenario s : Scenarios.all()) {
            out.printf("%-" + width + "s  %s%n", s.name(), s.description());
        }
        out.printf("%n%d scenarios; each builds for --runtime net8|net9|net10 (or an exact build, e.g. 9.0.7) and --gc server|workstation.%n", Scenarios.all().size());
        out.println("§N: item N of the edge cases of docs/reference/walker-semantics.md section 7; the JSON form: docs/scenarios.md.");
        return 0;
    }
}
