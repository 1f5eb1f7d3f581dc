package io.clrheap.walker.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** A JVM stopped by SIGINT or SIGTERM deletes the files still registered as in progress, and only those, and says so in one line. */
class InProgressFilesTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "SIG{0}")
    @ValueSource(strings = {"TERM", "INT"})
    void aStoppedJvmDeletesItsInProgressFilesAndNamesThemInOneLine(String signal) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/kill")) || Files.isExecutable(Path.of("/usr/bin/kill")),
                "no kill(1) to send a signal with");
        Path partial = dir.resolve("0123.core.1.partial");
        Path complete = dir.resolve("0123.core");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                InProgressChild.class.getName(), partial.toString(), complete.toString())
                .redirectError(dir.resolve("stderr").toFile()).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).isEqualTo("ready");
            assertThat(partial).exists();
            assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(child.pid())).start().waitFor()).isZero();
            assertThat(child.waitFor(20, TimeUnit.SECONDS)).as("the child exits").isTrue();
        } finally {
            child.destroyForcibly();
        }
        assertThat(partial).doesNotExist();
        assertThat(complete).exists();
        assertThat(Files.readAllLines(dir.resolve("stderr"))).as("one line names what was removed")
                .containsExactly("clrheap: interrupted: removed the incomplete " + InProgressChild.SHOWN);
    }

    @org.junit.jupiter.api.Test
    void deleteQuietlyDeletesAndUnregisters() throws IOException {
        Path file = Files.write(dir.resolve("x.partial"), new byte[1]);
        InProgressFiles.register(file);
        InProgressFiles.deleteQuietly(file, new IOException("the failure"));
        assertThat(file).doesNotExist();
        assertThat(InProgressFiles.isRegistered(file)).isFalse();
    }
}
