package io.clrheap.generator.minidump;

import io.clrheap.generator.ExternalTool;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.Scenarios;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tools that are not clrheap open its minidumps: lldb reads the MethodTable word of objects where the ground truth
 * says they are, the threads' registers and the regions' permissions; obj2yaml (LLVM's minidump parser) accepts the
 * file, lists its streams, and its MemoryInfoList covers every Memory64List range with committed memory of the mapped
 * protection; llvm-readobj reads coreclr.dll's export table and debug directory from the image in the dump. Each runs
 * when the tool is on PATH, and is skipped with a message naming the Debian package otherwise.
 */
class MinidumpExternalToolsTest {

    @TempDir
    Path dir;

    static Stream<Arguments> runtimes() {
        // the Windows layouts exist for 8.0.30 and 10.0.9 (no real Windows .NET 9 to take them from)
        return Stream.of(Arguments.of(RuntimeVersion.NET8, GcFlavor.SERVER), Arguments.of(RuntimeVersion.NET10, GcFlavor.WORKSTATION),
                Arguments.of(RuntimeVersion.NET10, GcFlavor.SERVER));
    }

    private Path dump(EmulatedRuntime process) throws Exception {
        Path file = dir.resolve("every-edge.dmp");
        MinidumpWriter.write(process, file);
        return file;
    }

    private static EmulatedRuntime process(RuntimeVersion version, GcFlavor gc) {
        return new RuntimeBuilder().platform(Platform.WINDOWS).build(Scenarios.named("every-edge").orElseThrow().on(version, gc));
    }

    /** Some objects of every kind and place: the first and last, the first of each generation and of each heap. */
    private static Map<Long, Long> sample(GroundTruth truth) {
        Map<String, long[]> firsts = new LinkedHashMap<>();
        long[] last = new long[2];
        truth.forEachObject((address, mt, size, generation, heap, kind) -> {
            firsts.putIfAbsent(generation + "/" + heap + "/" + kind, new long[] {address, mt});
            last[0] = address;
            last[1] = mt;
        });
        Map<Long, Long> sample = new LinkedHashMap<>();
        firsts.values().stream().limit(24).forEach(o -> sample.put(o[0], o[1]));
        sample.put(last[0], last[1]);
        return sample;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runtimes")
    void lldbReadsTheMethodTablesOfObjectsWhereTheGroundTruthPutsThem(RuntimeVersion version, GcFlavor gc) throws Exception {
        Path lldb = ExternalTool.LLDB.require();
        EmulatedRuntime process = process(version, gc);
        Path file = dump(process);
        Map<Long, Long> objects = sample(process.groundTruth());
        List<String> arguments = new ArrayList<>(List.of("--no-lldbinit", "--core", file.toString(), "-b"));
        for (long address : objects.keySet()) {
            arguments.addAll(List.of("-o", String.format("memory read -s8 -fx -c1 0x%x", address)));
        }
        arguments.addAll(List.of("-o", "register read rip rsp", "-o", "process status"));
        ExternalTool.Result result = ExternalTool.run(lldb, arguments, dir, 120);
        assertThat(result.output()).as(result.output()).contains("(x86_64) was loaded");
        Map<Long, Long> read = new LinkedHashMap<>();
        Matcher words = Pattern.compile("(?m)^0x([0-9a-f]+): 0x([0-9a-f]{16})\\s*$").matcher(result.output());
        while (words.find()) {
            // the MethodTable is the word with its low bits cleared: the GC keeps the mark and pinned bits there (ObjectToMethodTableUnmask)
            read.put(Long.parseUnsignedLong(words.group(1), 16), Long.parseUnsignedLong(words.group(2), 16) & ~7L);
        }
        assertThat(read).as(result.output()).isEqualTo(objects);
        var thread = process.groundTruth().threads().getFirst();
        assertThat(result.output()).contains("Process " + thread.osId() + " stopped").doesNotContain("setting process ID to 1");
        Matcher rip = Pattern.compile("rip = 0x([0-9a-f]{16})").matcher(result.output());
        assertThat(rip.find()).as(result.output()).isTrue();
        assertThat(Long.parseUnsignedLong(rip.group(1), 16)).isBetween(process.module().base(), process.module().base() + process.module().size());
        assertThat(result.exitCode()).as(result.output()).isZero();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runtimes")
    void obj2yamlParsesTheMinidumpAndListsItsStreams(RuntimeVersion version, GcFlavor gc) throws Exception {
        Path obj2yaml = ExternalTool.OBJ2YAML.require();
        EmulatedRuntime process = process(version, gc);
        ExternalTool.Result result = ExternalTool.run(obj2yaml, List.of(dump(process).toString()), dir, 120);
        String head = result.output().length() > 4000 ? result.output().substring(0, 4000) : result.output();
        assertThat(result.exitCode()).as(head).isZero();
        assertThat(result.output()).startsWith("--- !minidump").contains("Type:            SystemInfo", "Processor Arch:  AMD64",
                "Platform ID:     Win32NT", "Type:            ThreadList", "Type:            ModuleList", "Type:            MiscInfo",
                "Type:            0x636C7268", "Type:            Memory64List", "Type:            ThreadInfoList",
                "Type:            UnloadedModuleList", "Type:            MemoryInfoList", "Type:            HandleData")
                .containsPattern("Flags:\\s+0x1827")
                // RSDS, a GUID, age 1, "coreclr.pdb\0"
                .containsPattern("CodeView Record: 52534453[0-9A-F]{32}01000000" + HexFormat.of().withUpperCase().formatHex("coreclr.pdb\0".getBytes(StandardCharsets.US_ASCII)))
                .contains("Module Name:     '" + process.module().path() + "'")
                .contains(String.format("Base of Image:   0x%X", process.module().base()))
                .contains(String.format("Size of Image:   0x%X", process.module().size()));
        assertThat(Pattern.compile("Thread Id:\\s+0x").matcher(result.output()).results().count()).isEqualTo(process.groundTruth().threads().size());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runtimes")
    void llvmReadobjReadsTheExportsOfTheCoreclrImageInTheDump(RuntimeVersion version, GcFlavor gc) throws Exception {
        Path readobj = ExternalTool.LLVM_READOBJ.require();
        EmulatedRuntime process = process(version, gc);
        // the image as a file: its sections sit at file offset = RVA, so the mapped bytes up to the end of .data's file part are the file
        Path file = dump(process);
        try (var dump = io.clrheap.walker.source.minidump.Minidump.open(file)) {
            long base = dump.modules().getFirst().base();
            long nt = base + dump.readU32(base + 0x3c);
            int sections = dump.readU16(nt + 6);
            long table = nt + 24 + dump.readU16(nt + 20);
            long fileEnd = 0;
            for (int i = 0; i < sections; i++) {
                long s = table + 40L * i;
                fileEnd = Math.max(fileEnd, dump.readU32(s + 20) + dump.readU32(s + 16));
            }
            Path image = Files.write(dir.resolve("coreclr.dll"), dump.readBytes(base, (int) fileEnd));
            ExternalTool.Result result = ExternalTool.run(readobj, List.of("--file-headers", "--coff-exports", image.toString()), dir, 60);
            assertThat(result.exitCode()).as(result.output()).isZero();
            assertThat(result.output()).contains("Format: COFF-x86-64", "Arch: x86_64", "Machine: IMAGE_FILE_MACHINE_AMD64 (0x8664)")
                    .contains("Name: g_dacTable");
            assertThat(result.output().contains("Name: DotNetRuntimeContractDescriptor")).isEqualTo(version != RuntimeVersion.NET8);
            assertThat(result.output()).as("a coreclr.dll exports no DotNetRuntimeInfo").doesNotContain("Name: DotNetRuntimeInfo");

            // the real coreclr.dll's exports (mscorwks_ntdef.src, and g_dacTable by dactable.cpp's linker directive), by
            // ordinal: g_CLREngineMetrics @2, CLRJitAttachState @3, the rest in name order after them
            List<String> expected = new ArrayList<>(List.of("2 g_CLREngineMetrics", "3 CLRJitAttachState"));
            List<String> rest = new ArrayList<>(List.of("GetCLRRuntimeHost", "MetaDataGetDispenser", "coreclr_create_delegate",
                    "coreclr_execute_assembly", "coreclr_initialize", "coreclr_set_error_writer", "coreclr_shutdown", "coreclr_shutdown_2", "g_dacTable"));
            if (version != RuntimeVersion.NET8) {
                rest.add(0, "DotNetRuntimeContractDescriptor");
            }
            for (int i = 0; i < rest.size(); i++) {
                expected.add((4 + i) + " " + rest.get(i));
            }
            List<String> listed = new ArrayList<>();
            Matcher export = Pattern.compile("Export \\{\\s+Ordinal: (\\d+)\\s+Name: (\\S+)\\s+RVA: 0x([0-9A-F]+)").matcher(result.output());
            while (export.find()) {
                listed.add(export.group(1) + " " + export.group(2));
                // functions point into .text [0x10000, 0x20000), data into .data and .bss [0x20000, SizeOfImage)
                long rva = Long.parseLong(export.group(3), 16);
                boolean function = export.group(2).startsWith("coreclr_") || export.group(2).equals("GetCLRRuntimeHost")
                        || export.group(2).equals("MetaDataGetDispenser");
                assertThat(rva).as(export.group(2)).isBetween(function ? 0x10000L : 0x20000L, function ? 0x1ffffL : process.module().size() - 1);
            }
            assertThat(listed).containsExactlyElementsOf(expected);

            // the debug directory: a CodeView entry naming coreclr.pdb, the record the minidump's module carries
            ExternalTool.Result debug = ExternalTool.run(readobj, List.of("--coff-debug-directory", image.toString()), dir, 60);
            assertThat(debug.exitCode()).as(debug.output()).isZero();
            assertThat(debug.output()).contains("Type: CodeView (0x2)", "PDBSignature: 0x53445352", "PDBAge: 1", "PDBFileName: coreclr.pdb");
            Matcher guid = Pattern.compile("PDBGUID: \\(([0-9A-F ]+)\\)").matcher(debug.output());
            assertThat(guid.find()).as(debug.output()).isTrue();
            assertThat(guid.group(1).replace(" ", "")).isEqualTo(HexFormat.of().withUpperCase().formatHex(moduleCodeView(file), 4, 20));

            // the resource directory: the version resource, type 16 (RT_VERSION), name 1, language 0x409
            ExternalTool.Result resources = ExternalTool.run(readobj, List.of("--coff-resources", image.toString()), dir, 60);
            assertThat(resources.exitCode()).as(resources.output()).isZero();
            assertThat(resources.output()).as(resources.output()).contains("Type: VERSIONINFO (ID 16)", "Name: (ID 1)", "Language: (ID 1033)", "DataSize: 92");
        }
    }

    /** The CvRecord of the dump's first module, read from the file by the MINIDUMP_MODULE offsets (CvRecord at +76). */
    private static byte[] moduleCodeView(Path file) throws java.io.IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(Files.readAllBytes(file)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < b.getInt(8); i++) {
            int entry = b.getInt(12) + 12 * i;
            if (b.getInt(entry) == 4) {
                int module = b.getInt(entry + 8) + 4;
                byte[] record = new byte[b.getInt(module + 76)];
                b.get(b.getInt(module + 80), record);
                return record;
            }
        }
        throw new AssertionError("no ModuleListStream");
    }

    /**
     * A MINIDUMP_MEMORY_INFO as obj2yaml prints it: a field it leaves out has its default, Protect's being AllocationProtect
     * (llvm/lib/ObjectYAML/MinidumpYAML.cpp, mapOptional), the others' 0.
     */
    private record Region(long base, long size, String state, String protect, String type) {
        long end() {
            return base + size;
        }
    }

    /** The MemoryInfoList's regions of obj2yaml's output. */
    private static List<Region> memoryInfo(String yaml) {
        int start = yaml.indexOf("Type:            MemoryInfoList");
        assertThat(start).as("a MemoryInfoList").isNotNegative();
        int end = yaml.indexOf("  - Type:", start + 1);
        String block = yaml.substring(start, end < 0 ? yaml.length() : end);
        List<Region> regions = new ArrayList<>();
        for (String entry : block.split("- Base Address:")) {
            if (entry.contains("Type:            MemoryInfoList")) {
                continue;
            }
            regions.add(new Region(Long.decode(entry.strip().split("\\s+")[0]), Long.decode(field(entry, "Region Size", "0")),
                    field(entry, "State", "[  ]"), field(entry, "Protect", field(entry, "Allocation Protect", "[  ]")), field(entry, "Type", "[  ]")));
        }
        return regions;
    }

    private static String field(String entry, String name, String absent) {
        Matcher m = Pattern.compile("(?m)^\\s+" + name + ":\\s+(.+)$").matcher(entry);
        return m.find() ? m.group(1).strip() : absent;
    }

    /** The Memory64List's ranges, from obj2yaml's raw Content: NumberOfMemoryRanges u64, BaseRva u64, (start, size) pairs. */
    private static List<long[]> memory64(String yaml) {
        Matcher m = Pattern.compile("Type:\\s+Memory64List\\s+Content:\\s+'?([0-9A-F]+)").matcher(yaml);
        assertThat(m.find()).as("a Memory64List").isTrue();
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(HexFormat.of().parseHex(m.group(1))).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        List<long[]> ranges = new ArrayList<>();
        for (int i = 0; i < b.getLong(0); i++) {
            ranges.add(new long[] {b.getLong(16 + 16 * i), b.getLong(24 + 16 * i)});
        }
        return ranges;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runtimes")
    void obj2yamlsMemoryInfoListCoversEveryMemoryRangeWithCommittedMemoryOfTheMappedProtection(RuntimeVersion version, GcFlavor gc) throws Exception {
        Path obj2yaml = ExternalTool.OBJ2YAML.require();
        EmulatedRuntime process = process(version, gc);
        ExternalTool.Result result = ExternalTool.run(obj2yaml, List.of(dump(process).toString()), dir, 120);
        assertThat(result.exitCode()).isZero();
        List<Region> regions = memoryInfo(result.output());
        List<long[]> ranges = memory64(result.output());
        assertThat(ranges).isNotEmpty();
        for (long[] r : ranges) {
            // the bytes of a full-memory dump are committed memory, every byte of them
            long covered = r[0];
            for (Region g : regions) {
                if (g.base() <= covered && covered < g.end() && covered < r[0] + r[1]) {
                    assertThat(g.state()).as("0x%x", covered).isEqualTo("[ MEM_COMMIT ]");
                    assertThat(g.protect()).as("0x%x", covered).isIn("[ PAGE_READ_ONLY ]", "[ PAGE_READ_WRITE ]", "[ PAGE_EXECUTE_READ ]");
                    covered = g.end();
                }
            }
            assertThat(covered).as("range [0x%x, 0x%x) covered", r[0], r[0] + r[1]).isGreaterThanOrEqualTo(r[0] + r[1]);
        }
        // the module's and the assemblies' mappings: image pages of the protection the mapping has
        for (var mapping : process.mappings()) {
            Region g = regions.stream().filter(x -> x.base() <= mapping.start() && mapping.start() < x.end()).findFirst().orElseThrow();
            assertThat(g.end()).as(mapping.toString()).isGreaterThanOrEqualTo(mapping.end());
            assertThat(g.type()).as(mapping.toString()).isEqualTo("[ MEM_IMAGE ]");
            assertThat(g.protect()).as(mapping.toString()).isEqualTo(switch (mapping.permissions()) {
                case "r--p" -> "[ PAGE_READ_ONLY ]";
                case "r-xp" -> "[ PAGE_EXECUTE_READ ]";
                case "rw-p" -> "[ PAGE_READ_WRITE ]";
                default -> throw new AssertionError(mapping.permissions());
            });
        }
        // objects lie in private read-write memory
        for (long object : sample(process.groundTruth()).keySet()) {
            Region g = regions.stream().filter(x -> x.base() <= object && object < x.end()).findFirst().orElseThrow();
            assertThat(g.type()).isEqualTo("[ MEM_PRIVATE ]");
            assertThat(g.protect()).isEqualTo("[ PAGE_READ_WRITE ]");
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runtimes")
    void lldbReadsTheRegionsPermissionsFromTheMemoryInfoList(RuntimeVersion version, GcFlavor gc) throws Exception {
        Path lldb = ExternalTool.LLDB.require();
        EmulatedRuntime process = process(version, gc);
        Path file = dump(process);
        long object = sample(process.groundTruth()).keySet().iterator().next();
        long base = process.module().base();
        List<String> arguments = new ArrayList<>(List.of("--no-lldbinit", "--core", file.toString(), "-b"));
        long[] addresses = {base + 0x100, base + 0x10010, base + 0x20010, object};
        for (long a : addresses) {
            arguments.addAll(List.of("-o", String.format("memory region 0x%x", a)));
        }
        ExternalTool.Result result = ExternalTool.run(lldb, arguments, dir, 120);
        assertThat(result.exitCode()).as(result.output()).isZero();
        List<String> permissions = new ArrayList<>();
        Matcher region = Pattern.compile("(?m)^\\[0x([0-9a-f]+)-0x([0-9a-f]+)\\) ([r-][w-][x-])").matcher(result.output());
        while (region.find()) {
            permissions.add(region.group(3));
        }
        // the headers r--, .text r-x, .data rw-, a heap object rw-
        assertThat(permissions).as(result.output()).containsExactly("r--", "r-x", "rw-", "rw-");
    }
}
