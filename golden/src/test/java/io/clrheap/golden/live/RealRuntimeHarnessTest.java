package io.clrheap.golden.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Proves the live-process harness, not a walker: for each real runtime × GC mode, the started process is alive, every
 * object it reported has its MethodTable as its first 8 bytes in the process's memory (read from outside through
 * {@code /proc/PID/mem}), and the process exits when closed.
 */
class RealRuntimeHarnessTest {

    static Stream<Arguments> runtimes() {
        List<Arguments> cases = new ArrayList<>();
        for (RealRuntime runtime : RealRuntime.values()) {
            cases.add(Arguments.of(runtime, false));
            cases.add(Arguments.of(runtime, true));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} server GC {1}")
    @MethodSource("runtimes")
    void reportedObjectsAreInTheLiveProcess(RealRuntime runtime, boolean serverGc) throws IOException {
        DotnetTestProcess process = DotnetTestProcess.start(runtime, serverGc);
        try (process) {
            assertThat(process.isAlive()).isTrue();
            assertThat(process.output()).contains("PID " + process.pid());
            // the program reports System.Private.CoreLib's assembly version (8.0.0.0, 9.0.0.0, 10.0.0.0); the build
            // (8.0.30, 9.0.1, 10.0.9) is what the walker identifies from the runtime module (LiveWalkTest)
            String major = runtime.version().substring(0, runtime.version().indexOf('.'));
            assertThat(process.runtimeVersion()).as("the runtime that runs the program").isEqualTo(major + ".0.0.0");
            if (runtime != RealRuntime.NET10) { // 10.0's trimmed CoreLib cannot tell
                assertThat(process.reportedGc()).isEqualTo(serverGc ? "server" : "workstation");
            }
            List<ReportedObject> objects = process.objects();
            assertThat(objects).extracting(ReportedObject::label).contains("object", "string.empty", "string.heap", "bytes.0",
                    "refs.5", "node.first", "loh.bytes.100000", "pinned.handle.bytes.256", "young.object", "young.node", "small.2999");
            assertThat(objects.size()).isGreaterThan(3000);
            // sizes as a walker reports them, unaligned
            assertThat(process.object("string.empty").size()).isEqualTo(22);
            assertThat(process.object("bytes.7").size()).isEqualTo(24 + 7);
            assertThat(process.object("object").size()).isEqualTo(24);
            assertThat(process.object("loh.bytes.100000").size()).isEqualTo(100_024);
            // the full GCs promoted the old objects, the young ones were allocated after them
            assertThat(process.generation(process.object("object"))).isEqualTo(2);
            assertThat(process.generation(process.object("young.object"))).isEqualTo(0);
            assertThat(process.heapCount()).isEqualTo(serverGc ? 2 : 1);
            assertThat(serverGcThreads(process.pid())).as("threads named .NET Server GC").isEqualTo(serverGc ? 2 : 0);

            List<long[]> maps = readableMappings(process.pid());
            try (RandomAccessFile memory = new RandomAccessFile("/proc/" + process.pid() + "/mem", "r")) {
                for (ReportedObject o : objects) {
                    assertThat(mapped(maps, o.address(), o.size())).as("%s at 0x%x is in a readable mapping", o.label(), o.address()).isTrue();
                    assertThat(mapped(maps, o.methodTable(), 8)).as("%s's MethodTable 0x%x is mapped", o.label(), o.methodTable()).isTrue();
                    assertThat(readLong(memory, o.address())).as("%s: the MethodTable at 0x%x", o.label(), o.address())
                            .isEqualTo(o.methodTable());
                }
            }
        }
        assertThat(process.isAlive()).as("the process ended on close").isFalse();
        assertThat(process.exitCode()).as("it exited when told to, not killed").isEqualTo(0);
        assertThat(Path.of("/proc/" + process.pid())).doesNotExist();
    }

    private static int serverGcThreads(long pid) throws IOException {
        int count = 0;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    if (Files.readString(task.resolve("comm")).strip().equals(".NET Server GC")) {
                        count++;
                    }
                } catch (IOException e) {
                    // a thread that ended
                }
            }
        }
        return count;
    }

    /** {start, end} of each readable mapping in /proc/PID/maps. */
    private static List<long[]> readableMappings(long pid) throws IOException {
        List<long[]> result = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/maps"))) {
            String[] fields = line.split("\\s+");
            if (fields[1].charAt(0) != 'r') {
                continue;
            }
            String[] range = fields[0].split("-");
            result.add(new long[]{Long.parseUnsignedLong(range[0], 16), Long.parseUnsignedLong(range[1], 16)});
        }
        return result;
    }

    private static boolean mapped(List<long[]> maps, long address, long length) {
        for (long[] m : maps) {
            if (Long.compareUnsigned(address, m[0]) >= 0 && Long.compareUnsigned(address + length, m[1]) <= 0) {
                return true;
            }
        }
        return false;
    }

    private static long readLong(RandomAccessFile memory, long address) throws IOException {
        memory.seek(address);
        return Long.reverseBytes(memory.readLong());
    }
}
