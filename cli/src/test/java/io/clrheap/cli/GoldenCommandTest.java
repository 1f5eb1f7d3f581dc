package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;

import io.clrheap.cli.ClrheapCommand.Outcome;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** clrheap golden on a corpus of its own (--dir), limited to two fixtures (--fixtures): exit codes and what it prints. */
class GoldenCommandTest {

    private static final String[] TWO_FIXTURES = {"--fixtures", "net8-server/min-object", "--fixtures", "net10-workstation/min-object"};

    @TempDir
    Path dir;

    /** {@code golden ARGS} on this test's corpus folder, limited to the two fixtures. */
    private Outcome golden(String... args) {
        List<String> all = new ArrayList<>(List.of("golden", "--dir", dir.toString()));
        all.addAll(List.of(args));
        all.addAll(List.of(TWO_FIXTURES));
        return run(all.toArray(String[]::new));
    }

    private Outcome update() {
        return golden("--update", "-q");
    }

    private Outcome check() {
        return golden("-q");
    }

    @Test
    void anUpdateWritesTheFixturesAndSaysWhatItAddedThenACheckExitsZero() {
        Outcome update = update();
        assertThat(update.exitCode()).as(update.out() + update.err()).isZero();
        assertThat(update.out()).contains("added    net8-server/min-object: new fixture: ", "added    net10-workstation/min-object: new fixture: ",
                "updated " + dir + ": 0 changed, 2 added, 0 removed, 0 unchanged");
        assertThat(dir.resolve("net8-server/min-object.clrheap.tar.xz")).isRegularFile();
        assertThat(dir.resolve("net10-workstation/min-object.expected/dumpheap-stat.txt")).isRegularFile();
        assertThat(dir.resolve("corpus.tsv")).isRegularFile();

        Outcome check = check();
        assertThat(check.exitCode()).as(check.out() + check.err()).isZero();
        assertThat(check.out()).isEqualTo("golden corpus " + dir + ": 2 fixtures, all equal to fresh builds\n");
    }

    @Test
    void aCheckOfAnEditedCorpusExitsOneNamingTheFileAndSayingToUpdate() throws Exception {
        assertThat(update().exitCode()).isZero();
        Path stat = dir.resolve("net8-server/min-object.expected/dumpheap-stat.txt");
        Files.writeString(stat, Files.readString(stat).replace("Total ", "total "), StandardCharsets.UTF_8);

        Outcome check = check();

        assertThat(check.exitCode()).isEqualTo(1);
        assertThat(check.out()).contains("changed  net8-server/min-object: dumpheap-stat.txt: 1 line removed, 1 added, first at line ",
                "differs from fresh builds: 1 changed, 0 added, 0 removed, 1 unchanged", "run ./clrheap golden --update");
        Outcome again = update();
        assertThat(again.out()).contains("changed  net8-server/min-object", "1 changed, 0 added, 0 removed, 1 unchanged");
        assertThat(check().exitCode()).isZero();
    }

    @Test
    void anUpdateDeletesTheFixtureOfAScenarioThatNoLongerExistsAndACheckCallsItStale() throws Exception {
        assertThat(update().exitCode()).isZero();
        Files.createDirectories(dir.resolve("net8-server/gone.expected"));
        Files.writeString(dir.resolve("net8-server/gone.clrheap.tar.xz"), "an old bundle");

        Outcome check = run("golden", "--dir", dir.toString(), "--fixtures", "net8-server/gone", "-q");
        assertThat(check.exitCode()).isEqualTo(1);
        assertThat(check.out()).contains("stale    net8-server/gone: no built-in scenario 'gone'", "0 changed, 0 added, 1 removed, 0 unchanged");

        Outcome update = run("golden", "--dir", dir.toString(), "--fixtures", "net8-server/gone", "--update", "-q");
        assertThat(update.exitCode()).isZero();
        assertThat(update.out()).contains("removed  net8-server/gone: no built-in scenario 'gone'", "0 changed, 0 added, 1 removed, 0 unchanged");
        assertThat(dir.resolve("net8-server/gone.clrheap.tar.xz")).doesNotExist();
        assertThat(dir.resolve("net8-server/gone.expected")).doesNotExist();
        assertThat(check().exitCode()).as("the other fixtures are left as they were").isZero();
    }

    @Test
    void aWindowsFixtureIsWrittenAsItsCompressedMinidumpAndABrokenOneIsNamedByACheck() throws Exception {
        String[] windows = {"--fixtures", "net8-windows-server/min-object"};
        Outcome update = run(concat(new String[] {"golden", "--dir", dir.toString(), "--update", "-q"}, windows));
        assertThat(update.exitCode()).as(update.out() + update.err()).isZero();
        assertThat(update.out()).contains("added    net8-windows-server/min-object: new fixture: ");
        assertThat(dir.resolve("net8-windows-server/min-object.dmp.xz")).isRegularFile();
        assertThat(dir.resolve("net8-windows-server/min-object.expected/eeheap.txt")).isRegularFile();
        assertThat(Files.readString(dir.resolve("corpus.tsv"))).contains("\nnet8-windows-server/min-object.dmp.xz\tnet8\tserver\t");

        Files.writeString(dir.resolve("net8-windows-server/min-object.dmp.xz"), "not xz");
        Outcome check = run(concat(new String[] {"golden", "--dir", dir.toString(), "-q"}, windows));
        assertThat(check.exitCode()).isEqualTo(1);
        assertThat(check.out()).contains("changed  net8-windows-server/min-object: minidump 6 -> ", "first difference at byte 0; the corpus's minidump cannot be decompressed");

        Outcome none = run("golden", "--dir", dir.toString(), "--fixtures", "net9-windows-server/*");
        assertThat(none.exitCode()).as("no Windows layout of .NET 9: no such fixture").isEqualTo(2);
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    @Test
    void progressGoesToStderrAndNothingElseToStdout() {
        Outcome r = golden("--update");
        assertThat(r.exitCode()).isZero();
        assertThat(r.err()).startsWith("clrheap: updating 2 fixtures of " + dir + ", ");
        assertThat(r.out()).doesNotContain("clrheap:");
    }

    @Test
    void noCorpusAtTheFolderIsExitCode3() {
        Outcome r = run("golden", "--dir", dir.resolve("missing").toString());
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).contains("no golden corpus at " + dir.resolve("missing"), "--update");
    }

    @Test
    void aGlobThatMatchesNoFixtureOrABadJobCountIsBadUsage() {
        Outcome glob = run("golden", "--dir", dir.toString(), "--update", "--fixtures", "net7-server/*");
        assertThat(glob.exitCode()).isEqualTo(2);
        assertThat(glob.err()).contains("matches no fixture");
        Outcome jobs = run("golden", "--dir", dir.toString(), "--jobs", "0");
        assertThat(jobs.exitCode()).isEqualTo(2);
        assertThat(jobs.err()).contains("--jobs is at least 1");
    }

    @Test
    void helpShowsExamplesAndExitCodes() {
        Outcome r = run("golden", "--help");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("./clrheap golden --update", "--fixtures", "--dir", "Exit codes: 0");
        assertThat(run("--help").out()).contains("golden");
    }

    @Test
    void theProjectFolderIsFoundFromWhereTheJarOrClassesAre() throws Exception {
        Path root = dir.resolve("project");
        Files.createDirectories(root.resolve("golden"));
        Files.writeString(root.resolve("pom.xml"), "<project/>");
        assertThat(ProjectHome.fromCodeLocation(root.resolve("cli/target/clrheap-cli.jar"))).contains(root);
        assertThat(ProjectHome.fromCodeLocation(root.resolve("cli/target/classes"))).contains(root);
        assertThat(ProjectHome.fromCodeLocation(dir.resolve("elsewhere/clrheap-cli.jar"))).isEmpty();
        assertThat(List.of(root.resolve("walker/target/classes"))).allSatisfy(p -> assertThat(ProjectHome.fromCodeLocation(p)).isEmpty());
    }
}
