package io.clrheap.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
                    String line = Files.isRegularFile(about) ? Files.readAllLines(about, StandardCharsets.UTF_8).stream().findFirst().orElse("") : "";
                    fixtures.add(new Fixture(name, line, dump, answer));
                }
            }
        }
        return fixtures;
    }
}
