package io.clrheap.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.emulator.globals.RuntimeGlobals;
import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.layout.BuildIdentity;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeBuild;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.layout.profile.RuntimeChoice;
import io.clrheap.layout.view.DotNetRuntimeInfo;
import io.clrheap.layout.view.ViewFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The emulated process is the build it is asked to be ({@code --runtime 9.0.7}; a version, {@code net9}, is its reference
 * build): that build's layout and g_dacTable, its sccsid string {@code @(#)Version <file version> @Commit: <commit>} in the
 * runtime module's writable data (in memory and in the module's file), DotNetRuntimeInfo with its file version where the
 * version exports it, and the file version a minidump's module list gives.
 */
class EmulatedBuildTest {

    private static final ProfileLoader PROFILES = ProfileLoader.builtIn();

    /** Every build the built-in profiles know, under both GC flavours. */
    static Stream<Arguments> knownBuilds() {
        return Stream.of(RuntimeVersion.values()).flatMap(v -> RuntimeChoice.knownBuilds(v, PROFILES).stream()
                .flatMap(b -> Stream.of(GcFlavor.values()).map(gc -> Arguments.of(v, b, gc))));
    }

    private static EmulatedRuntime build(RuntimeVersion v, String build, GcFlavor gc) {
        return new RuntimeBuilder().build(Scenario.defaultScenario(new RuntimeChoice(v, build), gc));
    }

    @ParameterizedTest(name = "{1} {2}")
    @MethodSource("knownBuilds")
    void everyKnownBuildIsEmulatedAsItselfWithItsVersionStringInTheModulesWritableData(RuntimeVersion v, String version, GcFlavor gc) {
        EmulatedRuntime runtime = build(v, version, gc);
        RuntimeBuild build = runtime.layout().primaryBuild();
        assertThat(build.version()).isEqualTo(version);
        assertThat(build.fileVersion()).as("the profile records the file version of %s", version).isNotEmpty();
        assertThat(build.commit()).hasSize(40);
        assertThat(InvariantChecker.check(runtime)).isEmpty();
        assertThat(runtime.module().path()).endsWith("/Microsoft.NETCore.App/" + version + "/libcoreclr.so");
        assertThat(runtime.module().fileVersion()).hasToString(build.fileVersion());
        // the sccsid string, in a PT_LOAD with PF_W and file bytes, as a reader of the dump finds it
        BuildIdentity found = sccsidInWritableSegments(runtime).orElseThrow();
        assertThat(found).isEqualTo(new BuildIdentity(version, build.fileVersion(), build.commit()));
        // DotNetRuntimeInfo where the version exports it (8 and 10), with the four-part file version
        Optional<long[]> info = runtimeInfo(runtime);
        assertThat(info.isPresent()).isEqualTo(v != RuntimeVersion.NET9);
        info.ifPresent(parts -> assertThat(parts[0] + "." + parts[1] + "." + parts[2] + "." + parts[3]).isEqualTo(build.fileVersion()));
    }

    @Test
    void theVersionStringIsInitializedDataOfTheModulesFileAsOfItsMapping() {
        EmulatedRuntime runtime = build(RuntimeVersion.NET10, "10.0.11", GcFlavor.SERVER);
        byte[] sccsid = RuntimeGlobals.sccsid(runtime.layout().primaryBuild());
        assertThat(new String(sccsid, StandardCharsets.US_ASCII))
                .isEqualTo("@(#)Version 10.0.1126.37416 @Commit: e2f47b0110ed922f21a1522da67279133ce28f32\0");
        for (Platform platform : Platform.values()) {
            var builder = new io.clrheap.emulator.module.ModuleImageBuilder(platform == Platform.LINUX ? "/x/libcoreclr.so" : "C:\\x\\coreclr.dll",
                    0x7f0000000000L, platform);
            long at = builder.initializedData(sccsid, 8);
            builder.export("g_dacTable", builder.reserveBss(8, 8), 8);
            var image = builder.build();
            int offset = (int) (at - image.base());
            assertThat(java.util.Arrays.copyOfRange(image.fileBytes(), offset, offset + sccsid.length)).as("%s file", platform).isEqualTo(sccsid);
            assertThat(java.util.Arrays.copyOfRange(image.mappedBytes(), offset, offset + sccsid.length)).as("%s mapping", platform).isEqualTo(sccsid);
        }
    }

    @Test
    void aVersionIsItsReferenceBuildByteForByte() throws Exception {
        for (RuntimeVersion v : RuntimeVersion.values()) {
            String reference = RuntimeChoice.of(v).buildVersion(PROFILES);
            assertThat(reference).isEqualTo(RuntimeChoice.knownBuilds(v, PROFILES).getFirst());
            EmulatedRuntime major = new RuntimeBuilder().build(Scenario.defaultScenario(v, GcFlavor.SERVER));
            EmulatedRuntime exact = build(v, reference, GcFlavor.SERVER);
            assertThat(WindowsPlatformTest.digestOutside(exact, 0, 0)).as(reference).isEqualTo(WindowsPlatformTest.digestOutside(major, 0, 0));
        }
        assertThat(RuntimeChoice.of(RuntimeVersion.NET9).buildVersion(PROFILES)).isEqualTo("9.0.1");
    }

    @Test
    void theSameScenarioSeedAndBuildGiveTheSameBytesAndAnotherBuildOthers() throws Exception {
        String a = WindowsPlatformTest.digestOutside(build(RuntimeVersion.NET8, "8.0.27", GcFlavor.SERVER), 0, 0);
        assertThat(WindowsPlatformTest.digestOutside(build(RuntimeVersion.NET8, "8.0.27", GcFlavor.SERVER), 0, 0)).isEqualTo(a);
        assertThat(WindowsPlatformTest.digestOutside(build(RuntimeVersion.NET8, "8.0.30", GcFlavor.SERVER), 0, 0)).isNotEqualTo(a);
    }

    @Test
    void eachBuildHasItsOwnDacTable() {
        // 8.0.27 lacks the DACVAR 8.0.30 inserts at index 68: 156 entries, and the named ones after it one lower
        EmulatedRuntime older = build(RuntimeVersion.NET8, "8.0.27", GcFlavor.WORKSTATION);
        EmulatedRuntime newer = build(RuntimeVersion.NET8, "8.0.30", GcFlavor.WORKSTATION);
        assertThat(exportSize(older, "g_dacTable")).isEqualTo(8L * 156);
        assertThat(exportSize(newer, "g_dacTable")).isEqualTo(8L * 157);
    }

    @Test
    void aWindowsBuildOfABuildIsThatBuild() {
        EmulatedRuntime windows = new RuntimeBuilder().platform(Platform.WINDOWS)
                .build(Scenario.defaultScenario(new RuntimeChoice(RuntimeVersion.NET10, "10.0.9"), GcFlavor.WORKSTATION));
        assertThat(windows.module().path()).endsWith("\\10.0.9\\coreclr.dll");
        assertThat(windows.module().fileVersion()).hasToString("10.0.926.27113");
        assertThat(windows.layout().os()).isEqualTo("windows");
        assertThat(windows.layout().primaryBuild().buildFile()).isEqualTo("builds/windows-x64-10.0.9.json");
        assertThat(runtimeInfo(windows)).isEmpty(); // read here through the ELF exports only
    }

    @Test
    void aWindowsBuildOfABuildWithoutAWindowsLayoutIsRefused() {
        assertThatThrownBy(() -> new RuntimeBuilder().platform(Platform.WINDOWS)
                .build(Scenario.defaultScenario(new RuntimeChoice(RuntimeVersion.NET10, "10.0.11"), GcFlavor.WORKSTATION)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no Windows layout of 10.0.11").hasMessageContaining("10.0.9");
    }

    @Test
    void anUnknownBuildIsRefusedNamingTheKnownOnes() {
        assertThatThrownBy(() -> RuntimeChoice.parse("9.0.99", PROFILES)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown runtime build '9.0.99'").hasMessageContaining("net9").hasMessageContaining("9.0.1")
                .hasMessageContaining("10.0.11");
        assertThatThrownBy(() -> RuntimeChoice.parse("net7", PROFILES)).hasMessageContaining("unknown runtime 'net7'");
        assertThat(RuntimeChoice.parse("net9", PROFILES)).isEqualTo(RuntimeChoice.of(RuntimeVersion.NET9));
        assertThat(RuntimeChoice.parse("8.0.27", PROFILES)).isEqualTo(new RuntimeChoice(RuntimeVersion.NET8, "8.0.27"));
        assertThat(RuntimeChoice.parse("8.0.27", PROFILES).name()).isEqualTo("8.0.27");
        assertThat(RuntimeChoice.parse("NET10", PROFILES).name()).isEqualTo("net10");
        assertThatThrownBy(() -> Scenario.defaultScenario(RuntimeVersion.NET9, GcFlavor.SERVER).toBuilder().runtimeBuild("8.0.27").build())
                .hasMessageContaining("not a build of net9");
    }

    @Test
    void aBuildWhoseProfileRecordsNoFileVersionIsNotEmulated() {
        ProfileLoader withoutIdentity = new ProfileLoader(name -> {
            Optional<String> text = readResource(name);
            // the version's profile without 9.0.1's file version, and no build file (9.0.1's would give it)
            return name.startsWith("builds/") ? Optional.empty()
                    : name.equals("net9.0") ? text.map(t -> t.replace("\"fileVersion\": \"9.0.124.61010\",", "")) : text;
        });
        assertThatThrownBy(() -> new RuntimeBuilder(withoutIdentity).build(Scenario.defaultScenario(RuntimeVersion.NET9, GcFlavor.SERVER)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("9.0.1 records no file version");
    }

    @Test
    void aScenarioFileNamesItsBuild() {
        Scenario s = Scenario.defaultScenario(new RuntimeChoice(RuntimeVersion.NET10, "10.0.11"), GcFlavor.SERVER);
        String json = ScenarioJson.write(s);
        assertThat(json).contains("\"runtime\" : \"10.0.11\"");
        assertThat(ScenarioJson.read(json, "s.json")).isEqualTo(s);
        assertThatThrownBy(() -> ScenarioJson.read(json.replace("10.0.11", "10.0.99"), "s.json"))
                .hasMessageContaining("s.json").hasMessageContaining("unknown runtime build '10.0.99'");
    }

    static Optional<String> readResource(String name) {
        try (var in = ProfileLoader.class.getResourceAsStream("/io/clrheap/layout/profiles/" + name + ".json")) {
            return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    // ---- the module read back as a reader of the dump reads it: ELF program headers and dynamic symbols in memory

    private static ByteBuffer mapped(EmulatedRuntime runtime) {
        long base = runtime.module().base();
        return ByteBuffer.wrap(runtime.memory().readBytes(base, (int) Math.min(runtime.module().size(), 0x60000))).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The sccsid string in the module's PT_LOAD segments with PF_W, their file part. */
    private static Optional<BuildIdentity> sccsidInWritableSegments(EmulatedRuntime runtime) {
        ByteBuffer b = mapped(runtime);
        long phoff = b.getLong(32);
        int phnum = b.getShort(56) & 0xffff;
        List<String> writable = new ArrayList<>();
        for (int i = 0; i < phnum; i++) {
            int at = (int) phoff + 56 * i;
            if (b.getInt(at) == 1 && (b.getInt(at + 4) & 2) != 0) {
                long vaddr = b.getLong(at + 16);
                long filesz = b.getLong(at + 32);
                writable.add(new String(runtime.memory().readBytes(runtime.module().base() + vaddr, (int) filesz), StandardCharsets.ISO_8859_1));
            }
        }
        assertThat(writable).as("PT_LOAD segments with PF_W").isNotEmpty();
        return writable.stream().map(BuildIdentity::findSccsid).flatMap(Optional::stream).map(BuildIdentity.Found::identity).findFirst();
    }

    /** The address of an exported dynamic symbol and its size, from .dynamic/.dynsym/.dynstr in memory. */
    private static long[] export(EmulatedRuntime runtime, String name) {
        ByteBuffer b = mapped(runtime);
        long base = runtime.module().base();
        long phoff = b.getLong(32);
        int phnum = b.getShort(56) & 0xffff;
        long symtab = 0;
        long strtab = 0;
        long strsz = 0;
        for (int i = 0; i < phnum; i++) {
            int at = (int) phoff + 56 * i;
            if (b.getInt(at) == 2) { // PT_DYNAMIC
                for (int d = (int) b.getLong(at + 16); b.getLong(d) != 0; d += 16) {
                    long tag = b.getLong(d);
                    long value = b.getLong(d + 8) - base; // rebased d_ptr values, as the dynamic loader leaves them
                    if (tag == 6) {
                        symtab = value;
                    } else if (tag == 5) {
                        strtab = value;
                    } else if (tag == 10) {
                        strsz = value + base;
                    }
                }
            }
        }
        for (long sym = symtab + 24; sym < strtab; sym += 24) {
            int nameAt = (int) (strtab + b.getInt((int) sym));
            int end = nameAt;
            while (b.get(end) != 0 && end < strtab + strsz) {
                end++;
            }
            if (new String(b.array(), nameAt, end - nameAt, StandardCharsets.US_ASCII).equals(name)) {
                return new long[] {base + b.getLong((int) sym + 8), b.getLong((int) sym + 16)};
            }
        }
        return null;
    }

    private static long exportSize(EmulatedRuntime runtime, String name) {
        return export(runtime, name)[1];
    }

    /** DotNetRuntimeInfo.RuntimeVersion, where the module exports it with its signature. */
    private static Optional<long[]> runtimeInfo(EmulatedRuntime runtime) {
        if (runtime.platform() != Platform.LINUX) {
            return Optional.empty();
        }
        long[] sym = export(runtime, "DotNetRuntimeInfo");
        if (sym == null) {
            return Optional.empty();
        }
        DotNetRuntimeInfo info = new ViewFactory(runtime.layout()).view(DotNetRuntimeInfo.class, runtime.memory(), sym[0]);
        assertThat(new String(runtime.memory().readBytes(sym[0], 18), StandardCharsets.US_ASCII)).isEqualTo("DotNetRuntimeInfo\0");
        return Optional.of(new long[] {info.runtimeVersion(0), info.runtimeVersion(1), info.runtimeVersion(2), info.runtimeVersion(3)});
    }
}
