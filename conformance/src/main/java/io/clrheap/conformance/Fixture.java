package io.clrheap.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One fixture of a conformance suite: a dump file and its answer key, as {@code clrheap generate} writes them into a
 * folder ({@code NAME.core}, {@code NAME.dmp}, {@code NAME.clrheap.tar.xz}, {@code NAME.answer/}).
 *
 * @param name   the scenario's name (the answer key's folder name without {@code .answer})
 * @param about  the answer key's {@code fixture.txt}: what the fixture holds and which mistake it is there to catch
 * @param dump   the dump file of the chosen format
 * @param answer the answer key's folder
 */
public record Fixture(String name, String about, Path dump, Path answer) implements SuiteFixture {

    /** Ready as it is: the files are in the suite. */
    @Override
    public Fixture prepare(Path work) {
        return this;
    }

    /** Every fixture of {@code suite} that has a dump with {@code suffix}, by name. */
    public static List<Fixture> inSuite(Path suite, String suffix) throws IOException {
        List<Fixture> fixtures = new ArrayList<>();
        try (Stream<Path> entries = Files.list(suite)) {
            for (Path answer : entries.filter(p -> Files.isDirectory(p) && p.getFileName().toString().endsWith(".answer")).sorted().toList()) {
                String name = answer.getFileName().toString().replaceFirst("\\.answer$", "");
                Path dump = suite.resolve(name + suffix);
                if (Files.isRegularFile(dump) && Files.isRegularFile(answer.resolve("objects.tsv"))) {
                    Path about = answer.resolve("fixture.txt");
                    String line = firstLine(about);
                    fixtures.add(new Fixture(name, line, dump, answer));
                }
            }
        }
        return fixtures;
    }

    /**
     * The first line of a fixture.txt, whatever it holds: bytes that are not UTF-8 read as U+FFFD, a line over 1 MiB
     * said so, a long one cut to 1,000 characters; empty when there is no such file.
     */
    public static String firstLine(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return "";
        }
        try (OutputLines in = OutputLines.open(file)) {
            OutputLines.Line l = in.next();
            if (l == null) {
                return "";
            }
            return l.tooLong() ? "(" + file.getFileName() + ": its first line is longer than 1 MiB)" : WalkerOutput.quote(l.text(), 1_000);
        }
    }
}
