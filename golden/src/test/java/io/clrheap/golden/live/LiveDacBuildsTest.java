package io.clrheap.golden.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.cli.ClrheapCommand;
import io.clrheap.cli.ClrheapCommand.Outcome;
import io.clrheap.dac.DacBuild;
import io.clrheap.dac.DacEngine;
import io.clrheap.dac.DacHeap;
import io.clrheap.dac.DacLocator;
import io.clrheap.dac.DumpBuild;
import io.clrheap.dac.TestDac;
import io.clrheap.dac.TestDac.Build;
import io.clrheap.dac.library.DacException;
import io.clrheap.dac.walk.DacWalkKind;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.OpenOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Microsoft's DACs of 9.0.5 and 9.0.7 each read a running process of their own build: the classic self-contained
 * {@code azmcp} of the npm package that ships the DAC ({@code @azure/mcp-linux-x64@0.5.5}, {@code @0.5.13}) with our
 * test program as a startup hook, server and workstation GC. The DAC of each other build is refused for it, and
 * {@code walk --pid --engine dac} given a folder of the three DACs picks the process's own.
 *
 * <p>The build of the process is what its runtime module ({@code dist/libcoreclr.so}) says it is; the walker names
 * it exactly once the runtime module's version string identifies the build (until then it calls these
 * processes 9.0.1, by their g_dacTable, and the command-line case is skipped saying so).
 */
class LiveDacBuildsTest {

    static Stream<Arguments> builds() {
        return Stream.of(Build.NET_9_0_5, Build.NET_9_0_7).flatMap(b -> Stream.of(Arguments.of(b, true), Arguments.of(b, false)));
    }

    @ParameterizedTest(name = "{0} server GC {1}")
    @MethodSource("builds")
    void eachDacReadsAProcessOfItsOwnBuildAndTheOthersAreRefused(Build build, boolean serverGc) throws Exception {
        Path dacPath = TestDac.path(build);
        try (BuildProcess process = BuildProcess.start(build, serverGc);
             DumpSession session = Dumps.attach((int) process.pid(), OpenOptions.DEFAULT)) {
            DumpBuild own = process.build();
            assertThat(own).isEqualTo(build.dumpBuild());
            DacEngine dac = DacEngine.open(dacPath);
            Map<Long, long[]> listed = new HashMap<>();
            DacHeap heap = dac.walkProcess((int) process.pid(), session.target(), own, DacWalkKind.SOS,
                    (address, mt, size, region) -> listed.put(address, new long[] {mt, size}), DacEngine.DEFAULT_TIMEOUT);
            assertThat(heap.failureCount()).as("%s", heap.failures()).isZero();
            assertThat(heap.objectCount()).isGreaterThan(1000);
            for (ReportedObject o : process.objects()) {
                assertThat(listed.get(o.address())).as("%s (%s) at 0x%x", o.label(), o.type(), o.address()).containsExactly(o.methodTable(), o.size());
            }
            Map<Long, Long> walked = new HashMap<>();
            DacHeap heapWalk = dac.walkProcess((int) process.pid(), session.target(), own, DacWalkKind.HEAPWALK,
                    (address, mt, size, region) -> walked.put(address, mt), DacEngine.DEFAULT_TIMEOUT);
            assertThat(heapWalk.failureCount()).as("%s", heapWalk.failures()).isZero();
            for (ReportedObject o : process.objects()) {
                assertThat(walked.get(o.address())).as("%s at 0x%x", o.label(), o.address()).isEqualTo(o.methodTable());
            }
            for (Build other : Build.values()) {
                if (other != build) {
                    DacEngine wrong = DacEngine.open(TestDac.path(other));
                    assertThatThrownBy(() -> wrong.walkProcess((int) process.pid(), session.target(), own, DacWalkKind.SOS,
                            (a, m, s, r) -> { }, DacEngine.DEFAULT_TIMEOUT)).isInstanceOf(DacException.class)
                            .hasMessageContaining("is .NET " + other.version() + " (" + other.fileVersion())
                            .hasMessageContaining("the dump's runtime is .NET " + build.version() + " (" + build.fileVersion());
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} server GC {1}")
    @MethodSource("builds")
    void walkPidWithAFolderOfDacsPicksTheProcesssOwn(Build build, boolean serverGc, @TempDir Path dir) throws Exception {
        for (Map.Entry<Build, Path> e : TestDac.all().entrySet()) {
            Files.copy(e.getValue(), Files.createDirectories(dir.resolve(e.getKey().version())).resolve(DacLocator.FILE_NAME));
        }
        try (BuildProcess process = BuildProcess.start(build, serverGc)) {
            String pid = Long.toString(process.pid());
            try (DumpSession session = Dumps.attach((int) process.pid(), OpenOptions.DEFAULT)) {
                String named = DumpBuild.of(session.target()).version();
                // walk --engine dac picks the DAC of the build the walker names: the exact one, from the version string
                assertThat(named).isEqualTo(build.version());
            }
            Outcome walker = ClrheapCommand.run("walk", "--pid", pid, "--objects", "-q");
            Outcome sos = ClrheapCommand.run("walk", "--pid", pid, "--engine", "dac", "--dac", dir.toString(), "--objects");
            assertThat(sos.exitCode()).as(sos.err()).isZero();
            assertThat(sos.err()).contains("DAC " + build.version() + " (" + build.fileVersion() + ", commit " + build.commit().substring(0, 12)
                    + ") at " + dir.resolve(build.version()).resolve(DacLocator.FILE_NAME) + " (--dac)");
            assertThat(withoutNames(sos.out())).isEqualTo(withoutNames(walker.out()));
        }
    }

    private static List<String> withoutNames(String objects) {
        return objects.lines().map(l -> l.substring(0, l.lastIndexOf('\t'))).toList();
    }

    /**
     * Our test program (HeapProbe.cs) as a startup hook of the classic {@code dist/azmcp} of {@code build}'s npm package,
     * as {@link DotnetTestProcess} starts it on 9.0.1: it prints its objects and {@code READY}, then waits on stdin.
     */
    static final class BuildProcess implements AutoCloseable {

        private final Process process;
        private final DumpBuild build;
        private final List<ReportedObject> objects;

        private BuildProcess(Process process, DumpBuild build, List<ReportedObject> objects) {
            this.process = process;
            this.build = build;
            this.objects = objects;
        }

        static BuildProcess start(Build build, boolean serverGc) throws IOException, InterruptedException {
            if ("1".equals(System.getenv(RealRuntimes.SKIP_VARIABLE)) && !RealRuntimes.required()) {
                throw RealRuntimes.unavailable(RealRuntimes.SKIP_VARIABLE + "=1: not starting a real " + build.version() + " process");
            }
            Path hook = RealRuntimes.startupHook();
            Path dist = RealRuntimes.packageFolder(build.npmPackage()).resolve("dist");
            DumpBuild runtime = DumpBuild.of(DacBuild.of(dist.resolve("libcoreclr.so"))
                    .orElseThrow(() -> new IllegalStateException(dist.resolve("libcoreclr.so") + " has no version string")));
            ProcessBuilder builder = new ProcessBuilder(dist.resolve("azmcp").toString(), "--version").directory(dist.toFile());
            Map<String, String> env = builder.environment();
            env.keySet().removeIf(key -> key.toUpperCase(java.util.Locale.ROOT).matches("(DOTNET_|COMPLUS_|CORECLR_).*"));
            env.put("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT", "1");
            env.put("DOTNET_STARTUP_HOOKS", hook.toString());
            if (serverGc) {
                env.put("DOTNET_gcServer", "1");
                env.put("DOTNET_GCHeapCount", "2");
            } else {
                env.put("DOTNET_gcServer", "0");
            }
            Path stderr = Files.createTempFile("clrheap-" + build.version() + "-", ".stderr");
            Process process = builder.redirectError(stderr.toFile()).start();
            List<String> lines = new ArrayList<>();
            boolean ready = false;
            Thread timer = Thread.ofVirtual().start(() -> {
                try {
                    if (!process.waitFor(DotnetTestProcess.READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                        synchronized (lines) {
                            if (!lines.contains("READY")) {
                                process.destroyForcibly(); // ends the read below
                            }
                        }
                    }
                } catch (InterruptedException e) {
                    // the process is ready
                }
            });
            BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
            String line;
            while ((line = in.readLine()) != null) {
                synchronized (lines) {
                    lines.add(line);
                }
                if (line.equals("READY")) {
                    ready = true;
                    break;
                }
            }
            timer.interrupt();
            String errors = Files.readString(stderr);
            Files.deleteIfExists(stderr);
            if (!ready) {
                process.destroyForcibly();
                throw new IllegalStateException(build.version() + " test process printed no READY:\n" + String.join("\n", lines) + "\n" + errors);
            }
            Thread.ofVirtual().start(() -> { // keep the pipe drained: the host may print after READY
                try {
                    in.transferTo(java.io.Writer.nullWriter());
                } catch (IOException e) {
                    // the process ended
                }
            });
            List<ReportedObject> objects = new ArrayList<>();
            for (String l : lines) {
                String[] f = l.split(" ");
                if (f[0].equals("OBJ") && f.length == 7) {
                    objects.add(new ReportedObject(f[1], Long.parseUnsignedLong(f[2].substring(2), 16), Long.parseUnsignedLong(f[3].substring(2), 16), Long.parseLong(f[4]), f[5]));
                }
            }
            if (objects.isEmpty()) {
                process.destroyForcibly();
                throw new IllegalStateException(build.version() + " test process reported no objects:\n" + String.join("\n", lines));
            }
            return new BuildProcess(process, runtime, objects);
        }

        long pid() {
            return process.pid();
        }

        /** The build the process runs: what its libcoreclr.so's version string says. */
        DumpBuild build() {
            return build;
        }

        List<ReportedObject> objects() {
            return objects;
        }

        @Override
        public void close() throws InterruptedException {
            try (OutputStream in = process.getOutputStream()) {
                in.write('\n');
            } catch (IOException e) {
                // it ended already
            }
            if (!process.waitFor(DotnetTestProcess.EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
