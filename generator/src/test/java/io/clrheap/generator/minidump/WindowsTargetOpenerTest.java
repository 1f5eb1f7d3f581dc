package io.clrheap.generator.minidump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.memory.MemoryRange;
import io.clrheap.walker.source.minidump.MinidumpModule;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetException;
import io.clrheap.walker.runtime.TargetOpener;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How a Windows target's build is identified when g_dacTable, a PE export, has no size: by DotNetRuntimeInfo, else
 * by the contracts of the contract descriptor; the table's length is then the build's. Opened from the process
 * memory and a module list, as a minidump gives them.
 */
class WindowsTargetOpenerTest {

    private final TargetOpener opener = new TargetOpener(ProfileLoader.builtIn());

    private static EmulatedRuntime windows(RuntimeVersion version) {
        return new RuntimeBuilder().platform(Platform.WINDOWS).build(Scenario.defaultScenario(version, GcFlavor.SERVER));
    }

    private static List<MinidumpModule> modules(EmulatedRuntime process) {
        var m = process.module();
        return List.of(new MinidumpModule(m.base(), m.size(), m.path(), Integer.toUnsignedLong(m.timeDateStamp()), 0));
    }

    private Target open(EmulatedRuntime process) throws TargetException {
        return opener.openWindows(process.memory(), modules(process));
    }

    /** Overwrites the first occurrence of {@code text} in the module's image with {@code replacement} (same length). */
    private static void patchModule(EmulatedRuntime process, String text, String replacement) {
        byte[] wanted = text.getBytes(StandardCharsets.US_ASCII);
        long base = process.module().base();
        byte[] image = process.memory().readBytes(base, (int) Math.min(process.module().size(), 0x60000));
        for (int i = 0; i + wanted.length <= image.length; i++) {
            if (java.util.Arrays.equals(image, i, i + wanted.length, wanted, 0, wanted.length)) {
                byte[] with = replacement.getBytes(StandardCharsets.US_ASCII);
                process.memory().write(base + i, with, 0, with.length);
                return;
            }
        }
        throw new AssertionError(text + " is not in the module");
    }

    @Test
    void dotNet8IsIdentifiedByDotNetRuntimeInfo() throws Exception {
        Target target = open(windows(RuntimeVersion.NET8));
        assertThat(target.version()).isEqualTo("8.0.30");
        assertThat(target.versionSource()).startsWith("DotNetRuntimeInfo at 0x");
        assertThat(target.module().dacTableLength()).as("the Windows table (the Linux one has 157)").isEqualTo(169);
        assertThat(target.module().symbolsFrom()).contains("PE exports");
        assertThat(target.layoutSource()).contains("builds/windows-x64-8.0.30.json");
        assertThat(target.describe()).isEqualTo(".NET 8.0.30 (8.0.3026.36720) on Windows x64, server GC, coreclr.dll");
    }

    @Test
    void withoutDotNetRuntimeInfoDotNet10IsIdentifiedByItsContracts() throws Exception {
        // on Windows only 10.0.9 has a layout, so the contracts every 10.0.x declares name one build
        EmulatedRuntime process = windows(RuntimeVersion.NET10);
        patchModule(process, "DotNetRuntimeInfo\0", "XotNetRuntimeInfo\0");
        Target target = open(process);
        assertThat(target.build().version()).isEqualTo("10.0.9");
        assertThat(target.versionSource()).startsWith("contract descriptor's contracts");
        assertThat(target.module().dacTableLength()).isEqualTo(138);
    }

    @Test
    void withoutDotNetRuntimeInfoTheBuildIsNamedByTheVersionResourceTheModuleListGives() throws Exception {
        EmulatedRuntime process = windows(RuntimeVersion.NET10);
        patchModule(process, "DotNetRuntimeInfo\0", "XotNetRuntimeInfo\0");
        var m = process.module();
        Target target = opener.openWindows(process.memory(), List.of(new MinidumpModule(m.base(), m.size(), m.path(),
                Integer.toUnsignedLong(m.timeDateStamp()), 0, m.fileVersion().toString())));
        assertThat(target.version()).isEqualTo("10.0.9");
        assertThat(target.versionSource()).isEqualTo("the version resource (VS_FIXEDFILEINFO) of coreclr.dll in the minidump's module list");
        assertThat(target.describe()).isEqualTo(".NET 10.0.9 (10.0.926.27113) on Windows x64, server GC, coreclr.dll");
    }

    @Test
    void aWindowsBuildWithoutAWindowsLayoutIsRefusedNamingTheOnesThereAre() {
        // a Windows 9.0.1 runtime: the 10.0.9 process made to say 9.0.1 in its version resource
        EmulatedRuntime process = windows(RuntimeVersion.NET10);
        patchModule(process, "DotNetRuntimeInfo\0", "XotNetRuntimeInfo\0");
        var m = process.module();
        assertThatThrownBy(() -> opener.openWindows(process.memory(), List.of(new MinidumpModule(m.base(), m.size(), m.path(),
                Integer.toUnsignedLong(m.timeDateStamp()), 0, "9.0.124.61010")))).isInstanceOfSatisfying(TargetException.class,
                        e -> assertThat(e.kind()).isEqualTo(TargetException.Kind.UNSUPPORTED_BUILD))
                .hasMessageContaining("is a Windows x64 runtime").hasMessageContaining("no Windows layouts of net9").hasMessageContaining("8.0.30, 10.0.9");
    }

    @Test
    void dotNet10IsIdentifiedByDotNetRuntimeInfo() throws Exception {
        Target target = open(windows(RuntimeVersion.NET10));
        assertThat(target.version()).isEqualTo("10.0.9");
        assertThat(target.module().dacTableLength()).as("the Windows table (the Linux one has 129)").isEqualTo(138);
    }

    @Test
    void aModuleWithNeitherDotNetRuntimeInfoNorADescriptorIsRefused() {
        EmulatedRuntime process = windows(RuntimeVersion.NET8);
        patchModule(process, "DotNetRuntimeInfo\0", "XotNetRuntimeInfo\0");
        assertThatThrownBy(() -> open(process)).isInstanceOfSatisfying(TargetException.class,
                        e -> assertThat(e.kind()).isEqualTo(TargetException.Kind.UNSUPPORTED_BUILD))
                .hasMessageContaining("cannot identify the build of coreclr.dll").hasMessageContaining("no size");
    }

    @Test
    void contractsThatMatchNoProfileAreRefused() {
        EmulatedRuntime process = windows(RuntimeVersion.NET10);
        patchModule(process, "DotNetRuntimeInfo\0", "XotNetRuntimeInfo\0");
        patchModule(process, "\"Thread\":1", "\"Thread\":7");
        assertThatThrownBy(() -> open(process)).isInstanceOfSatisfying(TargetException.class,
                        e -> assertThat(e.kind()).isEqualTo(TargetException.Kind.UNSUPPORTED_BUILD))
                .hasMessageContaining("contract descriptor declares").hasMessageContaining("Thread=7");
    }

    @Test
    void aDumpWhoseModulesExportNoDacTableIsNotARuntime() {
        EmulatedRuntime process = windows(RuntimeVersion.NET8);
        MemoryRange heap = process.memory().touchedRanges().getFirst();
        List<MinidumpModule> notPe = List.of(new MinidumpModule(heap.start(), 0x1000, "C:\\data.bin", 0, 0));
        assertThatThrownBy(() -> opener.openWindows(process.memory(), notPe)).isInstanceOfSatisfying(TargetException.class,
                        e -> assertThat(e.kind()).isEqualTo(TargetException.Kind.NOT_A_RUNTIME))
                .hasMessageContaining("no module exports g_dacTable").hasMessageContaining("1 not PE32+ images");
        assertThatThrownBy(() -> opener.openWindows(process.memory(), List.of())).isInstanceOf(TargetException.class)
                .hasMessageContaining("0 modules checked");
    }

    @Test
    void aModuleWhoseImageIsNotInTheDumpIsNamed() {
        EmulatedRuntime process = windows(RuntimeVersion.NET8);
        List<MinidumpModule> elsewhere = List.of(new MinidumpModule(0x7ffe_0000_0000L, 0x62000, "C:\\x\\coreclr.dll", 0, 0));
        assertThatThrownBy(() -> opener.openWindows(process.memory(), elsewhere)).isInstanceOfSatisfying(TargetException.class,
                        e -> assertThat(e.kind()).isEqualTo(TargetException.Kind.MODULE_HEADERS_MISSING))
                .hasMessageContaining("coreclr.dll at 0x7ffe00000000");
    }

    @Test
    void aLinuxProcessImageIsNotAWindowsTarget() {
        EmulatedRuntime linux = new RuntimeBuilder().build(Scenario.defaultScenario(RuntimeVersion.NET9, GcFlavor.SERVER));
        assertThatThrownBy(() -> opener.openWindows(linux.memory(), modules(linux))).isInstanceOfSatisfying(TargetException.class,
                e -> assertThat(e.kind()).isEqualTo(TargetException.Kind.NOT_A_RUNTIME)).hasMessageContaining("no DOS header");
    }
}
