package io.clrheap.golden.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Not a test of its own but a tool, off unless {@code CLRHEAP_WINE_DUMPS=DIR}: starts our program on every
 * {@link WindowsRuntime} under Wine in both GC modes and writes {@code DIR/VERSION-wks/} and {@code DIR/VERSION-svr/},
 * each with {@code dump.dmp} (MiniDumpWriteDump's full-memory minidump) and {@code selfreport.txt} (what the program
 * printed up to {@code READY}: PID, RUNTIME, VERSION, GC, GCCONFIG, HEAPS, OBJ lines).
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
        }
    }
}
