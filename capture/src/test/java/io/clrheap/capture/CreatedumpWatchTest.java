package io.clrheap.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The watch over a dump's child processes, on children of this JVM: one that waits, one that works. */
class CreatedumpWatchTest {

    private static final long SELF = ProcessHandle.current().pid();

    @Test
    void aChildThatUsesNoCpuAndWritesNothingIsEndedAfterTheStall(@TempDir Path dir) throws Exception {
        Set<Long> before = children();
        Process waiting = new ProcessBuilder("sleep", "60").start(); // asleep, as the deadlocked fork in futex_do_wait
        try (CreatedumpWatch watch = CreatedumpWatch.start(SELF, before, dir.resolve("core"), Duration.ofMillis(500))) {
            assertThat(waiting.waitFor(10, TimeUnit.SECONDS)).as("ended by the watch").isTrue();
            watch.close();
            assertThat(watch.ended()).containsExactly(waiting.pid());
        } finally {
            waiting.destroyForcibly();
        }
    }

    @Test
    void aChildThatUsesCpuIsLeftAlone(@TempDir Path dir) throws Exception {
        Set<Long> before = children();
        Process working = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
        try (CreatedumpWatch watch = CreatedumpWatch.start(SELF, before, dir.resolve("core"), Duration.ofMillis(500))) {
            Thread.sleep(2000);
            assertThat(working.isAlive()).isTrue();
            watch.close();
            assertThat(watch.ended()).isEmpty();
        } finally {
            working.destroyForcibly();
        }
    }

    @Test
    void aChildThereBeforeTheDumpIsNotWatched(@TempDir Path dir) throws Exception {
        Process earlier = new ProcessBuilder("sleep", "60").start();
        try (CreatedumpWatch watch = CreatedumpWatch.start(SELF, children(), dir.resolve("core"), Duration.ofMillis(300))) {
            Thread.sleep(1500);
            assertThat(earlier.isAlive()).isTrue();
            watch.close();
            assertThat(watch.ended()).isEmpty();
        } finally {
            earlier.destroyForcibly();
        }
    }

    @Test
    void cpuTicksAreReadFromProcStat() {
        assertThat(CreatedumpWatch.cpuTicks(SELF)).as("this JVM has run").isPositive();
        assertThat(CreatedumpWatch.cpuTicks(Long.MAX_VALUE)).isEqualTo(-1);
    }

    private static Set<Long> children() {
        return ProcessHandle.current().children().map(ProcessHandle::pid).collect(java.util.stream.Collectors.toSet());
    }
}
