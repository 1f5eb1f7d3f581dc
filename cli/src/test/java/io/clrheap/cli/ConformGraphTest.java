package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * conform --expect refs and --expect live: the project's own walker passes every fixture in every format; walkers that
 * decode GC descriptors with the usual mistakes ({@link MistakenRefsWalker}) fail the object-graph fixture, the report
 * naming an object whose references differ at the place the mistake predicts; an answer key from before the object
 * graph is an error that says so.
 */
class ConformGraphTest {

    /** The object graph's traps and two everyday scenarios. */
    private static final String[] SCENARIOS = {"object-graph", "default", "every-edge"};

    @TempDir
    static Path suite;

    @TempDir
    Path dir;

    /** {@code wrong references: 0xSRC (Type, SIZE bytes, heap H gen region [a, b)): ...; the first difference is reference K, the field at offset N: ...} */
    private static final Pattern WRONG = Pattern.compile(
            "wrong references: 0x[0-9a-f]+ \\((.+?), ([\\d,]+) bytes, heap \\d+ \\w+ region \\[0x[0-9a-f]+, 0x[0-9a-f]+\\)\\): "
                    + "\\d+ expected, \\d+ reported; the first difference is reference (\\d+), "
                    + "the field at offset (\\d+): 0x[0-9a-f]+ expected, \\S+ reported; expected \\[([^\\]]*)\\]");
    /** {@code missing references: 0xSRC (Type, SIZE bytes, heap H gen region [a, b)) holds N references, none reported: expected [0xT@off ...]} */
    private static final Pattern MISSING = Pattern.compile(
            "missing references: 0x[0-9a-f]+ \\((.+?), ([\\d,]+) bytes, heap \\d+ \\w+ region \\[0x[0-9a-f]+, 0x[0-9a-f]+\\)\\) "
                    + "holds \\d+ references?, none reported: expected \\[([^\\]]*)\\]");
    private static final Pattern DIFFERENCE = Pattern.compile("(?m)^ {7}((?:wrong|missing|extra) references: .*)$");

    private static String java() {
        return "\"" + Path.of(System.getProperty("java.home"), "bin", "java") + "\" --enable-native-access=ALL-UNNAMED -cp \""
                + System.getProperty("java.class.path") + "\" ";
    }

    /** The project's own walker, as an external command. */
    private static String ownWalker(String... arguments) {
        return java() + "io.clrheap.cli.ClrheapCommand walk {dump} " + String.join(" ", arguments);
    }

    private static String mistaken(MistakenRefsWalker.Mistake mistake) {
        return java() + "io.clrheap.cli.MistakenRefsWalker " + mistake + " {dump}";
    }

    @BeforeAll
    static void aSuiteWithTheObjectGraph() {
        for (String scenario : SCENARIOS) {
            Outcome r = run("generate", "--scenario", scenario, "--out", suite.toString(), "-q");
            assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        }
    }

    @Test
    void theProjectsOwnReferencesAndLiveSetPassEveryFixtureInEveryFormat() {
        for (String format : new String[] {"elf", "minidump", "bundle"}) {
            Outcome refs = run("conform", "--walker", ownWalker("--refs", "-q"), "--expect", "refs", "--format", format, "--suite", suite.toString());
            assertThat(refs.exitCode()).as(format + ": " + refs.out() + refs.err()).isZero();
            assertThat(refs.out()).contains("PASS object-graph", SCENARIOS.length + " of " + SCENARIOS.length + " fixtures passed.");
            Outcome live = run("conform", "--walker", ownWalker("--objects", "--live", "-q"), "--expect", "live", "--format", format, "--suite",
                    suite.toString());
            assertThat(live.exitCode()).as(format + ": " + live.out() + live.err()).isZero();
            assertThat(live.out()).contains("PASS object-graph", SCENARIOS.length + " of " + SCENARIOS.length + " fixtures passed.");
        }
    }

    /** Issue 28: walk --roots (the stacks scanned conservatively from rsp) equals every fixture's roots.tsv in every format. */
    @Test
    void theProjectsOwnRootsPassEveryFixtureInEveryFormat() {
        for (String format : new String[] {"elf", "minidump", "bundle"}) {
            Outcome roots = run("conform", "--walker", ownWalker("--roots", "-q"), "--expect", "roots", "--format", format, "--suite", suite.toString());
            assertThat(roots.exitCode()).as(format + ": " + roots.out() + roots.err()).isZero();
            assertThat(roots.out()).contains("PASS object-graph", SCENARIOS.length + " of " + SCENARIOS.length + " fixtures passed.");
        }
    }

    @Test
    void commentsOtherOrdersAndBareAddressesAreRead() {
        Outcome refs = run("conform", "--walker", "sh -c \"echo '# my walker'; echo; " + ownWalker("--refs", "-q").replace("\"", "'") + " | sort -r\"",
                "--expect", "refs", "--suite", suite.toString(), "--fixtures", "default-*");
        assertThat(refs.exitCode()).as(refs.out() + refs.err()).isZero();
        Outcome live = run("conform", "--walker", "sh -c \"" + ownWalker("--objects", "--live", "-q").replace("\"", "'") + " | cut -f1 | sort -r\"",
                "--expect", "live", "--suite", suite.toString(), "--fixtures", "default-*");
        assertThat(live.exitCode()).as(live.out() + live.err()).isZero();
    }

    /** The differences a failed run reports for the object-graph fixture. */
    private static List<String> differences(Outcome r) {
        assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).contains("FAIL object-graph", "designed to catch: object-graph");
        List<String> found = new ArrayList<>();
        Matcher m = DIFFERENCE.matcher(r.out());
        while (m.find()) {
            found.add(m.group(1));
        }
        assertThat(found).as(r.out()).isNotEmpty();
        return found;
    }

    /** The field offsets of a difference's expected list, {@code 0xTARGET@OFFSET ...}. */
    private static List<Long> offsets(String expected) {
        List<Long> offsets = new ArrayList<>();
        for (String item : expected.split(" ")) {
            if (item.contains("@")) {
                offsets.add(Long.parseLong(item.substring(item.indexOf('@') + 1)));
            }
        }
        return offsets;
    }

    @Test
    void aWalkerThatIgnoresRepeatingSeriesFailsNamingAnArrayOfStructs() {
        Outcome r = run("conform", "--walker", mistaken(MistakenRefsWalker.Mistake.IGNORES_REPEATING_SERIES), "--expect", "refs", "--suite",
                suite.toString(), "--fixtures", "object-graph-*");
        for (String d : differences(r)) {
            Matcher m = MISSING.matcher(d);
            assertThat(m.find()).as(d).isTrue();
            assertThat(m.group(1)).as(d).endsWith("[]");
        }
    }

    @Test
    void aWalkerThatDropsTheLastWordFailsNamingAnObjectWhoseLastWordIsAReference() {
        Outcome r = run("conform", "--walker", mistaken(MistakenRefsWalker.Mistake.DROPS_THE_LAST_WORD), "--expect", "refs", "--suite",
                suite.toString(), "--fixtures", "object-graph-*");
        for (String d : differences(r)) {
            Matcher wrong = WRONG.matcher(d);
            Matcher missing = MISSING.matcher(d);
            long size;
            long offset;
            if (wrong.find()) {
                size = Long.parseLong(wrong.group(2).replace(",", ""));
                offset = Long.parseLong(wrong.group(4));
            } else {
                assertThat(missing.find()).as(d).isTrue();
                size = Long.parseLong(missing.group(2).replace(",", ""));
                offset = offsets(missing.group(3)).getLast();
            }
            // the last word of an object of `size` bytes: before the next object's header word
            assertThat(offset).as(d).isEqualTo(size - 16);
        }
    }

    @Test
    void aWalkerThatReadsOnlyTheFirstSeriesFailsNamingAnObjectWhoseReferencesLieInSeveralRuns() {
        Outcome r = run("conform", "--walker", mistaken(MistakenRefsWalker.Mistake.READS_ONLY_THE_FIRST_SERIES), "--expect", "refs", "--suite",
                suite.toString(), "--fixtures", "object-graph-*");
        int wrong = 0;
        for (String d : differences(r)) {
            Matcher m = WRONG.matcher(d);
            if (!m.find()) {
                // every reference of its first series was null: the walker printed nothing for it
                assertThat(d).startsWith("missing references: ");
                continue;
            }
            wrong++;
            int k = Integer.parseInt(m.group(3));
            long offset = Long.parseLong(m.group(4));
            List<Long> offsets = offsets(m.group(5));
            // the walker stopped at a gap: the reference it missed is not the word after the one before it
            assertThat(k).as(d).isGreaterThan(1);
            assertThat(offset).as(d).isGreaterThan(offsets.get(k - 2) + 8);
        }
        assertThat(wrong).as(r.out()).isPositive();
    }

    @Test
    void aWalkerThatCallsEveryObjectLiveFailsNamingObjectsNoRootReaches() {
        Outcome r = run("conform", "--walker", ownWalker("--objects", "-q"), "--expect", "live", "--suite", suite.toString(), "--fixtures", "object-graph-*");
        assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).containsPattern("extra live object: 0x[0-9a-f]+ \\(.+, [\\d,]+ bytes, "
                + "heap \\d+ \\w+ region \\[0x[0-9a-f]+, 0x[0-9a-f]+\\)\\) reported live; no root that keeps objects alive reaches it");
    }

    @Test
    void anAnswerKeyFromBeforeTheObjectGraphIsAnErrorThatSaysSo() throws Exception {
        Path old = dir.resolve("old");
        Files.createDirectories(old);
        for (String suffix : new String[] {".core", ".dmp", ".clrheap.tar.xz"}) {
            Files.copy(suite.resolve("default-net8-server" + suffix), old.resolve("default-net8-server" + suffix));
        }
        Path answer = Files.createDirectories(old.resolve("default-net8-server.answer"));
        try (var files = Files.list(suite.resolve("default-net8-server.answer"))) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if (!name.equals("references.tsv") && !name.equals("roots.tsv") && !name.equals("live.tsv")) {
                    Files.copy(f, answer.resolve(name));
                }
            }
        }
        for (String[] expect : new String[][] {{"refs", "references.tsv", "--refs"}, {"live", "live.tsv", "--objects --live"}}) {
            Outcome r = run("conform", "--walker", ownWalker(expect[2], "-q"), "--expect", expect[0], "--suite", old.toString());
            assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(3);
            assertThat(r.out()).contains("ERROR default", "the answer key has no " + expect[1], answer + " has no " + expect[1],
                    "written by a clrheap from before the object graph", "0 of 1 fixtures passed; 1 cannot be read");
        }
        Outcome stat = run("conform", "--walker", ownWalker("--stat", "-q"), "--suite", old.toString());
        assertThat(stat.exitCode()).as(stat.out() + stat.err()).isZero();
    }

    @Test
    void aGoldenCorpusFixtureIsCheckedAgainstTheGraphFilesOfItsCommittedBundle() {
        Path corpus = dir.resolve("corpus");
        Outcome written = run("golden", "--update", "--dir", corpus.toString(), "--fixtures", "net8-server/object-graph", "-q");
        assertThat(written.exitCode()).as(written.out() + written.err()).isZero();
        Outcome refs = run("conform", "--walker", ownWalker("--refs", "-q"), "--expect", "refs", "--suite", corpus.toString(), "--format", "bundle");
        assertThat(refs.exitCode()).as(refs.out() + refs.err()).isZero();
        assertThat(refs.out()).contains("PASS net8-server/object-graph", "1 of 1 fixtures passed.");
        Outcome trap = run("conform", "--walker", mistaken(MistakenRefsWalker.Mistake.IGNORES_REPEATING_SERIES), "--expect", "refs", "--suite",
                corpus.toString(), "--format", "elf");
        assertThat(trap.exitCode()).as(trap.out() + trap.err()).isEqualTo(1);
        assertThat(trap.out()).contains("FAIL net8-server/object-graph").containsPattern("missing references: 0x[0-9a-f]+ \\(.+\\[\\], ");
    }

    @Test
    void aDacReferenceHasNoGraphToCompareWith() {
        Outcome r = run("conform", "--walker", "mywalker {dump}", "--expect", "refs", "--dac-reference", suite.resolve("default-net8-server.core").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--expect refs needs a --suite");
    }
}
