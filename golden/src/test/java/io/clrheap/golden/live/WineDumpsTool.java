package io.clrheap.golden.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.clrheap.capture.Capture;
import io.clrheap.capture.MinidumpTrimmer;
import io.clrheap.capture.SnapshotAgreement;
import io.clrheap.capture.snapshot.GcHeapSnapshot;
import io.clrheap.walker.source.minidump.Minidump;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * Not a test of its own but a tool, off unless {@code CLRHEAP_WINE_DUMPS=DIR}: starts our program on every
 * {@link WindowsRuntime} under Wine in both GC modes and writes {@code DIR/VERSION-wks/} and {@code DIR/VERSION-svr/},
 * each with {@code dump.dmp} (MiniDumpWriteDump's full-memory minidump), {@code selfreport.txt} (what the program
 * printed up to {@code READY}: PID, RUNTIME, VERSION, GC, GCCONFIG, HEAPS, OBJ lines) and, from the runtime's heap
 * snapshot taken through its diagnostics named pipe right after the dump ({@link WineTestProcess#heapSnapshot}), the
 * files of a golden/real folder: {@code live-objects.txt} ({@code address size mt type}, addresses where the dump has
 * them), {@code roots.txt}, {@code refs.txt}, {@code gc-events.txt}, and {@code changed-objects.txt} when some listed
 * objects are not in the dump as listed (left out of the others, as {@code clrheap capture} does). Last,
 * {@code dump.dmp.xz}: the dump trimmed by {@link MinidumpTrimmer} (environment blanked) and compressed with xz's
 * preset 9, what a golden/real Windows folder keeps.
 *
 * <pre>{@code
 * CLRHEAP_WINE_DUMPS=/tmp/windumps ./clrheap test -pl golden -am -Dtest=WineDumpsTool -Dsurefire.failIfNoSpecifiedTests=false
 * }</pre>
 */
class WineDumpsTool {

    static final String OUT_VARIABLE = "CLRHEAP_WINE_DUMPS";

    @ParameterizedTest(name = "{0} server GC {1}")
    @MethodSource("io.clrheap.golden.live.WineHarnessTest#builds")
    void dump(WindowsRuntime runtime, boolean serverGc) throws Exception {
        String configured = System.getenv(OUT_VARIABLE);
        assumeTrue(configured != null && !configured.isBlank(), OUT_VARIABLE + " is not set: not dumping the Windows builds");
        Path out = Path.of(configured).toAbsolutePath().resolve(runtime.version() + (serverGc ? "-svr" : "-wks"));
        Files.createDirectories(out);
        try (WineTestProcess process = WineTestProcess.start(runtime, serverGc)) {
            Files.writeString(out.resolve("selfreport.txt"), String.join("\n", process.output()) + "\n");
            Path dump = process.minidump(out.resolve("dump.dmp"));
            assertThat(Files.size(dump)).isPositive();
            Path trace = Files.createTempFile("clrheap-wine-snapshot-", ".nettrace");
            try {
                GcHeapSnapshot snapshot = process.heapSnapshot(trace).snapshot();
                SnapshotAgreement agreement;
                try (Minidump minidump = Minidump.open(dump)) {
                    agreement = SnapshotAgreement.check(minidump, List.of(), snapshot.liveObjects());
                }
                Set<Long> leftOut = new HashSet<>();
                List<String> changed = new ArrayList<>(List.of("# address size mt type: what the dump holds there  (objects of the runtime's "
                        + "heap snapshot that the dump, taken just before it, does not hold at their address; left out of live-objects.txt and refs.txt)"));
                for (SnapshotAgreement.Changed c : agreement.changed()) {
                    leftOut.add(c.node().address());
                    changed.add(c.line());
                }
                int listed = snapshot.write(out, leftOut);
                Files.writeString(out.resolve("info.txt"), String.format(java.util.Locale.ROOT, "name: %s%n%s%d (listed in live-objects.txt)%n",
                        out.getFileName(), Capture.LIVE_OBJECTS_COUNT, listed));
                Files.deleteIfExists(out.resolve(Capture.CHANGED_OBJECTS));
                if (!leftOut.isEmpty()) {
                    Files.write(out.resolve(Capture.CHANGED_OBJECTS), changed);
                }
                System.err.println("clrheap: " + out + ": " + agreement.describe());
            } finally {
                Files.deleteIfExists(trace);
            }
            // preset 9: its 64 MiB dictionary holds both copies the 8.0 loader makes of CoreLib, half the size of preset 6
            try (OutputStream xz = new XZOutputStream(new BufferedOutputStream(Files.newOutputStream(out.resolve("dump.dmp.xz")), 1 << 20),
                    new LZMA2Options(9))) {
                System.err.println("clrheap: " + out + ": trimmed: " + MinidumpTrimmer.trim(dump, xz).describe());
            }
        }
    }
}
