package io.clrheap.golden.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand;
import io.clrheap.cli.ClrheapCommand.Outcome;
import io.clrheap.conformance.corpus.RealGoldenCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code clrheap capture} end to end on real runtimes: the folder it writes from a live .NET 8, 9 or 10 process holds
 * every file of a golden/real folder, its live-objects.txt lists every object the program reported about itself
 * (same address, MethodTable and size), and {@code clrheap golden check} passes on it.
 */
class CaptureTest {

    static Stream<Arguments> cases() {
        return Stream.of(Arguments.of(RealRuntime.NET8, true), Arguments.of(RealRuntime.NET9, false), Arguments.of(RealRuntime.NET10, true));
    }

    @ParameterizedTest(name = "{0} server GC {1}")
    @MethodSource("cases")
    void aCapturedFolderPassesGoldenCheckAndListsEveryReportedObject(RealRuntime runtime, boolean serverGc, @TempDir Path tmp) throws IOException {
        try (DotnetTestProcess process = DotnetTestProcess.start(runtime, serverGc)) {
            Path out = tmp.resolve("captured");
            List<String> environment = java.util.Arrays.stream(new String(Files.readAllBytes(Path.of("/proc/" + process.pid() + "/environ")),
                    java.nio.charset.StandardCharsets.ISO_8859_1).split("\0")).filter(kv -> kv.indexOf('=') > 0 && kv.length() >= 6).toList();
            assertThat(environment).anyMatch(kv -> kv.startsWith("DOTNET_"));
            long t0 = System.nanoTime();
            Outcome capture = ClrheapCommand.run("capture", "--pid", Long.toString(process.pid()), "--out", out.toString());
            double seconds = (System.nanoTime() - t0) / 1e9;
            System.err.print(capture.err());
            System.err.printf("%s server=%s: %s(%.1f s)%n", runtime, serverGc, capture.out(), seconds);
            assertThat(capture.exitCode()).as("capture: %s%s", capture.out(), capture.err()).isZero();
            assertThat(process.isAlive()).as("the process outlives its capture").isTrue();
            try (Stream<Path> s = Files.list(tmp)) {
                assertThat(s.map(p -> p.getFileName().toString()).toList()).as("nothing left beside the folder").containsExactly("captured");
            }
            try (Stream<Path> s = Files.list(out)) {
                assertThat(s.map(p -> p.getFileName().toString()).toList())
                        .containsExactlyInAnyOrder("core.xz", "live-objects.txt", "roots.txt", "refs.txt", "gc-events.txt", "info.txt");
            }
            Map<Long, RealGoldenCheck.LiveObject> live = RealGoldenCheck.readLiveObjects(out.resolve("live-objects.txt")).stream()
                    .collect(Collectors.toMap(RealGoldenCheck.LiveObject::address, Function.identity()));
            // a capture that had to take its dump again did so after a GC that moved the objects (see Capture): the
            // addresses the program reported before it are stale, and each object is looked for by MethodTable and size
            boolean retook = capture.err().contains("taking the dump and the snapshot again");
            if (retook) {
                Set<String> kinds = live.values().stream().map(l -> l.mt() + "/" + l.size()).collect(Collectors.toSet());
                for (ReportedObject o : process.objects()) {
                    assertThat(kinds).as("%s (MethodTable 0x%x, %d bytes) in live-objects.txt", o.label(), o.methodTable(), o.size())
                            .contains(o.methodTable() + "/" + o.size());
                }
            }
            for (ReportedObject o : retook ? List.<ReportedObject>of() : process.objects()) {
                RealGoldenCheck.LiveObject l = live.get(o.address());
                assertThat(l).as("%s at 0x%x in live-objects.txt", o.label(), o.address()).isNotNull();
                assertThat(l.mt()).as("%s's MethodTable", o.label()).isEqualTo(o.methodTable());
                assertThat(l.size()).as("%s's size", o.label()).isEqualTo(o.size());
            }
            List<String> gc = Files.readAllLines(out.resolve("gc-events.txt"));
            assertThat(gc).anyMatch(l -> l.startsWith("GCGlobalHeapHistory NumHeaps=" + process.heapCount() + " "));
            assertThat(gc).anyMatch(l -> l.startsWith("GCGenerationRange phase=start heap=0 gen=0 "));
            assertThat(Files.readAllLines(out.resolve("roots.txt"))).anyMatch(l -> l.startsWith("ROOT Handle "));
            Outcome check = ClrheapCommand.run("golden", "check", out.toString());
            assertThat(check.exitCode()).as("golden check: %s%s", check.out(), check.err()).isZero();
            String core = Files.readString(out.resolve("core.decompressed"), java.nio.charset.StandardCharsets.ISO_8859_1);
            for (String kv : environment) {
                assertThat(core).as("the process environment is blanked").doesNotContain("\0" + kv);
            }
        }
    }
}
