package io.clrheap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code conform --suite golden} where there is no clone of the project (a jar copied elsewhere): the fixtures the run
 * takes are built into the cache folder once, checked against the corpus.tsv the jar carries, and used from there.
 * Each run is a JVM of its own whose project folder has no golden/synthetic.
 */
class ConformGoldenOutsideCloneTest {

    @TempDir
    Path nowhere;

    @TempDir
    Path cache;

    private record Run(int exitCode, String out, String err) {
    }

    private Run conform(String... arguments) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String walker = "\"" + java + "\" --enable-native-access=ALL-UNNAMED -cp \"" + System.getProperty("java.class.path")
                + "\" io.clrheap.cli.ClrheapCommand walk {dump} --stat -q";
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Dclrheap.home=" + nowhere,
                "-Dclrheap.cache=" + cache, "-cp", System.getProperty("java.class.path"), "io.clrheap.cli.ClrheapCommand",
                "conform", "--walker", walker, "--suite", "golden"));
        command.addAll(List.of(arguments));
        Path out = nowhere.resolve("out.txt");
        Path err = nowhere.resolve("err.txt");
        Process p = new ProcessBuilder(command).directory(nowhere.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("conform ends within two minutes").isTrue();
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void theGoldenSuiteIsBuiltIntoTheCacheOnceAndTheWalkerCheckedAgainstIt() throws Exception {
        Run first = conform("--fixtures", "net8-*/min-object");

        assertThat(first.exitCode()).as(first.out() + first.err()).isZero();
        assertThat(first.out()).contains("PASS net8-server/min-object", "PASS net8-workstation/min-object", "PASS net8-windows-server/min-object",
                "PASS net8-windows-workstation/min-object", "4 of 4 fixtures passed.");
        assertThat(first.err()).contains("building the golden corpus into " + cache, "[1/4] net8-server/min-object", "[2/4] net8-windows-server/min-object",
                "[4/4] net8-workstation/min-object");

        Run second = conform("--fixtures", "net8-server/min-object");
        assertThat(second.exitCode()).as(second.out() + second.err()).isZero();
        assertThat(second.out()).contains("1 of 1 fixtures passed.");
        assertThat(second.err()).as("nothing built the second time").doesNotContain("building");
    }

    @Test
    void aWindowsFixtureIsBuiltWithItsLinuxTwinWhoseBundleHoldsTheirAnswerKey() throws Exception {
        Run r = conform("--fixtures", "net10-windows-workstation/min-object");

        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("PASS net10-windows-workstation/min-object", "1 of 1 fixtures passed.");
        assertThat(r.err()).contains("[1/2] net10-windows-workstation/min-object", "[2/2] net10-workstation/min-object");
    }

    @Test
    void aCacheThatCannotBeWrittenIsSaidInOneLineWithExitThree() throws Exception {
        Files.delete(cache);
        Files.writeString(cache, "a file where the cache folder should be");

        Run r = conform("--fixtures", "net8-server/min-object");

        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err().strip()).startsWith("clrheap conform: --suite golden: ").contains(cache.toString()).doesNotContain("\tat ");
    }
}
