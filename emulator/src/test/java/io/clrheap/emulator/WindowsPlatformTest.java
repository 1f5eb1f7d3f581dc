package io.clrheap.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MemoryRange;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.process.ProcessLayout;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.truth.GroundTruth;

/**
 * A Windows build is the scenario as a Windows process of the build runs it: coreclr.dll, a PE32+ image, in place of
 * libcoreclr.so, and the runtime's structures in the Windows layouts (net8.0-windows, net10.0-windows). Every address
 * the answer key holds is the Linux build's, so one answer key serves both. The PE image and the Windows layouts are
 * read here by hand: by the PE specification's offsets and the facts measured on real Windows dumps
 * (docs/reference/windows.md), not through the profiles.
 */
class WindowsPlatformTest {

    static Stream<Arguments> builds() {
        return Stream.of("default", "every-edge", "collected", "user-types", "frozen-segments").flatMap(name -> Stream.of(
                Arguments.of(name, RuntimeVersion.NET8, GcFlavor.SERVER),
                Arguments.of(name, RuntimeVersion.NET10, GcFlavor.WORKSTATION),
                Arguments.of(name, RuntimeVersion.NET10, GcFlavor.SERVER)));
    }

    private static EmulatedRuntime build(String name, RuntimeVersion version, GcFlavor gc, Platform platform) {
        return new RuntimeBuilder().platform(platform).build(Scenarios.named(name).orElseThrow().on(version, gc));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("builds")
    void aWindowsBuildHasTheGroundTruthOfTheLinuxBuild(String name, RuntimeVersion version, GcFlavor gc) {
        EmulatedRuntime linux = build(name, version, gc, Platform.LINUX);
        EmulatedRuntime windows = build(name, version, gc, Platform.WINDOWS);
        assertThat(objects(windows)).isEqualTo(objects(linux));
        assertThat(windows.groundTruth().regions()).isEqualTo(linux.groundTruth().regions());
        assertThat(windows.groundTruth().contexts()).isEqualTo(linux.groundTruth().contexts());
        assertThat(windows.groundTruth().handles()).isEqualTo(linux.groundTruth().handles());
        assertThat(windows.groundTruth().threads()).isEqualTo(linux.groundTruth().threads());
        assertThat(windows.typeNames()).isEqualTo(linux.typeNames());
        assertThat(InvariantChecker.check(windows)).isEmpty();
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("builds")
    void aWindowsBuildHasTheHeapBytesOfTheLinuxBuild(String name, RuntimeVersion version, GcFlavor gc) {
        EmulatedRuntime linux = build(name, version, gc, Platform.LINUX);
        EmulatedRuntime windows = build(name, version, gc, Platform.WINDOWS);
        for (GroundTruth.RegionInfo r : linux.groundTruth().regions()) {
            assertThat(windows.memory().readBytes(r.start(), (int) (r.end() - r.start())))
                    .as("region [0x%x, 0x%x)", r.start(), r.end()).isEqualTo(linux.memory().readBytes(r.start(), (int) (r.end() - r.start())));
        }
    }

    static Stream<Arguments> windowsFacts() {
        // g_dacTable index of ThreadStore::s_pThreadStore and g_pFreeObjectMethodTable, ThreadStore's first link, Thread's
        // m_Link and m_OSThreadId: measured on real Windows 8.0.30 and 10.0.9 dumps (docs/reference/windows.md)
        return Stream.of(Arguments.of(RuntimeVersion.NET8, 169, 16, 55, 0x40, 0xf8, 0x1b8), Arguments.of(RuntimeVersion.NET10, 138, 15, 57, 0x40, 0x78, 0x130));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("windowsFacts")
    void aWindowsBuildLaysOutTheRuntimeAsTheRealWindowsRuntimeDoes(RuntimeVersion version, int tableLength, int threadStoreIndex, int freeMtIndex,
            int firstLink, int link, int osId) {
        EmulatedRuntime windows = new RuntimeBuilder().platform(Platform.WINDOWS).build(Scenario.defaultScenario(version, GcFlavor.WORKSTATION));
        Memory m = windows.memory();
        long table = peExports(m, windows.module().base(), m.readU32(m.readU32(windows.module().base() + 0x3c) + windows.module().base() + 24 + 112))
                .get("g_dacTable");
        assertThat(m.readLong(table + 8L * (tableLength - 1))).as("the last entry").isNotZero();
        long freeMt = m.readLong(m.readLong(table + 8L * freeMtIndex));
        assertThat(m.readInt(freeMt + 4)).as("the free object's BaseSize").isEqualTo(24);
        long store = m.readLong(m.readLong(table + 8L * threadStoreIndex));
        List<Long> osIds = new ArrayList<>();
        for (long l = m.readLong(store + firstLink); l != 0 && osIds.size() < 64; l = m.readLong(l)) {
            osIds.add(m.readLong(l - link + osId));
        }
        assertThat(osIds).isNotEmpty().containsExactlyElementsOf(windows.groundTruth().threads().stream().map(t -> t.osId()).toList());
    }

    @Test
    void aWindowsBuildOfNet9IsRefusedForWantOfARealWindowsLayout() {
        assertThatThrownBy(() -> new RuntimeBuilder().platform(Platform.WINDOWS).build(Scenario.defaultScenario(RuntimeVersion.NET9, GcFlavor.WORKSTATION)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no Windows layouts of net9").hasMessageContaining("8.0.30, 10.0.9");
    }

    @Test
    void theSameWindowsScenarioGivesTheSameBytes() throws Exception {
        EmulatedRuntime a = build("every-edge", RuntimeVersion.NET10, GcFlavor.SERVER, Platform.WINDOWS);
        EmulatedRuntime b = build("every-edge", RuntimeVersion.NET10, GcFlavor.SERVER, Platform.WINDOWS);
        assertThat(digestOutside(a, 0, 0)).isEqualTo(digestOutside(b, 0, 0));
        assertThat(a.module()).isEqualTo(b.module());
    }

    @Test
    void theLinuxBuildIsTheDefaultAndDescribesLibcoreclr() {
        EmulatedRuntime runtime = new RuntimeBuilder().build(Scenario.defaultScenario(RuntimeVersion.NET9, GcFlavor.SERVER));
        assertThat(runtime.platform()).isEqualTo(Platform.LINUX);
        assertThat(runtime.module().fileName()).isEqualTo("libcoreclr.so");
        assertThat(runtime.module().path()).isEqualTo("/usr/share/dotnet/shared/Microsoft.NETCore.App/9.0.1/libcoreclr.so");
        assertThat(runtime.module().base()).isEqualTo(ProcessLayout.MODULE_BASE);
        assertThat(runtime.module().timeDateStamp()).isZero();
        assertThat(runtime.module().fileVersion()).hasToString("9.0.124.61010");
        assertThat(runtime.mappings().get(0).start()).isEqualTo(runtime.module().base());
        assertThat(runtime.mappings().getLast().end()).isLessThanOrEqualTo(runtime.module().base() + runtime.module().size());
    }

    static Stream<Arguments> versions() {
        return Stream.of(RuntimeVersion.NET8, RuntimeVersion.NET10).map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("versions")
    void theWindowsRuntimeModuleIsAPe32PlusImageExportingWhatTheElfModuleExports(RuntimeVersion version) {
        EmulatedRuntime linux = new RuntimeBuilder().build(Scenario.defaultScenario(version, GcFlavor.WORKSTATION));
        EmulatedRuntime windows = new RuntimeBuilder().platform(Platform.WINDOWS).build(Scenario.defaultScenario(version, GcFlavor.WORKSTATION));
        Memory m = windows.memory();
        long base = windows.module().base();
        assertThat(windows.platform()).isEqualTo(Platform.WINDOWS);
        assertThat(windows.module().fileName()).isEqualTo("coreclr.dll");
        assertThat(windows.module().path()).startsWith("C:\\Program Files\\dotnet\\shared\\Microsoft.NETCore.App\\")
                .endsWith("\\" + windows.layout().primaryBuild().version() + "\\coreclr.dll");

        assertThat(m.readU16(base)).as("MZ").isEqualTo(0x5a4d);
        long nt = base + m.readU32(base + 0x3c);
        assertThat(m.readInt(nt)).as("PE\\0\\0").isEqualTo(0x4550);
        assertThat(m.readU16(nt + 4)).as("Machine").isEqualTo(0x8664);
        int sections = m.readU16(nt + 6);
        assertThat(m.readU32(nt + 8)).as("TimeDateStamp").isEqualTo(Integer.toUnsignedLong(windows.module().timeDateStamp())).isNotZero();
        int optionalSize = m.readU16(nt + 20);
        long optional = nt + 24;
        assertThat(m.readU16(optional)).as("PE32+ magic").isEqualTo(0x20b);
        assertThat(m.readLong(optional + 24)).as("ImageBase").isEqualTo(base);
        assertThat(m.readU32(optional + 56)).as("SizeOfImage").isEqualTo(windows.module().size());
        assertThat(windows.module().size()).isEqualTo(linux.module().size());
        assertThat(m.readU32(optional + 108)).as("NumberOfRvaAndSizes").isGreaterThanOrEqualTo(1);
        long exportRva = m.readU32(optional + 112);

        // sections tile the image from the headers' page, in RVA order, file offset = RVA
        long sectionTable = optional + optionalSize;
        List<String> names = new ArrayList<>();
        long next = m.readU32(optional + 60); // SizeOfHeaders
        for (int i = 0; i < sections; i++) {
            long s = sectionTable + 40L * i;
            names.add(new String(m.readBytes(s, 8), StandardCharsets.US_ASCII).replace("\0", ""));
            assertThat(m.readU32(s + 12)).as("VirtualAddress of section %d", i).isEqualTo(next);
            assertThat(m.readU32(s + 20)).as("PointerToRawData of section %d", i).isEqualTo(next);
            next += m.readU32(s + 8);
        }
        assertThat(names).containsExactly(".rdata", ".rsrc", ".text", ".data");
        assertThat(next).isEqualTo(windows.module().size());

        Map<String, Long> exports = peExports(m, base, exportRva);
        Map<String, Long> symbols = elfSymbols(linux.memory(), base);
        // what the ELF module exports, and besides the real coreclr.dll's exports (mscorwks_ntdef.src; docs/reference/dump-formats.md section 3.9)
        List<String> real = new ArrayList<>(List.of("CLRJitAttachState", "GetCLRRuntimeHost", "MetaDataGetDispenser", "coreclr_create_delegate",
                "coreclr_execute_assembly", "coreclr_initialize", "coreclr_set_error_writer", "coreclr_shutdown", "coreclr_shutdown_2", "g_CLREngineMetrics"));
        if (version != RuntimeVersion.NET8) {
            real.add("DotNetRuntimeContractDescriptor");
        }
        // the ELF module's DotNetRuntimeInfo is a single-file host's (8, 10); coreclr.dll exports it in no version
        List<String> linuxOnly = List.of("DotNetRuntimeInfo");
        List<String> expected = java.util.stream.Stream.concat(symbols.keySet().stream().filter(n -> !linuxOnly.contains(n)), real.stream())
                .distinct().toList();
        assertThat(exports.keySet()).containsExactlyInAnyOrderElementsOf(expected).contains("g_dacTable");
        for (var e : exports.entrySet()) {
            long rva = e.getValue() - base;
            boolean function = e.getKey().startsWith("coreclr_") || List.of("GetCLRRuntimeHost", "MetaDataGetDispenser").contains(e.getKey());
            assertThat(sectionOf(m, sectionTable, sections, rva)).as("the section of %s", e.getKey()).isEqualTo(function ? ".text" : ".data");
        }
        // the ordinals the module definition file fixes (dbgshim finds g_CLREngineMetrics by ordinal 2), the base the lowest
        long directory = base + exportRva;
        assertThat(m.readU32(directory + 16)).as("ordinal base").isEqualTo(2);
        assertThat(ordinalOf(m, base, directory, "g_CLREngineMetrics")).isEqualTo(2);
        assertThat(ordinalOf(m, base, directory, "CLRJitAttachState")).isEqualTo(3);
        assertThat(m.readInt(exports.get("g_CLREngineMetrics"))).as("cbSize").isEqualTo(16);
        assertThat(m.readLong(m.readLong(exports.get("g_CLREngineMetrics") + 8))).as("*phContinueStartupEvent").isEqualTo(-1L);

        // the debug directory (data directory 6): one CodeView entry, RSDS, coreclr.pdb, age 1
        long debug = base + m.readU32(optional + 112 + 6 * 8);
        assertThat(m.readU32(optional + 112 + 6 * 8 + 4)).as("debug directory size").isEqualTo(28);
        assertThat(m.readU32(debug + 12)).as("IMAGE_DEBUG_TYPE_CODEVIEW").isEqualTo(2);
        long cv = base + m.readU32(debug + 20);
        assertThat(m.readU32(cv)).as("RSDS").isEqualTo(0x53445352L);
        assertThat(m.readU32(cv + 20)).as("age").isEqualTo(1);
        assertThat(m.readBytes(cv + 24, 12)).isEqualTo("coreclr.pdb\0".getBytes(StandardCharsets.US_ASCII));
        assertThat(m.readU32(debug + 16)).as("SizeOfData").isEqualTo(24 + 12);
        assertThat(exports.containsKey("DotNetRuntimeContractDescriptor")).isEqualTo(version != RuntimeVersion.NET8);
        assertThat(exports).doesNotContainKey("DotNetRuntimeInfo");

        // the resource directory (data directory 2) in .rsrc: RT_VERSION 16 → name 1 → language 0x409 → a data entry
        // whose VS_VERSIONINFO holds the build's VS_FIXEDFILEINFO, what the minidump's module list also says
        long rsrcRva = m.readU32(optional + 112 + 2 * 8);
        assertThat(sectionOf(m, sectionTable, sections, rsrcRva)).isEqualTo(".rsrc");
        long root = base + rsrcRva;
        long nameLevel = root + (m.readU32(root + 16 + 4) & 0x7fff_ffffL);
        assertThat(m.readU32(root + 16)).as("RT_VERSION").isEqualTo(16);
        long languages = root + (m.readU32(nameLevel + 16 + 4) & 0x7fff_ffffL);
        assertThat(m.readU32(nameLevel + 16)).as("VS_VERSION_INFO").isEqualTo(1);
        assertThat(m.readU32(languages + 16)).as("language").isEqualTo(0x409);
        long dataEntry = root + m.readU32(languages + 16 + 4);
        long info = base + m.readU32(dataEntry);
        assertThat(m.readBytes(info + 6, 32)).isEqualTo("VS_VERSION_INFO\0".getBytes(StandardCharsets.UTF_16LE));
        long fixed = info + 40;
        assertThat(m.readU32(fixed)).as("VS_FFI_SIGNATURE").isEqualTo(0xfeef04bdL);
        assertThat(m.readInt(fixed + 8)).isEqualTo(windows.module().fileVersion().mostSignificant());
        assertThat(m.readInt(fixed + 12)).isEqualTo(windows.module().fileVersion().leastSignificant());
    }

    /** The ordinal of an export: the ordinal base plus its ordinal table entry. */
    private static long ordinalOf(Memory m, long base, long directory, String name) {
        long namePointers = base + m.readU32(directory + 32);
        for (int i = 0; i < m.readU32(directory + 24); i++) {
            if (cString(m, base + m.readU32(namePointers + 4L * i)).equals(name)) {
                return m.readU32(directory + 16) + m.readU16(base + m.readU32(directory + 36) + 2L * i);
            }
        }
        throw new AssertionError(name + " is not exported");
    }

    private static String sectionOf(Memory m, long sectionTable, int sections, long rva) {
        for (int i = 0; i < sections; i++) {
            long s = sectionTable + 40L * i;
            if (rva >= m.readU32(s + 12) && rva < m.readU32(s + 12) + m.readU32(s + 8)) {
                return new String(m.readBytes(s, 8), StandardCharsets.US_ASCII).replace("\0", "");
            }
        }
        return "none";
    }

    /** Name → address, through the export name pointer, ordinal and address tables. */
    private static Map<String, Long> peExports(Memory m, long base, long exportRva) {
        long directory = base + exportRva;
        assertThat(m.readBytes(base + m.readU32(directory + 12), 12)).as("DLL name").isEqualTo("coreclr.dll\0".getBytes(StandardCharsets.US_ASCII));
        long names = m.readU32(directory + 24);
        long functions = base + m.readU32(directory + 28);
        long namePointers = base + m.readU32(directory + 32);
        long ordinals = base + m.readU32(directory + 36);
        Map<String, Long> result = new TreeMap<>();
        String previous = "";
        for (int i = 0; i < names; i++) {
            String name = cString(m, base + m.readU32(namePointers + 4L * i));
            assertThat(name).as("names sorted").isGreaterThan(previous);
            previous = name;
            int ordinal = m.readU16(ordinals + 2L * i);
            result.put(name, base + m.readU32(functions + 4L * ordinal));
        }
        return result;
    }

    /** Name → address of the defined dynamic symbols: PT_DYNAMIC → DT_SYMTAB, DT_STRTAB (rebased), symbols up to the strings. */
    static Map<String, Long> elfSymbols(Memory m, long base) {
        long phoff = m.readLong(base + 32);
        int phnum = m.readU16(base + 56);
        long symtab = 0;
        long strtab = 0;
        for (int i = 0; i < phnum; i++) {
            long ph = base + phoff + 56L * i;
            if (m.readInt(ph) == 2) { // PT_DYNAMIC
                for (long d = base + m.readLong(ph + 16); m.readLong(d) != 0; d += 16) {
                    long tag = m.readLong(d);
                    if (tag == 6) {
                        symtab = m.readLong(d + 8);
                    } else if (tag == 5) {
                        strtab = m.readLong(d + 8);
                    }
                }
            }
        }
        Map<String, Long> result = new TreeMap<>();
        for (long s = symtab + 24; s < strtab; s += 24) {
            result.put(cString(m, strtab + m.readU32(s)), base + m.readLong(s + 8));
        }
        return result;
    }

    private static String cString(Memory m, long address) {
        StringBuilder s = new StringBuilder();
        for (int b; (b = m.readU8(address)) != 0 && s.length() < 256; address++) {
            s.append((char) b);
        }
        return s.toString();
    }

    private static List<String> objects(EmulatedRuntime runtime) {
        List<String> objects = new ArrayList<>();
        runtime.groundTruth().forEachObject((address, mt, size, generation, heap, kind) ->
                objects.add(String.format("0x%x 0x%x %d %d %d %s", address, mt, size, generation, heap, kind)));
        return objects;
    }

    /** SHA-256 over every touched range and its bytes, the bytes of [skipFrom, skipTo) left out. */
    static String digestOutside(EmulatedRuntime runtime, long skipFrom, long skipTo) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        byte[] buffer = new byte[1 << 16];
        for (MemoryRange r : runtime.memory().touchedRanges()) {
            sha.update(HexFormat.of().parseHex(String.format("%016x%016x", r.start(), r.length())));
            for (long a = r.start(); a < r.end(); a += buffer.length) {
                int n = (int) Math.min(buffer.length, r.end() - a);
                runtime.memory().read(a, buffer, 0, n);
                long from = Math.max(a, skipFrom);
                long to = Math.min(a + n, skipTo);
                if (from < to) {
                    java.util.Arrays.fill(buffer, (int) (from - a), (int) (to - a), (byte) 0);
                }
                sha.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }
}
