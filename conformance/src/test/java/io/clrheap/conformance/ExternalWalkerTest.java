package io.clrheap.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A walker's whole process tree ends with its fixture: children it left in the background, and those of one that timed out. */
class ExternalWalkerTest {

    @TempDir
    Path dir;

    private static boolean alive(long pid) {
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        return h.isPresent() && h.get().isAlive();
    }

    private long[] pids(Path file) throws Exception {
        return Files.readAllLines(file).stream().mapToLong(Long::parseLong).toArray();
    }

    @Test
    void aChildTheWalkerLeftRunningInTheBackgroundIsEndedWhenItExits() throws Exception {
        Path pids = dir.resolve("pids");
        Path dump = Files.writeString(dir.resolve("x.core"), "");
        // one child of the shell, and one in a session of its own (no longer anyone's descendant once the shell is gone)
        ExternalWalker walker = new ExternalWalker(java.util.List.of("sh", "-c",
                "sleep 300 & echo $! > " + pids + "; setsid sleep 301 & echo $! >> " + pids + "; echo done", "sh", "{dump}"), 30);
        ExternalWalker.Run run = walker.run(dump, dir.resolve("out"));
        assertThat(run.exitCode()).isZero();
        assertThat(run.crashed()).isFalse();
        assertThat(Files.readString(dir.resolve("out"))).isEqualTo("done\n");
        long[] children = pids(pids);
        assertThat(children).hasSize(2);
        for (long pid : children) {
            assertThat(alive(pid)).as("pid %d", pid).isFalse();
        }
        assertThat(run.leftOver()).hasSize(2).allSatisfy(l -> assertThat(l).contains("sleep 30"));
    }

    @Test
    void aWalkerThatTimesOutIsKilledWithItsChildren() throws Exception {
        Path pids = dir.resolve("pids");
        Path dump = Files.writeString(dir.resolve("x.core"), "");
        ExternalWalker walker = new ExternalWalker(java.util.List.of("sh", "-c", "sleep 300 & echo $! > " + pids + "; trap '' TERM; sleep 200; wait", "sh", "{dump}"), 1);
        long started = System.nanoTime();
        ExternalWalker.Run run = walker.run(dump, dir.resolve("out"));
        assertThat(run.timedOut()).isTrue();
        assertThat((System.nanoTime() - started) / 1e9).isLessThan(20);
        for (long pid : pids(pids)) {
            assertThat(alive(pid)).as("pid %d", pid).isFalse();
        }
    }
}
