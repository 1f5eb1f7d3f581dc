package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * conform counts every kind of difference and shows examples of each: a walker with two bugs (sizes rounded up to 8,
 * the large object heap skipped) is told about both, with their counts, in text, JUnit and HTML; a missing object is
 * named with its type, heap, generation and region; a walker that prints another report than the one asked for gets
 * one "did you mean" line, not a line per row.
 */
class ConformDifferenceKindsTest {

    @TempDir
    static Path suite;

    @TempDir
    Path dir;

    private static String java(String mainClassAndArguments) {
        return "\"" + Path.of(System.getProperty("java.home"), "bin", "java") + "\" --enable-native-access=ALL-UNNAMED -cp \""
                + System.getProperty("java.class.path") + "\" " + mainClassAndArguments;
    }

    private static String mistaken(String mistakes) {
        return java("io.clrheap.cli.MistakenObjectsWalker " + mistakes + " {dump}");
    }

    private static String ownWalker(String report) {
        return java("io.clrheap.cli.ClrheapCommand walk {dump} " + report + " -q");
    }

    @BeforeAll
    static void aFixtureWithLargeObjects() {
        Outcome r = run("generate", "--scenario", "default", "--out", suite.toString(), "-q");
        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
    }

    /** The answer key's objects.tsv rows, split into columns (address mt size generation heap kind type). */
    private static List<String[]> keyObjects() throws Exception {
        return Files.readAllLines(suite.resolve("default-net8-server.answer/objects.tsv")).stream().skip(1).map(l -> l.split("\t")).toList();
    }

    private static long onTheLoh() throws Exception {
        return keyObjects().stream().filter(c -> c[3].equals("loh")).count();
    }

    private static long unalignedOutsideTheLoh() throws Exception {
        return keyObjects().stream().filter(c -> !c[3].equals("loh") && Long.parseLong(c[2]) % 8 != 0).count();
    }

    private Outcome twoBugs(Path... reports) {
        List<String> args = new java.util.ArrayList<>(List.of("conform", "--walker", mistaken("rounds-sizes-up,skips-the-loh"), "--expect", "objects",
                "--suite", suite.toString()));
        for (Path report : reports) {
            args.addAll(List.of("--report", report.toString()));
        }
        return run(args.toArray(String[]::new));
    }

    @Test
    void aWalkerWithTwoBugsIsToldTheCountOfEachKindAndExamplesOfBoth() throws Exception {
        long loh = onTheLoh();
        long unaligned = unalignedOutsideTheLoh();
        assertThat(loh).as("the fixture has large objects").isPositive();
        assertThat(unaligned).as("the fixture has unaligned sizes").isPositive();

        Outcome r = twoBugs();

        assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).contains(String.format(Locale.ROOT, "FAIL default-net8-server %,d differences: %,d wrong size", loh + unaligned, unaligned))
                .contains(String.format(Locale.ROOT, ", %,d missing object (all loh)", loh));
        assertThat(r.out()).containsPattern("\\n {7}wrong size: 0x").containsPattern("\\n {7}missing object: 0x");
    }

    @Test
    void aMissingObjectIsNamedWithItsTypeHeapGenerationAndRegion() throws Exception {
        String[] first = keyObjects().stream().filter(c -> c[3].equals("loh")).findFirst().orElseThrow();
        long address = Long.parseUnsignedLong(first[0].substring(2), 16);
        String[] region = Files.readAllLines(suite.resolve("default-net8-server.answer/regions.tsv")).stream().skip(1).map(l -> l.split("\t"))
                .filter(c -> Long.compareUnsigned(Long.parseUnsignedLong(c[3].substring(2), 16), address) <= 0
                        && Long.compareUnsigned(address, Long.parseUnsignedLong(c[6].substring(2), 16)) < 0)
                .findFirst().orElseThrow();

        Outcome r = twoBugs();

        assertThat(r.out()).contains(String.format(Locale.ROOT, "missing object: %s (%s, %,d bytes, heap %s loh region [%s, %s)) with MethodTable %s was not reported",
                first[0], first[6], Long.parseLong(first[2]), region[0], region[3], region[5], first[1]));
    }

    @Test
    void theJunitReportCountsEachKindInItsMessageAndShowsExamplesOfBoth() throws Exception {
        Path junit = dir.resolve("junit.xml");
        twoBugs(junit);
        String xml = Files.readString(junit);
        assertThat(xml).containsPattern("<failure message=\"[0-9,]+ differences: [0-9,]+ wrong size \\([^\"]*\\), [0-9,]+ missing object \\(all loh\\)\">")
                .contains("  wrong size: 0x", "  missing object: 0x");
    }

    @Test
    void theHtmlReportHasATableOfCountsPerKindAndExamplesOfBoth() throws Exception {
        Path html = dir.resolve("report.html");
        twoBugs(html);
        String page = Files.readString(html);
        assertThat(page).contains("Differences per kind", "<th data-kind=\"wrong-size\">wrong size</th>", "<th data-kind=\"missing-object\">missing object</th>",
                String.format(Locale.ROOT, "<td data-kind=\"missing-object\">%,d (all loh)</td>", onTheLoh()), "  wrong size: 0x", "  missing object: 0x");
    }

    @Test
    void statRowsUnderExpectObjectsGetOneHintLine() {
        Outcome r = run("conform", "--walker", ownWalker("--stat"), "--expect", "objects", "--suite", suite.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).contains("hint: the walker's output looks like `dumpheap -stat` rows ('MT Count TotalSize Class Name'), not an object listing "
                + "('0xADDRESS 0xMT SIZE' lines): did you mean --expect stat?");
    }

    @Test
    void anObjectListingUnderTheDefaultStatGetsTheHintAndOneLineForItsUnparsableRows() throws Exception {
        Outcome r = run("conform", "--walker", ownWalker("--objects"), "--suite", suite.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).contains("did you mean --expect objects?");
        long objects = keyObjects().size();
        assertThat(r.out()).contains(String.format(Locale.ROOT, "%,d unparsable line", objects))
                .containsPattern(String.format(Locale.ROOT, "%,d lines like line \\d+: starts like a row 'MT Count TotalSize Class Name' but is not one", objects));
        assertThat(r.out().lines().filter(l -> l.contains("starts like a row"))).as("one line for every row that does not parse").hasSize(1);
    }
}
