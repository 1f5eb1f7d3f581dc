package io.clrheap.golden.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand;
import io.clrheap.cli.ClrheapCommand.Outcome;
import io.clrheap.conformance.corpus.RealGoldenCheck;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.runtime.TargetException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
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
            // the program is idle: the first dump and snapshot agree, the objects the snapshot's GC moved listed where the
            // dump has them (capture undoes the GC's moved ranges), so at the addresses the program reported
            assertThat(capture.err()).doesNotContain("taking the dump and the snapshot again");
            assertThat(Files.readString(out.resolve("info.txt"))).contains("attempts: 1 ");
            Map<Long, RealGoldenCheck.LiveObject> live = RealGoldenCheck.readLiveObjects(out.resolve("live-objects.txt")).stream()
                    .collect(Collectors.toMap(RealGoldenCheck.LiveObject::address, Function.identity()));
            for (ReportedObject o : process.objects()) {
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
            String core;
            try (io.clrheap.walker.source.elf.ElfCore decompressed = io.clrheap.walker.source.elf.ElfCore.open(out.resolve("core.xz"))) {
                core = Files.readString(decompressed.path(), java.nio.charset.StandardCharsets.ISO_8859_1);
            }
            for (String kv : environment) {
                assertThat(core).as("the process environment is blanked").doesNotContain("\0" + kv);
            }
        }
    }

    /**
     * A busy process (HeapProbe's churn thread: millions of allocations a second, a thousand survivors replaced, gen0 GCs
     * all the time) streams GC events without a pause and changes its heap between the dump and the snapshot: capture
     * still ends its snapshot session once the heap walk is over, keeps an attempt where at least 90 % of the listed
     * objects agree with the dump, lists the rest in changed-objects.txt, and golden check passes on the folder.
     */
    @ParameterizedTest(name = "{0} server GC {1}")
    @MethodSource("busyCases")
    void aBusyProcessIsCapturedWithWhatItChangedLeftOut(RealRuntime runtime, boolean serverGc, @TempDir Path tmp) throws IOException {
        try (DotnetTestProcess process = DotnetTestProcess.start(runtime, serverGc)) {
            process.startAllocating();
            long pid = process.pid();
            sleep(1000);
            Path out = tmp.resolve("busy");
            long t0 = System.nanoTime();
            Outcome capture = ClrheapCommand.run("capture", "--pid", Long.toString(pid), "--out", out.toString(), "--xz-preset", "0");
            double seconds = (System.nanoTime() - t0) / 1e9;
            System.err.print(capture.err());
            System.err.printf("busy %s server=%s: %s(%.1f s)%n", runtime, serverGc, capture.out(), seconds);
            assertThat(capture.exitCode()).as("capture: %s%s", capture.out(), capture.err()).isZero();
            assertThat(process.isAlive()).isTrue();
            // every snapshot session ended when the heap walk was over, not at --max-trace (120 s) for want of a pause
            assertThat(capture.err().lines().filter(l -> l.contains("snapshot: ") && l.contains(" objects in ")))
                    .isNotEmpty().allSatisfy(l -> assertThat(Double.parseDouble(l.replaceAll(".* objects in ([\\d.]+) s.*", "$1"))).isLessThan(60));
            // the process was busy: the snapshot's GC is one of many it ran (HeapProbe's own are 8 or so)
            long gcNumber = Files.readAllLines(out.resolve("gc-events.txt")).stream().filter(l -> l.startsWith("GCStart count="))
                    .mapToLong(l -> Long.parseLong(l.replaceAll("GCStart count=(\\d+) .*", "$1"))).max().orElseThrow();
            assertThat(gcNumber).as("the number of the snapshot's GC").isGreaterThan(30);
            List<String> info = Files.readAllLines(out.resolve("info.txt"));
            assertThat(info).anyMatch(l -> l.startsWith("attempts: "));
            Path changed = out.resolve("changed-objects.txt");
            Set<Long> left = new HashSet<>();
            if (Files.exists(changed)) {
                for (String line : Files.readAllLines(changed)) {
                    if (!line.startsWith("#")) {
                        assertThat(line).matches("0x[0-9a-f]+ \\d+ 0x[0-9a-f]+ .+: .+");
                        left.add(Long.decode(line.substring(0, line.indexOf(' '))));
                    }
                }
                assertThat(info).anyMatch(l -> l.startsWith("changed: " + left.size() + " objects"));
            }
            Map<Long, RealGoldenCheck.LiveObject> live = RealGoldenCheck.readLiveObjects(out.resolve("live-objects.txt")).stream()
                    .collect(Collectors.toMap(RealGoldenCheck.LiveObject::address, Function.identity()));
            assertThat(live.keySet()).doesNotContainAnyElementsOf(left);
            // the old objects (gen2) that are still where the program saw them in the dump (a compacting gen2 GC of the
            // churn may have moved some before it) are listed there: where the snapshot's GC moved them, capture moved them back
            Map<Long, Long> inDump = new HashMap<>();
            try (DumpSession dump = Dumps.open(out.resolve("core.xz"))) {
                dump.walk((address, mt, size, region) -> inDump.put(address, mt));
            } catch (TargetException e) {
                throw new AssertionError("the captured dump cannot be opened: " + e.getMessage(), e);
            }
            List<ReportedObject> stayed = process.objects().stream()
                    .filter(o -> process.generation(o) == 2 && Long.valueOf(o.methodTable()).equals(inDump.get(o.address()))).toList();
            assertThat(stayed).as("gen2 objects of the program still at their address in the dump").isNotEmpty();
            for (ReportedObject o : stayed) {
                if (!left.contains(o.address())) {
                    assertThat(live.get(o.address())).as("%s at 0x%x in live-objects.txt", o.label(), o.address()).isNotNull();
                }
            }
            Outcome check = ClrheapCommand.run("golden", "check", out.toString());
            assertThat(check.exitCode()).as("golden check: %s%s", check.out(), check.err()).isZero();
        }
    }

    static Stream<Arguments> busyCases() {
        return Stream.of(Arguments.of(RealRuntime.NET10, true), Arguments.of(RealRuntime.NET9, false));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
