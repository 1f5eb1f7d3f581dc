package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;

import io.clrheap.cli.ClrheapCommand.Outcome;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
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
        // one batch: default-net8-server, every-edge-net8-server and empty-string-net8-server
        assertThat(run("generate", "--scenario", "default,every-edge,empty-string", "--out", suite.toString(), "-q").exitCode()).isZero();
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
        assertThat(elf.out()).as("the Windows fixtures are given as their minidumps").contains("PASS net8-server/min-object", "PASS net8-workstation/min-object",
                "PASS net8-windows-server/min-object", "PASS net8-windows-workstation/min-object", "4 of 4 fixtures passed.");
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

    /**
     * A walker that knows the answers: prints the fixture's own answer key (from the intact suite {@code SUITE}) as
     * dumpheap -stat text or as an object listing, then misbehaves as MODE says.
     */
    private static final String CHEAT = """
            import os, subprocess, sys
            mode, suite, dump = sys.argv[1], sys.argv[2], sys.argv[3]
            key = os.path.join(suite, os.path.basename(dump)[:-len('.core')] + '.answer')
            out = sys.stdout.buffer
            if mode == 'objects':
                for line in open(os.path.join(key, 'objects.tsv')).read().splitlines()[1:]:
                    a, mt, size = line.split('\\t')[:3]
                    out.write(('%s %s %s\\n' % (a, mt, size)).encode())
            else:
                out.write(open(os.path.join(key, 'dumpheap-stat.txt'), 'rb').read())
            if mode == 'latin1':
                out.write(b'note: Caf\\xe9 cr\\xe8me\\n')
            if mode == 'huge':
                out.write(b'7f3900009990 18446744073709551616 24 Huge\\n')
            if mode == 'background':
                child = subprocess.Popen(['sleep', '300'], start_new_session=True)
                open(sys.argv[4], 'a').write('%d\\n' % child.pid)
            """;

    private String cheat(String mode, String... more) throws Exception {
        Path script = dir.resolve("cheat.py");
        Files.writeString(script, CHEAT);
        return "python3 " + script + " " + mode + " " + suite + " {dump}" + (more.length == 0 ? "" : " " + String.join(" ", more));
    }

    @Test
    void outputThatIsNotUtf8IsReadAndTheReportSaysWhere() throws Exception {
        Path junit = dir.resolve("junit.xml");
        Path html = dir.resolve("report.html");
        Outcome r = run("conform", "--walker", cheat("latin1"), "--suite", suite.toString(), "--report", junit.toString(), "--report", html.toString());
        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("PASS default", "PASS every-edge", "PASS empty-string", "3 of 3 fixtures passed.");
        assertThat(r.out()).containsPattern("note: line \\d+, byte 10 \\(offset \\d+ of the output\\): 0xe9 is not UTF-8; read as U\\+FFFD");
        assertThat(r.out()).containsPattern("note: line \\d+, byte 14 \\(offset \\d+ of the output\\): 0xe8 is not UTF-8");
        assertThat(Files.readString(junit)).contains("tests=\"3\" failures=\"0\" errors=\"0\"", "<system-out>line ", "0xe9 is not UTF-8");
        assertThat(Files.readString(html)).contains("3 of 3 fixtures passed", "0xe9 is not UTF-8");
    }

    @Test
    void aCountAboveTheLongRangeFailsThatFixtureNamingTheLineAndTheRunGoesOn() throws Exception {
        Path junit = dir.resolve("junit.xml");
        Outcome r = run("conform", "--walker", cheat("huge"), "--suite", suite.toString(), "--report", junit.toString());
        assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).contains("FAIL default", "FAIL every-edge", "FAIL empty-string", "0 of 3 fixtures passed; 3 failed.");
        assertThat(r.out()).containsPattern("line \\d+: the count 18446744073709551616 is not below 2\\^63 \\(9,223,372,036,854,775,808\\): "
                + "'7f3900009990 18446744073709551616 24 Huge'");
        assertThat(Files.readString(junit)).contains("tests=\"3\" failures=\"3\"", "the count 18446744073709551616 is not below 2^63");
    }

    @Test
    void aLineOf600MbWithoutANewlineFailsItsFixtureInAJvmOf64Mb() throws Exception {
        Path junit = dir.resolve("junit.xml");
        Path html = dir.resolve("report.html");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx64m", "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                "io.clrheap.cli.ClrheapCommand", "conform", "--walker", "sh -c \"head -c 629145600 /dev/zero | tr '\\0' a\" sh {dump}",
                "--suite", suite.toString(), "--fixtures", "{default,empty-string}-*", "--report", junit.toString(), "--report", html.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isEqualTo(1);
        assertThat(out).doesNotContain("OutOfMemoryError").contains("FAIL default", "FAIL empty-string", "0 of 2 fixtures passed; 2 failed.",
                "line 1 is longer than the 1048576 bytes (1 MiB) a line may have: 629,145,600 bytes, with no newline at its end; not read");
        assertThat(Files.readString(junit)).contains("tests=\"2\" failures=\"2\"", "629,145,600 bytes, with no newline at its end");
        assertThat(Files.readString(html)).contains("629,145,600 bytes");
    }

    @Test
    void aBackgroundChildTheWalkerLeavesIsEndedWithItsFixture() throws Exception {
        Path pids = dir.resolve("pids");
        Path junit = dir.resolve("junit.xml");
        Outcome r = run("conform", "--walker", cheat("background", pids.toString()), "--suite", suite.toString(), "--report", junit.toString());
        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        java.util.List<Long> children = Files.readAllLines(pids).stream().map(Long::parseLong).toList();
        assertThat(children).hasSize(3);
        for (long pid : children) {
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("sleep 300, pid %d", pid).isFalse();
            assertThat(r.out()).contains("note: ended a process the walker left running: pid " + pid);
        }
        assertThat(Files.readString(junit)).contains("ended a process the walker left running: pid " + children.getFirst());
    }

    @Test
    void aWalkerThatCrashesOrHangsStillGetsItsReports() throws Exception {
        Path crashed = dir.resolve("crashed.xml");
        Outcome crash = run("conform", "--walker", "sh -c \"echo broken {dump} >&2; exit 7\"", "--suite", suite.toString(), "--report", crashed.toString());
        assertThat(crash.exitCode()).isEqualTo(1);
        assertThat(Files.readString(crashed)).contains("tests=\"3\" failures=\"3\"", "the walker failed with exit code 7", "stderr: broken");
        Path hung = dir.resolve("hung.html");
        Outcome hang = run("conform", "--walker", "sh -c \"sleep 60; echo {dump}\"", "--timeout", "1", "--fixtures", "default-*", "--suite", suite.toString(),
                "--report", hung.toString());
        assertThat(hang.exitCode()).isEqualTo(1);
        assertThat(Files.readString(hung)).contains("0 of 1 fixtures passed", "timed out after 1 s (killed)");
        assertThat(run("conform", "--walker", "mywalker {dump}", "--suite", suite.toString(), "--report", dir.resolve("r.txt").toString()).exitCode())
                .isEqualTo(2);
    }

    /** A copy of the suite whose answer keys can be broken. */
    private Path copyOfTheSuite() throws Exception {
        Path copy = dir.resolve("copy");
        try (var files = Files.walk(suite)) {
            for (Path f : files.toList()) {
                Path to = copy.resolve(suite.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
        return copy;
    }

    @Test
    void aGarbageAnswerKeyIsExit3NamingTheFileAndLineAndTheOtherFixturesAreStillChecked() throws Exception {
        Path broken = copyOfTheSuite();
        Path stat = broken.resolve("default-net8-server.answer/dumpheap-stat.txt");
        Files.write(stat, "Statistics:\n7f3900000df8 99999999999999999999 60 Pt[]\n\u0000\u0001garbage\n".getBytes(StandardCharsets.ISO_8859_1));
        // a fixture.txt that is not UTF-8 is no reason to stop
        Files.write(broken.resolve("every-edge-net8-server.answer/fixture.txt"), "every-edge: caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        Path junit = dir.resolve("junit.xml");
        Outcome r = run("conform", "--walker", cheat("stat"), "--suite", broken.toString(), "--report", junit.toString());
        assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(3);
        assertThat(r.out()).contains("ERROR default", "the answer key cannot be read", stat + ": line 2: the count 99999999999999999999 is not below 2^63",
                "PASS every-edge", "PASS empty-string", "2 of 3 fixtures passed; 1 cannot be read (the suite is broken, not the walker).");
        assertThat(Files.readString(junit)).contains("tests=\"3\" failures=\"0\" errors=\"1\"", "<error message=\"the answer key cannot be read\">",
                stat + ": line 2");

        Path objects = broken.resolve("empty-string-net8-server.answer/objects.tsv");
        java.util.List<String> lines = new java.util.ArrayList<>(Files.readAllLines(objects));
        lines.set(3, "0x12\tnot a MethodTable");
        Files.write(objects, lines);
        Outcome o = run("conform", "--walker", cheat("objects"), "--expect", "objects", "--suite", broken.toString(), "--fixtures", "e*");
        assertThat(o.exitCode()).as(o.out() + o.err()).isEqualTo(3);
        assertThat(o.out()).contains("PASS every-edge", "ERROR empty-string", objects + ": line 4: not 'address<TAB>mt<TAB>size...': '0x12\tnot a MethodTable'");

        Files.write(objects, new byte[] {(byte) 0xfd, 0x37, 0x7a, 0x58, 0x5a, 0});
        Outcome garbage = run("conform", "--walker", cheat("objects"), "--expect", "objects", "--suite", broken.toString(), "--fixtures", "empty-string-*");
        assertThat(garbage.exitCode()).isEqualTo(3);
        assertThat(garbage.out()).contains(objects + ": line 1: not the header");
    }
}
