package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input, on every command that reads a file: exit code 3 and one line that names the file and says what is wrong
 * with it — no stack trace, no help; a path that does not exist, or a --pid that is no process, is bad usage (2).
 */
class BadInputTest {

    @TempDir
    static Path dir;

    /** Each command, with FILE where the input goes. */
    static Stream<Arguments> readers() {
        return Stream.of(
                new String[] {"walk", "FILE"},
                new String[] {"walk", "FILE", "--eeheap", "--json"},
                new String[] {"map", "FILE", "--html", "OUT/map.html"},
                new String[] {"explain", "FILE"},
                new String[] {"gcroot", "FILE", "0x1000"},
                new String[] {"objsize", "FILE", "0x1000"},
                new String[] {"derive-profile", "FILE"},
                new String[] {"conform", "--walker", "cat {dump}", "--dac-reference", "FILE"}).map(a -> Arguments.of((Object) a));
    }

    private static String[] with(String[] args, Path file) {
        List<String> out = new ArrayList<>();
        for (String a : args) {
            out.add(a.replace("FILE", file.toString()).replace("OUT", dir.toString()));
        }
        return out.toArray(String[]::new);
    }

    private static void assertOneLineNaming(Outcome r, Path file, int exitCode, String why) {
        assertThat(r.exitCode()).as(r.err()).isEqualTo(exitCode);
        assertThat(r.err()).contains(file.toString()).contains(why).doesNotContain("\tat ").doesNotContain("Usage:").doesNotContain("Exception");
        assertThat(r.err().lines().filter(l -> !l.startsWith("Try './clrheap"))).as(r.err()).hasSize(1);
    }

    @ParameterizedTest(name = "{arguments}")
    @MethodSource("readers")
    void aFileThatIsNoDumpIsExit3NamingTheFileAndOffset(String[] args) throws IOException {
        Path text = Files.writeString(dir.resolve("notes.txt"), "not a dump\n");
        assertOneLineNaming(run(with(args, text)), text, 3, "at file offset 0x0");
    }

    @ParameterizedTest(name = "{arguments}")
    @MethodSource("readers")
    void aFolderIsExit3(String[] args) throws IOException {
        Path folder = Files.createDirectories(dir.resolve("a-folder"));
        Outcome r = run(with(args, folder));
        assertThat(r.exitCode()).as(r.err()).isIn(2, 3);
        assertThat(r.err()).contains(folder.toString()).doesNotContain("\tat ").doesNotContain("Usage:");
    }

    @ParameterizedTest(name = "{arguments}")
    @MethodSource("readers")
    void aPathThatDoesNotExistIsBadUsage(String[] args) {
        Path missing = dir.resolve("no-such.core");
        Outcome r = run(with(args, missing));
        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains(missing.toString()).contains("no such file").doesNotContain("Usage:");
    }

    @Test
    void aScenarioFileThatIsNotJsonIsExit3ForGenerateAndMaterialize() throws IOException {
        Path bad = Files.writeString(dir.resolve("scenario.json"), "hello\n");
        assertOneLineNaming(run("generate", "--scenario", bad.toString(), "--out", dir.resolve("out").toString()), bad, 3, "not valid JSON at line 1");
        assertOneLineNaming(run("materialize", bad.toString()), bad, 3, "not valid JSON at line 1");
    }

    @Test
    void aSuiteWithoutFixturesIsExit3() throws IOException {
        Path empty = Files.createDirectories(dir.resolve("empty-suite"));
        Outcome r = run("conform", "--walker", "cat {dump}", "--suite", empty.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(3);
        assertThat(r.err()).contains(empty.toString(), "holds no fixtures").doesNotContain("\tat ");
    }

    @Test
    void aGoldenFolderWithoutADumpIsExit3() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("golden-folder"));
        assertOneLineNaming(run("golden", "check", folder.toString()), folder, 3, "holds no core.xz");
    }

    @Test
    void aPidThatIsNoProcessIsBadUsageForWalkAndCapture() {
        Outcome walk = run("walk", "--pid", "999999999");
        assertThat(walk.exitCode()).as(walk.err()).isEqualTo(2);
        Outcome capture = run("capture", "--pid", "999999999", "--out", dir.resolve("capture").toString());
        assertThat(capture.exitCode()).as(capture.err()).isEqualTo(2);
        assertThat(capture.err()).contains("--pid 999999999: no such process");
    }
}
