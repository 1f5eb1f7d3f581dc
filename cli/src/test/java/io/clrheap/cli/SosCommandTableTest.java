package io.clrheap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** docs/from-sos.md's "From SOS to clrheap" table names only commands and options clrheap has. */
class SosCommandTableTest {

    private static final Path README = Path.of("../docs/from-sos.md");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    /** The table's rows: the lines between its heading and the next heading that start with "| `". */
    private static List<String> rows() throws Exception {
        List<String> lines = Files.readAllLines(README);
        int start = lines.indexOf("# From SOS to clrheap");
        assertThat(start).as("docs/from-sos.md's table").isNotNegative();
        List<String> rows = new ArrayList<>();
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("## ")) {
                break;
            }
            if (line.startsWith("| `")) {
                rows.add(line);
            }
        }
        return rows;
    }

    @Test
    void everyClrheapCommandAndOptionInTheTableExists() throws Exception {
        CommandLine clrheap = ClrheapCommand.commandLine();
        List<String> rows = rows();
        assertThat(rows).hasSizeGreaterThan(15);
        int checked = 0;
        for (String row : rows) {
            String clrheapCell = row.split("\\|")[2];
            Matcher m = CODE.matcher(clrheapCell);
            while (m.find()) {
                String[] words = m.group(1).split(" ");
                CommandLine command = clrheap.getSubcommands().get(words[0]);
                if (words[0].startsWith("--")) {
                    command = clrheap.getSubcommands().get("walk"); // a bare option continues the row's walk
                } else {
                    assertThat(command).as("command %s in: %s", words[0], row).isNotNull();
                }
                for (String w : words) {
                    if (w.startsWith("--")) {
                        assertThat(command.getCommandSpec().findOption(w)).as("option %s of %s in: %s", w, command.getCommandName(), row).isNotNull();
                    }
                }
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(20);
    }
}
