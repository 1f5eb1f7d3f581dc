package io.clrheap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code clrheap generate} stopped while it writes (Ctrl-C, SIGTERM) or failing part-way (a file size limit) leaves
 * nothing of the run in its folder and says, in one line on stderr, what it removed (issue 30).
 */
class GenerateInterruptedTest {

    /** How long the child may take to start writing: building {@code large} takes seconds on a quiet machine. */
    private static final long START_SECONDS = 300;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "SIG{0}")
    @ValueSource(strings = {"TERM", "INT"})
    void aSignalWhileGeneratingLargeRemovesEveryFileOfTheRunAndSaysSoInOneLine(String signal) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/kill")) || Files.isExecutable(Path.of("/usr/bin/kill")), "no kill(1) to send a signal with");
        Path out = dir.resolve("big");
        Path err = dir.resolve("stderr");
        Process child = new ProcessBuilder(java(), "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                "io.clrheap.cli.ClrheapCommand", "generate", "--scenario", "large", "--out", out.toString())
                .redirectError(err.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
            while (partialFiles(out) == 0) {
                assertThat(child.isAlive()).as("generate is still running: %s", Files.exists(err) ? Files.readString(err) : "").isTrue();
                assertThat(System.nanoTime()).as("generate starts writing within %d s", START_SECONDS).isLessThan(deadline);
                Thread.sleep(20);
            }
            if (signal.equals("TERM")) {
                child.destroy(); // SIGTERM
            } else {
                assertThat(new ProcessBuilder("kill", "-INT", Long.toString(child.pid())).start().waitFor()).isZero();
            }
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("generate exits").isTrue();
        } finally {
            child.destroyForcibly();
        }
        assertThat(child.exitValue()).as("the signal's exit code").isEqualTo(signal.equals("TERM") ? 143 : 130);
        assertThat(listing(out)).as("no file of the run, finished-looking or temporary").isEmpty();
        assertThat(Files.readAllLines(err)).filteredOn(line -> line.startsWith("clrheap: interrupted:")).singleElement()
                .satisfies(line -> assertThat(line).startsWith("clrheap: interrupted: removed the incomplete " + out.resolve("large-net8-server.core")));
    }

    @Test
    void aFixtureThatOutgrowsTheFileSizeLimitLeavesNothingAndNamesWhatItRemoved() throws Exception {
        Path out = dir.resolve("fixtures");
        Path err = dir.resolve("stderr");
        // ulimit -f: writes past 64 KiB fail with EFBIG, what a full disk looks like to a writer
        Process child = new ProcessBuilder("sh", "-c", "ulimit -f 64 && exec \"$0\" --enable-native-access=ALL-UNNAMED -cp \"$1\" "
                + "io.clrheap.cli.ClrheapCommand generate --scenario default --format minidump -q --out \"$2\"", java(),
                System.getProperty("java.class.path"), out.toString()).redirectError(err.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("generate ends").isTrue();
        assertThat(child.exitValue()).isEqualTo(1);
        assertThat(listing(out)).isEmpty();
        assertThat(Files.readAllLines(err)).filteredOn(line -> line.startsWith("clrheap generate:")).singleElement()
                .satisfies(line -> assertThat(line).endsWith("File too large (removed the incomplete " + out.resolve("default-net8-server.dmp") + ")"));
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Temporary files (or folders) in {@code folder} and the staging folder of a fixture, at any depth. */
    private static long partialFiles(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".partial") && Files.isRegularFile(p)).count();
        } catch (java.io.UncheckedIOException | java.nio.file.NoSuchFileException e) {
            return 0; // a file went while walking: look again
        }
    }

    private static List<String> listing(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).toList();
        }
    }
}
