package io.clrheap.walker.source.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.memory.MemoryRange;
import io.clrheap.memory.MissingMemoryException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LiveProcess and ProcessSuspension against processes that are not .NET: a child JVM ({@link PatternChild}) that
 * filled a native buffer with a known pattern, and {@code sleep}.
 */
class LiveProcessTest {

    @TempDir
    static Path dir;

    static Detached child;
    static long buffer;
    static int length;

    @BeforeAll
    static void startChild() throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        child = Detached.start(dir, java, "-Xmx32m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                PatternChild.class.getName());
        String[] line = child.firstLine(60).split(" ");
        buffer = Long.decode(line[0]);
        length = Integer.parseInt(line[1]);
    }

    @AfterAll
    static void stopChild() throws InterruptedException {
        if (child != null) {
            child.close();
        }
    }

    private static long expectedLong(long offset) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (PatternChild.pattern(offset + i) & 0xff);
        }
        return v;
    }

    @Test
    void readsWhatTheChildWrote() {
        try (LiveProcess p = LiveProcess.open((int) child.pid())) {
            assertThat(p.readByte(buffer + 5)).isEqualTo(PatternChild.pattern(5));
            assertThat(p.readLong(buffer + 8)).isEqualTo(expectedLong(8));
            assertThat(p.readLong(buffer + 4092)).as("a long across a page boundary").isEqualTo(expectedLong(4092));
            assertThat(p.readInt(buffer + 4094)).isEqualTo((int) expectedLong(4094));
            assertThat(p.readShort(buffer + 4095)).isEqualTo((short) expectedLong(4095));
            byte[] all = new byte[length];
            p.read(buffer, all, 0, length);
            for (int i = 0; i < length; i++) {
                assertThat(all[i]).as("byte %d", i).isEqualTo(PatternChild.pattern(i));
            }
            MemorySegment view = p.contiguous(buffer + 100);
            assertThat(view.byteSize()).isGreaterThanOrEqualTo(length - 100);
            assertThat(view.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 4000)).isEqualTo(expectedLong(4100));
            assertThat(view.isReadOnly()).isTrue();
            assertThat(p.contains(buffer, length)).isTrue();
            assertThat(p.ranges()).anyMatch(r -> r.contains(buffer, length));
            assertThat(p.describe()).isEqualTo("process " + child.pid() + " (java)");
        }
    }

    @Test
    void anUnmappedReadIsMissingMemoryWithItsAddress() {
        try (LiveProcess p = LiveProcess.open((int) child.pid())) {
            assertThatThrownBy(() -> p.readLong(0x10))
                    .isInstanceOfSatisfying(MissingMemoryException.class, e -> {
                        assertThat(e.address()).isEqualTo(0x10);
                        assertThat(e.reason()).isEqualTo(MissingMemoryException.Reason.NOT_MAPPED);
                        assertThat(e.getMessage()).contains("0x10", "process " + child.pid());
                    });
            assertThat(p.contains(0x10, 8)).isFalse();
            assertThat(p.contiguous(0x10)).isNull();
        }
    }

    @Test
    void aReadRunningOffTheEndOfAMappingStopsThereAndSaysWhere() {
        try (LiveProcess p = LiveProcess.open((int) child.pid())) {
            // the end of a readable range that nothing readable follows: the first anonymous rw one
            MemoryRange range = p.ranges().stream().filter(r -> r.length() >= 2 * 4096 && !p.contains(r.end(), 1)
                    && p.mappings().stream().anyMatch(m -> m.end() == r.end() && m.path().isEmpty() && m.permissions().startsWith("rw"))).findFirst().orElseThrow();
            long end = range.end();
            byte[] bytes = new byte[64];
            assertThatThrownBy(() -> p.read(end - 16, bytes, 0, 64)).isInstanceOfSatisfying(MissingMemoryException.class,
                    e -> assertThat(e.address()).isEqualTo(end));
            assertThatThrownBy(() -> p.readLong(end - 4)).isInstanceOfSatisfying(MissingMemoryException.class,
                    e -> assertThat(e.address()).isEqualTo(end - 4));
            assertThat(p.contiguous(end - 16).byteSize()).as("a partial read is what was readable").isEqualTo(16);
            p.readLong(end - 8); // the last 8 bytes are there
        }
    }

    @Test
    void modulesAndThreadsComeFromProc() {
        try (LiveProcess p = LiveProcess.open((int) child.pid())) {
            assertThat(p.mappedFiles()).anyMatch(f -> f.path().endsWith("/libjvm.so") && f.fileOffset() == 0);
            assertThat(p.threads()).contains((int) child.pid()).hasSizeGreaterThan(5);
            assertThat(p.command()).isEqualTo("java");
        }
    }

    @Test
    void noSuchProcess() {
        int pid = unusedPid();
        assertThatThrownBy(() -> LiveProcess.open(pid)).isInstanceOfSatisfying(LiveProcessException.class, e -> {
            assertThat(e.kind()).isEqualTo(LiveProcessException.Kind.NO_SUCH_PROCESS);
            assertThat(e.getMessage()).isEqualTo("no such process: " + pid);
        });
        assertThatThrownBy(() -> ProcessSuspension.suspend(pid)).isInstanceOfSatisfying(LiveProcessException.class,
                e -> assertThat(e.kind()).isEqualTo(LiveProcessException.Kind.NO_SUCH_PROCESS));
    }

    @Test
    void aProcessThatExitsMidReadGivesTheExitedError() throws Exception {
        try (Detached sleep = Detached.start(dir, "sleep", "60"); LiveProcess p = LiveProcess.open((int) sleep.pid())) {
            long stack = p.mappings().stream().filter(m -> m.path().equals("[stack]")).findFirst().orElseThrow().end() - 8;
            p.readLong(stack);
            sleep.kill();
            assertThat(sleep.deadOrZombie()).isTrue();
            assertThatThrownBy(() -> p.contiguous(stack)).isInstanceOfSatisfying(LiveProcessException.class, e -> {
                assertThat(e.kind()).isEqualTo(LiveProcessException.Kind.EXITED);
                assertThat(e.getMessage()).startsWith("process " + sleep.pid() + " exited while it was being read");
            });
        }
    }

    @Test
    void suspendStopsEveryThreadAndDetachesThemAll() throws Exception {
        int pid = (int) child.pid();
        List<Integer> tasks = ProcFiles.threads(pid);
        try (ProcessSuspension s = ProcessSuspension.suspend(pid)) {
            assertThat(s.threads()).containsExactlyElementsOf(ProcFiles.threads(pid)).containsAll(tasks);
            for (int tid : s.threads()) {
                // TracerPid names the tracing thread (ptrace requests come from one thread of this JVM)
                String tracer = ProcFiles.taskStatus(pid, tid, "TracerPid");
                assertThat(Path.of("/proc/self/task", tracer)).as("thread %d traced by %s", tid, tracer).exists();
                assertThat(ProcFiles.taskStatus(pid, tid, "State")).as("thread %d", tid).startsWith("t");
            }
            try (LiveProcess p = LiveProcess.open(pid)) {
                assertThat(p.readLong(buffer + 8)).isEqualTo(expectedLong(8)); // a stopped process is read as any other
            }
        }
        for (int tid : ProcFiles.threads(pid)) {
            assertThat(ProcFiles.taskStatus(pid, tid, "TracerPid")).as("thread %d after", tid).isEqualTo("0");
            assertThat(ProcFiles.taskStatus(pid, tid, "State")).as("thread %d after", tid).doesNotStartWith("t");
        }
        assertThat(child.deadOrZombie()).isFalse();
    }

    @Test
    void aSuspendingJvmEndedByASignalResumesTheProcess() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        try (Detached sleep = Detached.start(dir, "sleep", "60");
             Detached suspender = Detached.start(dir, java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                     SuspendAndWait.class.getName(), Long.toString(sleep.pid()))) {
            assertThat(suspender.firstLine(60)).isEqualTo("SUSPENDED 1");
            int pid = (int) sleep.pid();
            assertThat(ProcFiles.taskStatus(pid, pid, "State")).startsWith("t");
            ProcessHandle.of(suspender.pid()).orElseThrow().destroy(); // SIGTERM, as Ctrl-C's SIGINT: the shutdown hook runs
            for (int i = 0; i < 400 && !suspender.deadOrZombie(); i++) {
                Thread.sleep(25);
            }
            assertThat(ProcFiles.taskStatus(pid, pid, "TracerPid")).isEqualTo("0");
            assertThat(ProcFiles.taskStatus(pid, pid, "State")).doesNotStartWith("t");
            assertThat(sleep.deadOrZombie()).isFalse();
        }
    }

    @Test
    void aChildOfThisJvmIsNotSuspended() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "60").start();
        try {
            assertThatThrownBy(() -> ProcessSuspension.suspend((int) sleep.pid())).isInstanceOfSatisfying(LiveProcessException.class,
                    e -> assertThat(e.getMessage()).contains("it is a child of this JVM"));
            assertThat(sleep.isAlive()).isTrue();
            assertThat(ProcFiles.status((int) sleep.pid(), "TracerPid")).isEqualTo("0");
        } finally {
            sleep.destroyForcibly();
        }
    }

    @Test
    void parsesMapsLines() {
        Mapping m = ProcFiles.parseMapsLine("7f12a4c00000-7f12a4e00000 r-xp 00021000 08:01 1234   /opt/my app/libcoreclr.so (deleted)",
                Path.of("maps"));
        assertThat(m).isEqualTo(new Mapping(0x7f12a4c00000L, 0x7f12a4e00000L, "r-xp", 0x21000, "/opt/my app/libcoreclr.so"));
        assertThat(ProcFiles.parseMapsLine("ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0 [vsyscall]", Path.of("maps")).path())
                .isEqualTo("[vsyscall]");
        assertThat(ProcFiles.parseMapsLine("55d0c0a00000-55d0c0a21000 rw-p 00000000 00:00 0 ", Path.of("maps")).path()).isEmpty();
    }

    static int unusedPid() {
        try {
            int max = Integer.parseInt(ProcFiles.firstLine(Path.of("/proc/sys/kernel/pid_max")));
            for (int pid = max - 1; pid > 1; pid--) {
                if (!Files.exists(Path.of("/proc/" + pid))) {
                    return pid;
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        throw new IllegalStateException("every pid is in use");
    }
}
