package io.clrheap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Help text is wrapped by picocli at the terminal's width, never by hand (issue 30: {@code explain --help} printed
 * "where the offset\ncomes\nfrom"): a line may end mid-sentence only where the next word would not have fitted.
 */
class HelpWrappingTest {

    /** Where a sentence may end a line: a full stop, a colon, a semicolon, a question or exclamation mark, a shell line continuation. */
    private static final Pattern SENTENCE_END = Pattern.compile(".*[.:;!?\\\\]$");

    /** Every command's help, the top level's and each subcommand's, as picocli renders it {@code width} columns wide. */
    private static Map<String, String> helps(int width) {
        CommandLine cli = ClrheapCommand.commandLine();
        Map<String, String> helps = new java.util.TreeMap<>();
        cli.getCommandSpec().usageMessage().width(width);
        helps.put("clrheap", cli.getUsageMessage(CommandLine.Help.Ansi.OFF));
        cli.getSubcommands().forEach((name, sub) -> {
            sub.getCommandSpec().usageMessage().width(width);
            helps.put(name, sub.getUsageMessage(CommandLine.Help.Ansi.OFF));
        });
        return helps;
    }

    /** Lines followed by one of the same indentation whose first word would have fitted on them. */
    static List<String> brokenByHand(String help, int width) {
        List<String> broken = new ArrayList<>();
        String[] lines = help.split("\n");
        for (int i = 0; i + 1 < lines.length; i++) {
            String a = lines[i].stripTrailing();
            String b = lines[i + 1].stripTrailing();
            // the synopsis (Usage: …) ends where picocli ends it; the description starts on the next line
            // examples are one command a line
            if (a.isBlank() || b.isBlank() || a.startsWith("Usage: ") || indent(a) != indent(b) || SENTENCE_END.matcher(a).matches()
                    || a.strip().startsWith("./") || b.strip().startsWith("./")) {
                continue;
            }
            String next = b.strip().split("\\s+")[0];
            if (a.length() + 1 + next.length() < width) { // picocli leaves the last column free
                broken.add(a + "⏎" + b);
            }
        }
        return broken;
    }

    private static int indent(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) == ' ') {
            i++;
        }
        return i;
    }

    @Test
    void noHelpLineIsBrokenMidSentenceAt80Columns() {
        List<String> broken = new ArrayList<>();
        helps(80).forEach((name, help) -> brokenByHand(help, 80).forEach(l -> broken.add(name + ": " + l)));
        assertThat(broken).isEmpty();
    }

    @Test
    void noHelpLineIsBrokenMidSentenceAt132Columns() {
        List<String> broken = new ArrayList<>();
        helps(132).forEach((name, help) -> brokenByHand(help, 132).forEach(l -> broken.add(name + ": " + l)));
        assertThat(broken).isEmpty();
    }

    @Test
    void theCheckFindsAHandBreak() {
        assertThat(brokenByHand("For each read: where the offset\ncomes\nfrom, and its bytes.\n", 80))
                .containsExactly("For each read: where the offset⏎comes", "comes⏎from, and its bytes.");
    }

    @Test
    void helpFollowsTheTerminalsWidth() {
        assertThat(ClrheapCommand.commandLine().getSubcommands().values())
                .allMatch(sub -> sub.getCommandSpec().usageMessage().autoWidth(), "usageHelpAutoWidth");
    }
}
