package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.clrheap.cli.ClrheapCommand.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A DUMP that is not a regular file cannot be opened: exit 3 with what it is, never a hang on a FIFO. */
class DumpFileCheckCommandTest {

    @TempDir
    Path dir;

    @Test
    void aFifoExitsThreeWithoutBlocking() throws Exception {
        Path fifo = dir.resolve("dump.fifo");
        int exit;
        try {
            exit = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor();
        } catch (IOException e) {
            exit = -1;
        }
        assumeTrue(exit == 0 && Files.exists(fifo), "mkfifo(1) is not available here: no FIFO to test with");
        Outcome r = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> run("walk", fifo.toString(), "--stat"));
        assertThat(r.exitCode()).as(r.err()).isEqualTo(3);
        assertThat(r.err()).contains(fifo + " is a FIFO (named pipe), not a regular file");
    }

    @Test
    void aDirectoryExitsThree() {
        Outcome r = run("walk", dir.toString(), "--stat");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(3);
        assertThat(r.err()).contains(dir + " is a directory, not a regular file");
    }

    @Test
    void aMissingFileIsStillAUsageError() {
        Outcome r = run("walk", dir.resolve("nothing.core").toString(), "--stat");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("no such file: ");
    }
}
