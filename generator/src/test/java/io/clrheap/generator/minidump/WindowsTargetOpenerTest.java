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
 * How a Windows target's build is identified when g_dacTable, a PE export, has no size: a coreclr.dll exports no
 * DotNetRuntimeInfo, so by the version resource the module list gives, else the image's own, else the contracts of the
 * contract descriptor; the table's length is then the build's. And how a coreclr.dll without the export is refused.
 * Opened from the process memory and a module list, as a minidump gives them.
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

    /** The image's version resource made unreadable as one: its type id 16 (RT_VERSION) turned into 17. */
    private static void dropVersionResource(EmulatedRuntime process) {
        long base = process.module().base();
        long optional = base + process.memory().readU32(base + 0x3c) + 24;
        long root = base + process.memory().readU32(optional + 112 + 2 * 8);
        assertThat(process.memory().readU32(root + 16)).isEqualTo(16);
        process.memory().writeInt(root + 16, 17);
    }

    @Test
    void coreclrDllIsIdentifiedByTheVersionResourceTheModuleListGives() throws Exception {
        EmulatedRuntime process = windows(RuntimeVersion.NET8);
        Target target = opener.openWindows(process.memory(), modulesWithVersion(process, process.module().fileVersion().toString()));
        assertThat(target.version()).isEqualTo("8.0.30");
        assertThat(target.versionSource()).isEqualTo("the version resource (VS_FIXEDFILEINFO) of coreclr.dll in the minidump's module list");
        assertThat(target.module().dacTableLength()).as("the Windows table (the Linux one has 157)").isEqualTo(169);
        assertThat(target.module().symbolsFrom()).contains("PE exports");
        assertThat(target.layoutSource()).contains("builds/windows-x64-8.0.30.json");
        assertThat(target.describe()).isEqualTo(".NET 8.0.30 (8.0.3026.36720) on Windows x64, server GC, coreclr.dll");
    }

    @Test
    void withoutOneInTheModuleListTheImagesOwnVersionResourceNamesTheBuild() throws Exception {
        for (RuntimeVersion v : List.of(RuntimeVersion.NET8, RuntimeVersion.NET10)) {
            EmulatedRuntime process = windows(v);
            Target target = open(process);
            assertThat(target.version()).isEqualTo(v == RuntimeVersion.NET8 ? "8.0.30" : "10.0.9");
            assertThat(target.versionSource()).startsWith("the version resource (RT_VERSION, VS_FIXEDFILEINFO at 0x").endsWith("of coreclr.dll's image");
            assertThat(target.module().dacTableLength()).isEqualTo(v == RuntimeVersion.NET8 ? 169 : 138);
        }
    }

    private static List<MinidumpModule> modulesWithVersion(EmulatedRuntime process, String fileVersion) {
        var m = process.module();
        return List.of(new MinidumpModule(m.base(), m.size(), m.path(), Integer.toUnsignedLong(m.timeDateStamp()), 0, fileVersion));
    }

    @Test
    void withoutAnyVersionResourceDotNet10IsIdentifiedByItsContracts() throws Exception {
        // on Windows only 10.0.9 has a layout, so the contracts every 10.0.x declares name one build
        EmulatedRuntime process = windows(RuntimeVersion.NET10);
        dropVersionResource(process);
        Target target = open(process);
        assertThat(target.build().version()).isEqualTo("10.0.9");
        assertThat(target.versionSource()).startsWith("contract descriptor's contracts");
        assertThat(target.module().dacTableLength()).isEqualTo(138);
    }

    @Test
    void aWindowsBuildWithoutAWindowsLayoutIsRefusedNamingTheOnesThereAre() {
        // a Windows 9.0.1 runtime: the 10.0.9 process made to say 9.0.1 in the module list's version resource
        EmulatedRuntime process = windows(RuntimeVersion.NET10);
        assertThatThrownBy(() -> opener.openWindows(process.memory(), modulesWithVersion(process, "9.0.124.61010")))
                .isInstanceOfSatisfying(TargetException.class, e -> assertThat(e.kind()).isEqualTo(TargetException.Kind.UNSUPPORTED_BUILD))
                .hasMessageContaining("is a Windows x64 runtime").hasMessageContaining("no Windows layouts of net9").hasMessageContaining("8.0.30, 10.0.9");
    }

    @Test
    void aModuleWithNoVersionResourceNorADescriptorIsRefused() {
        EmulatedRuntime process = windows(RuntimeVersion.NET8);
        dropVersionResource(process);
        assertThatThrownBy(() -> open(process)).isInstanceOfSatisfying(TargetException.class,
                        e -> assertThat(e.kind()).isEqualTo(TargetException.Kind.UNSUPPORTED_BUILD))
                .hasMessageContaining("cannot identify the build of coreclr.dll").hasMessageContaining("no size");
    }

    @Test
    void aCoreclrDllWithNeitherTheExportNorTheResourceIsRefusedNamingBoth() {
        EmulatedRuntime process = windows(RuntimeVersion.NET8);
        patchModule(process, "g_dacTable\0", "g_dacTablX\0");
        var m = process.module();
        List<MinidumpModule> modules = List.of(new MinidumpModule(m.base(), m.size(), "C:\\Program Files\\dotnet\\shared\\x\\CoreCLR.DLL",
                0, 0, "6.0.3624.51421"));
        assertThatThrownBy(() -> opener.openWindows(process.memory(), modules)).isInstanceOfSatisfying(TargetException.class,
                        e -> assertThat(e.kind()).isEqualTo(TargetException.Kind.NOT_A_RUNTIME))
                .hasMessageContaining(String.format("CoreCLR.DLL at 0x%x (file version 6.0.3624.51421)", m.base()))
                .hasMessageContaining("neither the export g_dacTable").hasMessageContaining("nor the resource COREXTERNALDATAACCESSRESOURCE");
    }

    @Test
    void aCoreclrDllWithTheDacTableResourceIsNamedARuntimeBefore7() {
        // the image made to look like a .NET 6 coreclr.dll: no g_dacTable export, and its one resource turned into the
        // RT_RCDATA resource COREXTERNALDATAACCESSRESOURCE holding a DacTableHeader of 10 globals and 2 vtables
        EmulatedRuntime process = windows(RuntimeVersion.NET8);
        patchModule(process, "g_dacTable\0", "g_dacTablX\0");
        var memory = process.memory();
        long base = process.module().base();
        long optional = base + memory.readU32(base + 0x3c) + 24;
        long root = base + memory.readU32(optional + 112 + 2 * 8);
        memory.writeInt(optional + 112 + 2 * 8 + 4, 0x200);           // the directory's size, room for the name
        memory.writeInt(root + 16, 10);                                // type RT_RCDATA
        long names = root + (memory.readU32(root + 20) & 0x7fff_ffffL);
        memory.writeShort(names + 12, (short) 1);
        memory.writeShort(names + 14, (short) 0);
        memory.writeInt(names + 16, 0x8000_0100);                      // a named entry, its name at offset 0x100
        String name = "COREXTERNALDATAACCESSRESOURCE";
        memory.writeShort(root + 0x100, (short) name.length());
        byte[] units = name.getBytes(StandardCharsets.UTF_16LE);
        memory.write(root + 0x102, units, 0, units.length);
        long languages = root + (memory.readU32(names + 20) & 0x7fff_ffffL);
        long data = base + memory.readU32(root + memory.readU32(languages + 20));
        memory.writeInt(data, 10);
        memory.writeInt(data + 4, 2);
        memory.writeInt(data + 8, process.module().timeDateStamp());
        assertThatThrownBy(() -> open(process)).isInstanceOfSatisfying(TargetException.class,
                        e -> assertThat(e.kind()).isEqualTo(TargetException.Kind.UNSUPPORTED_BUILD))
                .hasMessageContaining("coreclr.dll at 0x").hasMessageContaining("is a runtime before .NET 7")
                .hasMessageContaining(String.format("the resource COREXTERNALDATAACCESSRESOURCE at 0x%x (10 globals and 2 vtables", data))
                .hasMessageContaining("dotnet/runtime#68065");
    }

    @Test
    void contractsThatMatchNoProfileAreRefused() {
        EmulatedRuntime process = windows(RuntimeVersion.NET10);
        dropVersionResource(process);
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
