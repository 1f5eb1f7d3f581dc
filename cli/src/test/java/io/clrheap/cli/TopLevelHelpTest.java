package io.clrheap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The top-level help lists each command by the first line of its description: a whole sentence, never cut mid-way. */
class TopLevelHelpTest {

    @Test
    void everyCommandIsSummedUpInOneWholeSentence() {
        CommandLine cli = ClrheapCommand.commandLine();
        assertThat(cli.getSubcommands()).isNotEmpty();
        cli.getSubcommands().forEach((name, sub) -> {
            String[] description = sub.getCommandSpec().usageMessage().description();
            assertThat(description).as(name).isNotEmpty();
            assertThat(description[0].strip()).as("the summary of %s", name).endsWith(".");
        });
    }

    @Test
    void runtimeOptionsAreNamedAsEverywhere() {
        CommandLine cli = ClrheapCommand.commandLine();
        cli.getSubcommands().forEach((name, sub) -> sub.getCommandSpec().options().stream()
                .filter(o -> o.longestName().equals("--runtime"))
                // generate builds several runtimes in one run, and all of them
                .forEach(o -> assertThat(o.paramLabel()).as("%s --runtime", name).isEqualTo(name.equals("generate") ? "all|net8|net9|net10|BUILD" : "net8|net9|net10|BUILD")));
    }
}
