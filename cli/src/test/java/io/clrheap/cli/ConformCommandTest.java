package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;

import io.clrheap.cli.ClrheapCommand.Outcome;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The conformance runner, checking walkers run as commands: the project's own passes, broken ones fail with the reason. */
class ConformCommandTest {

    @TempDir
    static Path suite;

    @TempDir
    Path dir;

    /** The project's own walker, as an external command: this JVM's java with this test's class path. */
    private static String ownWalker(String... arguments) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return "\"" + java + "\" --enable-native-access=ALL-UNNAMED -cp \"" + System.getProperty("java.class.path") + "\" io.clrheap.cli.ClrheapCommand walk {dump} "
                + String.join(" ", arguments);
    }

    @BeforeAll
    static void aSuiteOfThreeFixtures() {
        for (String scenario : new String[] {"default", "every-edge", "empty-string"}) {
            assertThat(run("generate", "--scenario", scenario, "--out", suite.toString(), "-q").exitCode()).isZero();
        }
    }

    @Test
    void theProjectsOwnWalkerPassesEveryFixtureAndTheReportsSaySo() throws Exception {
        Path junit = dir.resolve("junit.xml");
        Path html = dir.resolve("report.html");
        Outcome r = run("conform", "--walker", ownWalker("--stat", "-q"), "--suite", suite.toString(), "--report", junit.toString(), "--report", html.toString());
        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("PASS default", "PASS every-edge", "PASS empty-string", "3 of 3 fixtures passed.");
        assertThat(Files.readString(junit)).contains("tests=\"3\" failures=\"0\"").doesNotContain("<failure");
        assertThat(Files.readString(html)).contains("3 of 3 fixtures passed");
    }

    @Test
    void objectListingsFromEveryFormatAreCheckedToo() {
        for (String format : new String[] {"minidump", "bundle"}) {
            Outcome r = run("conform", "--walker", ownWalker("--objects", "-q"), "--expect", "objects", "--format", format, "--suite", suite.toString());
            assertThat(r.exitCode()).as(format + ": " + r.out() + r.err()).isZero();
        }
    }

    @Test
    void aWalkerThatLeavesOutFreeObjectsFailsWithTheMissingTypeAndWhatTheFixtureCatches() throws Exception {
        Path junit = dir.resolve("junit.xml");
        Outcome r = run("conform", "--walker", "sh -c \"" + ownWalker("--stat", "-q").replace("\"", "'") + " | grep -v Free\"", "--suite", suite.toString(),
                "--report", junit.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).contains("FAIL default", "missing type: Free", "designed to catch: default on net8", "0 of 3 fixtures passed");
        assertThat(Files.readString(junit)).contains("failures=\"3\"", "<failure message=");
    }

    @Test
    void aWalkerThatCrashesOrHangsFailsInsteadOfStoppingTheRun() {
        Outcome crash = run("conform", "--walker", "sh -c \"echo broken {dump} >&2; exit 7\"", "--suite", suite.toString());
        assertThat(crash.exitCode()).isEqualTo(1);
        assertThat(crash.out()).contains("the walker failed with exit code 7", "stderr: broken");
        Outcome hang = run("conform", "--walker", "sh -c \"sleep 60; echo {dump}\"", "--timeout", "1", "--suite", suite.toString());
        assertThat(hang.exitCode()).isEqualTo(1);
        assertThat(hang.out()).contains("timed out after 1 s (killed)");
    }

    @Test
    void aWalkerCommandWithoutTheDumpOrAnEmptySuiteIsRefused() throws Exception {
        assertThat(run("conform", "--walker", "mywalker --stat", "--suite", suite.toString()).exitCode()).isEqualTo(2);
        Path empty = Files.createDirectory(dir.resolve("empty"));
        Outcome r = run("conform", "--walker", "mywalker {dump}", "--suite", empty.toString());
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).contains("holds no fixtures");
    }

    @Test
    void fixturesChoosesTheFixturesOfASuiteByName() {
        Outcome r = run("conform", "--walker", ownWalker("--stat", "-q"), "--suite", suite.toString(), "--fixtures", "e*");
        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("PASS every-edge", "PASS empty-string", "2 of 2 fixtures passed.").doesNotContain("default");
        Outcome none = run("conform", "--walker", ownWalker("--stat", "-q"), "--suite", suite.toString(), "--fixtures", "nothing*");
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.err()).contains("--fixtures nothing* matches none of the 3 fixtures");
    }

    @Test
    void aGoldenCorpusIsASuiteWhoseAnswerKeysAreTheCommittedOnes() throws Exception {
        Path corpus = dir.resolve("corpus");
        Outcome written = run("golden", "--update", "--dir", corpus.toString(), "--fixtures", "net8-*/min-object", "-q");
        assertThat(written.exitCode()).as(written.out() + written.err()).isZero();

        Outcome bundle = run("conform", "--walker", ownWalker("--stat", "-q"), "--suite", corpus.toString(), "--format", "bundle", "--fixtures", "net8-server/*");
        assertThat(bundle.exitCode()).as(bundle.out() + bundle.err()).isZero();
        assertThat(bundle.out()).contains("PASS net8-server/min-object", "1 of 1 fixtures passed.");

        Outcome elf = run("conform", "--walker", ownWalker("--objects", "-q"), "--expect", "objects", "--suite", corpus.toString(), "--format", "elf");
        assertThat(elf.exitCode()).as(elf.out() + elf.err()).isZero();
        assertThat(elf.out()).contains("PASS net8-server/min-object", "PASS net8-workstation/min-object", "2 of 2 fixtures passed.");
    }

    @Test
    void aGoldenFixtureIsCheckedAgainstItsCommittedAnswerKeyNotAFreshOne() throws Exception {
        Path corpus = dir.resolve("corpus");
        assertThat(run("golden", "--update", "--dir", corpus.toString(), "--fixtures", "net8-server/min-object", "-q").exitCode()).isZero();
        Path stat = corpus.resolve("net8-server/min-object.expected/dumpheap-stat.txt");
        Files.writeString(stat, Files.readString(stat).replaceFirst("Total [0-9,]+ objects", "Total 1 objects"));

        Outcome r = run("conform", "--walker", ownWalker("--stat", "-q"), "--suite", corpus.toString(), "--format", "minidump");

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).contains("FAIL net8-server/min-object", "wrong total: 1 objects", "designed to catch: min-object on net8 (8.0.30), server GC");
    }
}
