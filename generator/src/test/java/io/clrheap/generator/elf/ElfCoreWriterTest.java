package io.clrheap.generator.elf;

import io.clrheap.generator.ObjectLists;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.Scenarios;
import io.clrheap.generator.ExternalTool;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import net.fornwall.jelf.ElfFile;
import net.fornwall.jelf.ElfSegment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The ELF core writer: the walker finds the ground truth in every core it writes, and real ELF tools read them. */
class ElfCoreWriterTest {

    @TempDir
    Path dir;

    /** A few scenarios on every runtime (the CLI's answer-key test walks every scenario's core). */
    static Stream<Arguments> scenarios() {
        return Stream.of("default", "every-edge", "collected", "frozen-segments").flatMap(s -> Stream.of(RuntimeVersion.values())
                .flatMap(v -> Stream.of(GcFlavor.values()).map(gc -> Arguments.of(s, v, gc))));
    }

    private Path core(EmulatedRuntime process) throws Exception {
        Path file = dir.resolve(process.scenario().name() + ".core");
        ElfCoreWriter.write(process, file);
        return file;
    }

    private static EmulatedRuntime build(String name, RuntimeVersion version, GcFlavor gc) {
        return new RuntimeBuilder().build(Scenarios.named(name).orElseThrow().on(version, gc));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("scenarios")
    void theWalkerFindsTheGroundTruthInTheCore(String name, RuntimeVersion version, GcFlavor gc) throws Exception {
        EmulatedRuntime process = build(name, version, gc);
        try (ElfCore core = ElfCore.open(core(process))) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(core, core.mappedFiles(), Optional.empty());
            DiscoveredHeap heap = new HeapDiscovery(target).discover();
            assertThat(ObjectLists.walked(target, heap)).containsExactlyElementsOf(ObjectLists.placed(process.groundTruth()));
            assertThat(core.typeNames()).isEqualTo(new java.util.TreeMap<>(process.typeNames()));
            assertThat(core.threads()).hasSize(process.scenario().threads());
        }
    }

    @Test
    void theSameProcessGivesTheSameCoreByteForByte() throws Exception {
        Scenario s = Scenarios.named("every-edge").orElseThrow();
        Path a = dir.resolve("a.core");
        Path b = dir.resolve("b.core");
        ElfCoreWriter.write(new RuntimeBuilder().build(s), a);
        ElfCoreWriter.write(new RuntimeBuilder().build(s), b);
        assertThat(sha256(a)).isEqualTo(sha256(b));
    }

    private static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    /** Blocks of 512 bytes the file takes on disk ({@code stat -c %b}), or -1 when stat cannot tell. */
    private static long blocksOnDisk(Path file) throws Exception {
        Process p = new ProcessBuilder("stat", "-c", "%b", file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).trim();
        return p.waitFor() == 0 && out.matches("\\d+") ? Long.parseLong(out) : -1;
    }

    @Test
    void zeroPagesAreHolesAndTheCoreReadsTheProcessMemory() throws Exception {
        // does this file system keep holes? a 1 MiB file that was only sized takes no blocks where it does
        Path probe = dir.resolve("probe");
        try (var raf = new java.io.RandomAccessFile(probe.toFile(), "rw")) {
            raf.setLength(1 << 20);
        }
        long probeBlocks = ElfCoreWriterTest.blocksOnDisk(probe);
        if (probeBlocks < 0 || probeBlocks * 512 >= 1 << 20) {
            String message = "the file system of " + dir + " does not keep holes (or stat is missing): sparse writing not checked";
            System.err.println("SKIPPED: " + message);
            org.junit.jupiter.api.Assumptions.assumeTrue(false, message);
        }
        // huge-loh: large arrays whose bodies the process never wrote, in chunks it did write
        EmulatedRuntime process = build("huge-loh", RuntimeVersion.NET8, GcFlavor.SERVER);
        Path file = core(process);
        long size = Files.size(file);
        long onDisk = blocksOnDisk(file) * 512;
        assertThat(onDisk).as("bytes on disk of a %,d-byte core", size).isLessThan(size);
        // a reader sees every byte the process holds, zeros included, where the writer left holes
        try (ElfCore core = ElfCore.open(file)) {
            for (var r : process.memory().touchedRanges()) {
                for (long a = r.start(); a < r.start() + r.length(); a += 1 << 16) {
                    int n = (int) Math.min(1 << 16, r.start() + r.length() - a);
                    assertThat(core.readBytes(a, n)).as("0x%x", a).isEqualTo(process.memory().readBytes(a, n));
                }
            }
        }
    }

    @Test
    void anIndependentElfParserReadsTheCore() throws Exception {
        EmulatedRuntime process = build("default", RuntimeVersion.NET9, GcFlavor.SERVER);
        Path file = core(process);
        ElfFile elf = ElfFile.from(file.toFile());
        assertThat(elf.e_type).isEqualTo((short) ElfFile.ET_CORE);
        assertThat(elf.e_machine).isEqualTo((short) 62);
        long loads = 0;
        List<String> notes = new ArrayList<>();
        for (int i = 0; i < elf.e_phnum; i++) {
            ElfSegment s = elf.getProgramHeader(i);
            if (s.p_type == ElfSegment.PT_LOAD) {
                loads++;
            } else if (s.p_type == ElfSegment.PT_NOTE) {
                s.notes().forEach(n -> notes.add(n.name + ":" + n.type));
            }
        }
        assertThat(loads).isGreaterThan(10);
        assertThat(notes).startsWith("CORE:3", "CORE:6", "CORE:" + 0x46494c45).contains("CORE:1", "CORE:2", "clrheap:" + 0x48524c43);
        assertThat(notes.stream().filter(n -> n.equals("CORE:1"))).hasSize(process.scenario().threads());
    }

    // ---- real consumers: run where the tool is installed (.ci/run installs them), skipped with a message elsewhere

    private String run(ExternalTool tool, String... arguments) throws Exception {
        ExternalTool.Result r = ExternalTool.run(tool.require(), List.of(arguments), dir, 120);
        return r.output();
    }

    /** 50 objects spread over the heap, address and MethodTable. */
    private static List<long[]> sample(GroundTruth truth, int n) {
        List<long[]> all = new ArrayList<>();
        truth.forEachObject((address, mt, size, generation, heap, kind) -> all.add(new long[] {address, mt}));
        List<long[]> sample = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            sample.add(all.get((int) ((long) i * all.size() / n)));
        }
        return sample;
    }

    @Test
    void gdbReadsTheMethodTablesOfFiftyObjects() throws Exception {
        EmulatedRuntime process = build("default", RuntimeVersion.NET8, GcFlavor.SERVER);
        Path file = core(process);
        List<long[]> sample = sample(process.groundTruth(), 50);
        List<String> command = new ArrayList<>(List.of("-q", "-nx", "-batch", "-ex", "core-file " + file));
        sample.forEach(o -> command.addAll(List.of("-ex", String.format("x/gx 0x%x", o[0]))));
        String out = run(ExternalTool.GDB, command.toArray(String[]::new));
        for (long[] o : sample) {
            // the mark bit the GC may set is not in these scenarios' sampled objects; compare the whole word
            assertThat(out).as("gdb output").containsPattern(String.format("0x%x(?: <[^>]*>)?:\\s+0x0*%x\\b", o[0], o[1]));
        }
    }

    @Test
    void lldbOpensTheCoreAndReadsTheSameMemory() throws Exception {
        EmulatedRuntime process = build("default", RuntimeVersion.NET10, GcFlavor.WORKSTATION);
        Path file = core(process);
        List<long[]> sample = sample(process.groundTruth(), 10);
        List<String> command = new ArrayList<>(List.of("--no-lldbinit", "--core", file.toString(), "-b"));
        sample.forEach(o -> command.addAll(List.of("-o", String.format("memory read -s8 -fx -c1 0x%x", o[0]))));
        String out = run(ExternalTool.LLDB, command.toArray(String[]::new));
        for (long[] o : sample) {
            assertThat(out).as("lldb output").containsPattern(String.format("0x0*%x: 0x0*%x\\b", o[0], o[1]));
        }
    }

    @Test
    void euReadelfDecodesEveryNote() throws Exception {
        EmulatedRuntime process = build("default", RuntimeVersion.NET8, GcFlavor.SERVER);
        String out = run(ExternalTool.EU_READELF, "-n", core(process).toString());
        assertThat(out).contains("PRPSINFO", "AUXV", "FILE", "PRSTATUS", "FPREGSET", "clrheap", "libcoreclr.so")
                .doesNotContainIgnoringCase("invalid").doesNotContainIgnoringCase("error");
        assertThat(out.lines().filter(l -> l.contains("PRSTATUS"))).hasSize(process.scenario().threads());
    }

    @Test
    void euUnstripListsTheRuntimeModule() throws Exception {
        EmulatedRuntime process = build("default", RuntimeVersion.NET9, GcFlavor.SERVER);
        String out = run(ExternalTool.EU_UNSTRIP, "-n", "--core=" + core(process));
        assertThat(out).containsPattern(String.format("0x%x\\+0x[0-9a-f]+ [0-9a-f]{40}@0x[0-9a-f]+ .*libcoreclr\\.so", process.mappings().get(0).start()));
    }
}
