package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code conform --suite CORPUS --fixtures 'net8-windows-*}{@code /*'}: what a Windows walker's author runs. The walker
 * is given each Windows fixture's committed minidump as a plain {@code NAME.dmp} (whatever --format says) and checked
 * against the answer key of its Linux twin; the project's walker passes, one that drops free objects fails.
 */
class ConformGoldenWindowsTest {

    @TempDir
    static Path corpus;

    @TempDir
    Path dir;

    @BeforeAll
    static void aCorpusOfMinObjectOnNet8() {
        Outcome written = run("golden", "--update", "--dir", corpus.toString(), "--fixtures", "net8-*/min-object", "-q");
        assertThat(written.exitCode()).as(written.out() + written.err()).isZero();
    }

    /** The project's own walker, as one shell command line without double quotes (to nest in {@code sh -c "..."}). */
    private static String ownWalker(String... arguments) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return "'" + java + "' --enable-native-access=ALL-UNNAMED -cp '" + System.getProperty("java.class.path") + "' io.clrheap.cli.ClrheapCommand walk {dump} "
                + String.join(" ", arguments);
    }

    @Test
    void theProjectsWalkerIsGivenEachWindowsFixturesMinidumpAndPasses() throws Exception {
        Path seen = dir.resolve("seen.txt");
        // the walker notes what it was given, and walks it only if it is a minidump
        String walker = "sh -c \"echo {dump} >> '" + seen + "'; head -c 4 {dump} | grep -q MDMP && " + ownWalker("--objects", "-q") + "\"";

        Outcome r = run("conform", "--walker", walker, "--expect", "objects", "--suite", corpus.toString(), "--fixtures", "net8-windows-*/*");

        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("PASS net8-windows-server/min-object", "PASS net8-windows-workstation/min-object", "2 of 2 fixtures passed.")
                .doesNotContain("net8-server");
        assertThat(Files.readAllLines(seen)).hasSize(2).allSatisfy(p -> assertThat(p).endsWith("/min-object.dmp"));
        assertThat(corpus.resolve("net8-windows-server")).as("nothing is decompressed into the corpus")
                .isDirectoryNotContaining("glob:**.decompressed");
    }

    @Test
    void theObjectGraphOfAWindowsFixtureIsItsLinuxTwins() {
        Outcome r = run("conform", "--walker", "sh -c \"" + ownWalker("--refs", "-q") + "\"", "--expect", "refs", "--suite", corpus.toString(),
                "--fixtures", "net8-windows-server/*");

        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("PASS net8-windows-server/min-object");
    }

    @Test
    void aWalkerThatLeavesOutFreeObjectsFailsAWindowsFixture() {
        Outcome r = run("conform", "--walker", "sh -c \"" + ownWalker("--stat", "-q") + " | grep -v Free\"", "--suite", corpus.toString(),
                "--fixtures", "net8-windows-workstation/*");

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).contains("FAIL net8-windows-workstation/min-object", "missing type: Free", "designed to catch: min-object on net8 (8.0.30), workstation GC");
    }
}
