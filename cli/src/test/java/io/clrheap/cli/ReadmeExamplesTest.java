package io.clrheap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every {@code ./clrheap} command of the README's shell blocks runs as written and succeeds (issue 30: examples that
 * drifted from what the commands print). Paths are the repository's, run from the cli module one folder down;
 * {@code ./clrheap test}, the suite this test is part of, is the one command not run.
 */
class ReadmeExamplesTest {

    private static final Path README = Path.of("../README.md");

    /** The README's example commands, each as its words, comments cut. */
    static Stream<List<String>> examples() throws IOException {
        List<List<String>> out = new ArrayList<>();
        boolean shell = false;
        for (String line : Files.readAllLines(README)) {
            if (line.startsWith("```")) {
                shell = line.equals("```sh");
                continue;
            }
            if (shell && line.startsWith("./clrheap ")) {
                String command = line.contains(" #") ? line.substring(0, line.indexOf(" #")) : line;
                out.add(Arrays.asList(command.strip().substring("./clrheap ".length()).split("\\s+")));
            }
        }
        return out.stream();
    }

    @Test
    void theReadmeHasExamplesToRun() throws IOException {
        assertThat(examples().filter(e -> !e.getFirst().equals("test"))).hasSizeGreaterThanOrEqualTo(3);
        assertThat(examples()).as("the test command CI runs").anyMatch(e -> e.equals(List.of("test")));
    }

    @ParameterizedTest(name = "./clrheap {0}")
    @MethodSource("examples")
    void everyReadmeExampleRunsAsWritten(List<String> words, @TempDir Path tmp) {
        if (words.getFirst().equals("test")) {
            return; // the suite this test runs in
        }
        List<String> args = new ArrayList<>();
        for (String w : words) {
            args.add(w.startsWith("golden/") ? "../" + w : w);
        }
        if (args.getFirst().equals("demo") && !args.contains("--out")) {
            args.addAll(List.of("--out", tmp.resolve("clrheap-out").toString())); // not into the module's folder
        }
        Outcome o = ClrheapCommand.run(args.toArray(String[]::new));
        assertThat(o.exitCode()).as("./clrheap %s%n%s%s", String.join(" ", words), o.out(), o.err()).isZero();
        assertThat(o.out()).as("./clrheap %s prints its answer", String.join(" ", words)).isNotBlank();
    }
}
