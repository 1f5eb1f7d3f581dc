package io.clrheap.golden.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.generator.minidump.MinidumpWriter;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.RuntimeChoice;
import io.clrheap.walker.source.minidump.Minidump;
import io.clrheap.walker.source.minidump.MinidumpModule;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The minidump clrheap generates for a Windows build, held beside the real Windows minidump of that build in
 * golden/real (no Wine needed) and read by the same independent reader ({@link WindowsLayoutFacts}: only the facts
 * measured on real Windows dumps, none of clrheap's profiles): g_dacTable as long as the real one, the free object's
 * MethodTable at the real index, the thread list at ThreadStore +0x40 linking the threads at the real offsets.
 */
class GeneratedWindowsMinidumpBesideRealTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"V8_0_30, net8-windows-svr, 8.0.30, SERVER", "V10_0_9, net10-windows-wks, 10.0.9, WORKSTATION"})
    void theGeneratedMinidumpHasTheRealWindowsLayout(WindowsLayoutFacts.Build build, String realFolder, String version, GcFlavor gc) throws Exception {
        WindowsLayoutFacts real;
        try (Minidump dump = Minidump.open(Path.of("real", realFolder, "dump.dmp.xz"))) {
            real = WindowsLayoutFacts.read(dump, dump.modules().getFirst().base(), build);
        }
        assertThat(real.tableLength()).as("the real g_dacTable").isEqualTo(build.tableLength);
        assertThat(real.freeMtBaseSize()).as("the real free object's BaseSize").isEqualTo(24);
        assertThat(real.threadOsIds()).as("the real thread list").isNotEmpty();

        RuntimeVersion major = version.startsWith("8.") ? RuntimeVersion.NET8 : RuntimeVersion.NET10;
        EmulatedRuntime process = new RuntimeBuilder().platform(Platform.WINDOWS).build(Scenario.defaultScenario(new RuntimeChoice(major, version), gc));
        Path file = dir.resolve("default.dmp");
        MinidumpWriter.write(process, file);
        try (Minidump dump = Minidump.open(file)) {
            MinidumpModule coreclr = dump.modules().stream().filter(m -> m.fileName().equalsIgnoreCase("coreclr.dll")).findFirst().orElseThrow();
            WindowsLayoutFacts generated = WindowsLayoutFacts.read(dump, coreclr.base(), build);
            assertThat(generated.tableLength()).as("the generated g_dacTable").isEqualTo(real.tableLength());
            assertThat(generated.freeMtBaseSize()).as("the generated free object's BaseSize").isEqualTo(real.freeMtBaseSize());
            List<Long> threads = process.groundTruth().threads().stream().map(t -> t.osId()).toList();
            assertThat(generated.threadOsIds()).as("the generated thread list, read at the real offsets").isEqualTo(threads).isNotEmpty();
            assertThat(dump.threads()).extracting(t -> t.threadId()).containsAll(threads);
        }
    }
}
