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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * says they are and the threads' registers; obj2yaml (LLVM's minidump parser) accepts the file and lists its streams;
 * llvm-readobj reads coreclr.dll's export table from the image in the dump. Each runs when the tool is on PATH, and
 * is skipped with a message naming the Debian package otherwise.
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
                "Type:            0x636C7268", "Type:            Memory64List")
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
        try (var dump = io.clrheap.walker.source.minidump.Minidump.open(dump(process))) {
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
            assertThat(result.output().contains("Name: DotNetRuntimeInfo")).isTrue();
        }
    }
}
