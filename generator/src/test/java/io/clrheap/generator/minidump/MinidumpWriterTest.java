package io.clrheap.generator.minidump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.Scenarios;
import io.clrheap.emulator.process.ProcessLayout;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.memory.MemoryRange;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.source.minidump.Minidump;
import io.clrheap.walker.source.minidump.MinidumpFormatException;
import io.clrheap.walker.runtime.TargetException;
import io.clrheap.walker.runtime.TargetOpener;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the minidump writer puts in the file, that it does so the same way every time, and how damaged copies are refused. */
class MinidumpWriterTest {

    private static EmulatedRuntime process;

    @TempDir
    Path dir;

    @BeforeAll
    static void buildOnce() {
        process = new RuntimeBuilder().platform(Platform.WINDOWS).build(Scenario.defaultScenario(RuntimeVersion.NET10, GcFlavor.SERVER));
    }

    private Path written() throws Exception {
        Path file = dir.resolve("default.dmp");
        MinidumpWriter.write(process, file);
        return file;
    }

    @Test
    void theHeaderNamesTheFormatTheStreamsAndAFullDumpsFlags() throws Exception {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(written())).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(b.getInt(0)).as("MDMP").isEqualTo(0x504d444d);
        assertThat(b.getShort(4) & 0xffff).isEqualTo(0xa793);
        assertThat(b.getInt(8)).as("streams").isEqualTo(10);
        assertThat(b.getInt(12)).as("directory").isEqualTo(32);
        assertThat(b.getInt(20)).as("TimeDateStamp: the module's, not the clock's").isEqualTo(process.module().timeDateStamp());
        // WithFullMemory | WithDataSegs | WithHandleData | WithUnloadedModules | WithFullMemoryInfo | WithThreadInfo:
        // dotnet-dump's full dump but WithTokenInformation (0x40000), whose stream is not written
        assertThat(b.getLong(24)).as("MINIDUMP_TYPE").isEqualTo(0x1827);
        List<Integer> types = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            types.add(b.getInt(32 + 12 * i));
        }
        // ThreadList, ThreadInfoList, ModuleList, UnloadedModuleList, Memory64List, MemoryInfoList, SystemInfo, MiscInfo,
        // HandleData, then clrheap's user stream: real dbghelp's order (docs/reference/dump-formats.md section 3.10)
        assertThat(types).containsExactly(3, 17, 4, 14, 9, 16, 7, 15, 12, 0x636c7268);
        // dbghelp puts SystemInfo and MiscInfo first after the directory
        assertThat(stream(b, 7)[1]).isEqualTo(32 + 12 * 10);
        assertThat(stream(b, 15)[1]).isGreaterThan(stream(b, 7)[1]).isLessThan(stream(b, 3)[1]);
    }

    /** The (size, RVA) of the stream of {@code type}. */
    private static int[] stream(ByteBuffer b, int type) {
        for (int i = 0; i < b.getInt(8); i++) {
            int at = b.getInt(12) + 12 * i;
            if (b.getInt(at) == type) {
                return new int[] {b.getInt(at + 4), b.getInt(at + 8)};
            }
        }
        throw new AssertionError("no stream of type 0x" + Integer.toHexString(type));
    }

    @Test
    void theMiscInfoIsMiscInfo5WithTheProcessIdTimesIntegrityAndTimeZone() throws Exception {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(written())).order(ByteOrder.LITTLE_ENDIAN);
        int[] misc = stream(b, 15);
        assertThat(misc[0]).as("sizeof(MINIDUMP_MISC_INFO_5)").isEqualTo(1364);
        int at = misc[1];
        assertThat(b.getInt(at)).as("SizeOfInfo").isEqualTo(1364);
        assertThat(b.getInt(at + 4)).as("Flags1: PROCESS_ID | PROCESS_TIMES | PROCESS_INTEGRITY | TIMEZONE").isEqualTo(0x53);
        assertThat(b.getInt(at + 8)).as("ProcessId").isEqualTo((int) process.groundTruth().threads().getFirst().osId());
        assertThat(b.getInt(at + 12)).as("ProcessCreateTime").isEqualTo(process.module().timeDateStamp());
        assertThat(b.getInt(at + 44)).as("ProcessIntegrityLevel: SECURITY_MANDATORY_MEDIUM_RID").isEqualTo(0x2000);
        byte[] name = new byte[52];
        b.get(at + 60 + 4, name);
        assertThat(new String(name, StandardCharsets.UTF_16LE)).as("TimeZone.StandardName").isEqualTo("Coordinated Universal Time");
        b.get(at + 60 + 88, name);
        assertThat(new String(name, StandardCharsets.UTF_16LE)).as("TimeZone.DaylightName").isEqualTo("Coordinated Universal Time");
        assertThat(b.getInt(at + 832)).as("XStateData.SizeOfInfo: no extended state").isZero();
    }

    @Test
    void theThreadInfoListHasAnEntryPerThreadOfTheThreadList() throws Exception {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(written())).order(ByteOrder.LITTLE_ENDIAN);
        int[] info = stream(b, 17);
        int at = info[1];
        int threads = b.getInt(stream(b, 3)[1]);
        assertThat(b.getInt(at)).as("SizeOfHeader").isEqualTo(12);
        assertThat(b.getInt(at + 4)).as("SizeOfEntry").isEqualTo(64);
        assertThat(b.getInt(at + 8)).as("NumberOfEntries").isEqualTo(threads).isEqualTo(process.groundTruth().threads().size());
        assertThat(info[0]).isEqualTo(12 + 64 * threads);
        long fileTime = (Integer.toUnsignedLong(process.module().timeDateStamp()) + 11_644_473_600L) * 10_000_000L;
        for (int i = 0; i < threads; i++) {
            int e = at + 12 + 64 * i;
            assertThat(b.getInt(e)).as("ThreadId").isEqualTo(b.getInt(stream(b, 3)[1] + 4 + 48 * i));
            assertThat(b.getInt(e + 4)).as("DumpFlags").isZero();
            assertThat(b.getInt(e + 8)).as("DumpError").isZero();
            assertThat(b.getInt(e + 12)).as("ExitStatus: STILL_ACTIVE").isEqualTo(259);
            assertThat(b.getLong(e + 16)).as("CreateTime").isEqualTo(fileTime);
            assertThat(b.getLong(e + 24)).as("ExitTime").isZero();
            assertThat(b.getLong(e + 48)).as("StartAddress: in coreclr.dll's .text").isBetween(process.module().base() + 0x10000, process.module().base() + 0x1ffff);
            assertThat(b.getLong(e + 56)).as("Affinity: every processor").isEqualTo((1L << process.scenario().heaps()) - 1);
        }
    }

    @Test
    void theHandleAndUnloadedModuleListsAreEmptyValidLists() throws Exception {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(written())).order(ByteOrder.LITTLE_ENDIAN);
        int[] handles = stream(b, 12);
        assertThat(handles[0]).isEqualTo(16);
        assertThat(new int[] {b.getInt(handles[1]), b.getInt(handles[1] + 4), b.getInt(handles[1] + 8), b.getInt(handles[1] + 12)})
                .as("SizeOfHeader, SizeOfDescriptor (MINIDUMP_HANDLE_DESCRIPTOR_2), NumberOfDescriptors, Reserved").containsExactly(16, 40, 0, 0);
        int[] unloaded = stream(b, 14);
        assertThat(unloaded[0]).isEqualTo(12);
        assertThat(new int[] {b.getInt(unloaded[1]), b.getInt(unloaded[1] + 4), b.getInt(unloaded[1] + 8)})
                .as("SizeOfHeader, SizeOfEntry, NumberOfEntries").containsExactly(12, 24, 0);
    }

    @Test
    void theModuleCarriesTheImagesCodeViewRecord() throws Exception {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(written())).order(ByteOrder.LITTLE_ENDIAN);
        int module = stream(b, 4)[1] + 4;
        int size = b.getInt(module + 76);
        int rva = b.getInt(module + 80);
        byte[] record = new byte[size];
        b.get(rva, record);
        assertThat(b.getInt(rva)).as("RSDS").isEqualTo(0x53445352);
        assertThat(b.getInt(rva + 20)).as("age").isEqualTo(1);
        assertThat(new String(record, 24, size - 24, StandardCharsets.UTF_8)).isEqualTo("coreclr.pdb\0");
        // the record the image's debug directory points at, byte for byte
        var m = process.memory();
        long base = process.module().base();
        long optional = base + m.readU32(base + 0x3c) + 24;
        long debug = base + m.readU32(optional + 112 + 6 * 8);
        assertThat(m.readU32(debug + 12)).as("IMAGE_DEBUG_TYPE_CODEVIEW").isEqualTo(2);
        assertThat(record).isEqualTo(m.readBytes(base + m.readU32(debug + 20), (int) m.readU32(debug + 16)));
        // the same build, the same GUID; another build, another
        EmulatedRuntime net8 = new RuntimeBuilder().platform(Platform.WINDOWS).build(Scenario.defaultScenario(RuntimeVersion.NET8, GcFlavor.SERVER));
        Path other = dir.resolve("net8.dmp");
        MinidumpWriter.write(net8, other);
        ByteBuffer o = ByteBuffer.wrap(Files.readAllBytes(other)).order(ByteOrder.LITTLE_ENDIAN);
        byte[] guid8 = new byte[16];
        o.get(o.getInt(stream(o, 4)[1] + 4 + 80) + 4, guid8);
        assertThat(guid8).isNotEqualTo(Arrays.copyOfRange(record, 4, 20));
    }

    /** MINIDUMP_MEMORY_INFO entries: BaseAddress, AllocationBase, AllocationProtect, RegionSize, State, Protect, Type. */
    private record Info(long base, long allocationBase, int allocationProtect, long size, int state, int protect, int type) {
        long end() {
            return base + size;
        }
    }

    private static List<Info> memoryInfo(ByteBuffer b) {
        int[] list = stream(b, 16);
        int at = list[1];
        assertThat(b.getInt(at)).as("SizeOfHeader").isEqualTo(16);
        assertThat(b.getInt(at + 4)).as("SizeOfEntry").isEqualTo(48);
        long n = b.getLong(at + 8);
        assertThat(list[0]).isEqualTo(16 + 48 * n);
        List<Info> entries = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int e = at + 16 + 48 * i;
            entries.add(new Info(b.getLong(e), b.getLong(e + 8), b.getInt(e + 16), b.getLong(e + 24), b.getInt(e + 32), b.getInt(e + 36), b.getInt(e + 40)));
        }
        return entries;
    }

    @Test
    void theMemoryInfoListTilesUserSpaceAndItsCommittedRegionsAreTheMemory() throws Exception {
        Path file = written();
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        List<Info> regions = memoryInfo(b);
        long next = 0;
        for (Info r : regions) {
            assertThat(r.base()).as("regions tile the address space").isEqualTo(next);
            assertThat(r.size() % 0x1000).as("whole pages").isZero();
            assertThat(r.state()).isIn(0x1000, 0x2000, 0x10000);
            if (r.state() == 0x10000) {
                assertThat(r.type()).as("a free region has no type").isZero();
            } else {
                assertThat(r.type()).isIn(0x20000, 0x1000000);
                assertThat(r.allocationBase()).isLessThanOrEqualTo(r.base());
            }
            next = r.end();
        }
        assertThat(next).as("the end of user space").isEqualTo(0x7fff_ffff_0000L);
        // the Memory64List's ranges are the committed regions, one for one
        int list = stream(b, 9)[1];
        List<MemoryRange> ranges = new ArrayList<>();
        for (int i = 0; i < b.getLong(list); i++) {
            ranges.add(new MemoryRange(b.getLong(list + 16 + 16 * i), b.getLong(list + 24 + 16 * i)));
        }
        assertThat(ranges).containsExactlyElementsOf(regions.stream().filter(r -> r.state() == 0x1000).map(r -> new MemoryRange(r.base(), r.size())).toList());
        // the module's pages: the protection of its mapping (r-- PAGE_READONLY, r-x PAGE_EXECUTE_READ, rw- PAGE_READWRITE), MEM_IMAGE
        for (var mapping : process.mappings()) {
            Info r = regions.stream().filter(i -> i.base() <= mapping.start() && mapping.start() < i.end()).findFirst().orElseThrow();
            assertThat(r.end()).as(mapping.toString()).isGreaterThanOrEqualTo(mapping.end());
            assertThat(r.state()).isEqualTo(0x1000);
            assertThat(r.type()).as("MEM_IMAGE").isEqualTo(0x1000000);
            assertThat(r.allocationProtect()).as("PAGE_EXECUTE_WRITECOPY").isEqualTo(0x80);
            assertThat(r.protect()).as(mapping.toString()).isEqualTo(switch (mapping.permissions()) {
                case "r--p" -> 0x02;
                case "r-xp" -> 0x20;
                case "rw-p" -> 0x04;
                default -> throw new AssertionError(mapping.permissions());
            });
        }
        // every object is in committed private read-write memory; the GC's reserve range beyond its regions is reserved
        process.groundTruth().regions().forEach(g -> {
            Info r = regions.stream().filter(i -> i.base() <= g.start() && g.start() < i.end()).findFirst().orElseThrow();
            assertThat(r.type()).isEqualTo(0x20000);
            assertThat(r.protect()).isEqualTo(0x04);
        });
        assertThat(regions).anySatisfy(r -> {
            assertThat(r.allocationBase()).isEqualTo(0x7e20_0000_0000L);
            assertThat(r.state()).isEqualTo(0x2000);
        });
    }

    @Test
    void theSameProcessGivesTheSameBytes() throws Exception {
        Path first = written();
        Path second = dir.resolve("again.dmp");
        MinidumpWriter.write(new RuntimeBuilder().platform(Platform.WINDOWS).build(Scenario.defaultScenario(RuntimeVersion.NET10, GcFlavor.SERVER)), second);
        assertThat(Files.mismatch(first, second)).isEqualTo(-1);
        Path third = dir.resolve("third.dmp");
        MinidumpWriter.write(process, third);
        assertThat(Files.mismatch(first, third)).isEqualTo(-1);
    }

    @Test
    void theMemoryIsEveryRangeTheProcessWroteTheImagesAndTheThreadsStacks() throws Exception {
        try (Minidump dump = Minidump.open(written())) {
            List<MemoryRange> expected = new ArrayList<>();
            for (var t : dump.threads()) {
                expected.add(new MemoryRange(t.teb(), 0x1000));
                // the stack is one of the process's own mappings (touched below); the descriptor covers its live part
                assertThat(dump.ranges()).anyMatch(r -> Long.compareUnsigned(t.stackStart() - r.start(), r.length()) < 0
                        && Long.compareUnsigned(t.stackStart() + t.stackSize(), r.end()) <= 0);
            }
            List<Long> imageBases = process.mappings().stream().filter(m -> m.fileOffset() == 0).map(m -> m.start()).toList();
            for (long base : imageBases) {
                expected.add(new MemoryRange(base, process.memory().readU32(base + process.memory().readU32(base + 0x3c) + 24 + 56)));
            }
            // what the process wrote outside its images (the area of the assemblies' images holds nothing else)
            for (MemoryRange r : process.memory().touchedRanges()) {
                boolean assemblies = Long.compareUnsigned(r.start() - ProcessLayout.ASSEMBLY_IMAGES, ProcessLayout.ASSEMBLY_IMAGES_SIZE) < 0;
                boolean module = Long.compareUnsigned(r.start() - process.module().base(), process.module().size()) < 0;
                if (!assemblies && !module) {
                    expected.add(r);
                }
            }
            expected.sort((a, b) -> Long.compareUnsigned(a.start(), b.start()));
            // adjacent ranges read as one
            List<MemoryRange> joined = new ArrayList<>();
            for (MemoryRange r : expected) {
                if (!joined.isEmpty() && joined.getLast().end() == r.start()) {
                    joined.set(joined.size() - 1, new MemoryRange(joined.getLast().start(), joined.getLast().length() + r.length()));
                } else {
                    joined.add(r);
                }
            }
            assertThat(dump.ranges()).containsExactlyElementsOf(joined);
        }
    }

    @Test
    void theTypeNameStreamIsAFileTypeNamesCanLoad() throws Exception {
        Path file = written();
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int[] stream = stream(b, 0x636c7268);
        String text = new String(bytes, stream[1], stream[0], StandardCharsets.UTF_8);
        List<String> lines = text.lines().toList();
        assertThat(text).endsWith("\n");
        assertThat(lines).hasSize(process.typeNames().size()).allMatch(l -> l.matches("0x[0-9a-f]+ \\S.*"));
        assertThat(lines).isSortedAccordingTo((x, y) -> Long.compareUnsigned(Long.parseUnsignedLong(x.substring(2, x.indexOf(' ')), 16),
                Long.parseUnsignedLong(y.substring(2, y.indexOf(' ')), 16)));
        Path names = Files.writeString(dir.resolve("names.txt"), text);
        TypeNames loaded = TypeNames.load(names);
        process.typeNames().forEach((mt, name) -> assertThat(loaded.name(mt)).hasValue(name));
        assertThat(loaded.size()).isEqualTo(process.typeNames().size());
    }

    @Test
    void aLinuxBuildIsRefused() {
        EmulatedRuntime linux = new RuntimeBuilder().build(Scenario.defaultScenario(RuntimeVersion.NET8, GcFlavor.WORKSTATION));
        Path file = dir.resolve("linux.dmp");
        assertThatThrownBy(() -> MinidumpWriter.write(linux, file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("built for LINUX").hasMessageContaining("platform(Platform.WINDOWS)");
        assertThat(file).doesNotExist();
    }

    @Test
    void everyTruncationIsRefusedWithTheOffset() throws Exception {
        byte[] bytes = Files.readAllBytes(written());
        int memoryStart = memoryStart(bytes);
        List<Integer> cuts = new ArrayList<>();
        for (int i = 0; i < memoryStart; i += 3) {
            cuts.add(i);
        }
        for (int i = 1; i < 64; i++) {
            cuts.add(memoryStart + (int) ((long) (bytes.length - memoryStart) * i / 64));
        }
        cuts.add(bytes.length - 1);
        for (int cut : cuts) {
            Path file = Files.write(dir.resolve("cut.dmp"), Arrays.copyOf(bytes, cut));
            assertThatThrownBy(() -> Minidump.open(file).close()).as("cut at 0x%x of 0x%x", cut, bytes.length)
                    .isInstanceOf(MinidumpFormatException.class).hasMessageContaining("at file offset 0x").hasMessageContaining("cut.dmp");
        }
    }

    @Test
    void damageToTheStreamsIsRefusedOrOpensNeverAnotherFailure() throws Exception {
        byte[] good = Files.readAllBytes(written());
        int memoryStart = memoryStart(good);
        Random random = new Random(7);
        TargetOpener opener = new TargetOpener(ProfileLoader.builtIn());
        int[] outcomes = new int[3];
        Assertions.assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            for (int round = 0; round < 400; round++) {
                byte[] bytes = good.clone();
                for (int i = random.nextInt(3); i >= 0; i--) {
                    bytes[random.nextInt(memoryStart)] = (byte) random.nextInt(256);
                }
                Path file = Files.write(dir.resolve("damaged.dmp"), bytes);
                try (Minidump dump = Minidump.open(file)) {
                    opener.open(dump);
                    outcomes[0]++;
                } catch (MinidumpFormatException e) {
                    assertThat(e.getMessage()).contains("at file offset 0x");
                    outcomes[1]++;
                } catch (TargetException e) {
                    outcomes[2]++;
                }
            }
        });
        assertThat(outcomes[1]).as("refused as a file").isPositive();
        assertThat(outcomes[0]).as("damage that does not matter").isPositive();
    }

    /** Where the memory's bytes start: the Memory64List's BaseRva. */
    private static int memoryStart(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        return (int) b.getLong(stream(b, 9)[1] + 8);
    }

    @Test
    void aScenarioWithManyThreadsGetsAStackForEach() throws Exception {
        EmulatedRuntime many = new RuntimeBuilder().platform(Platform.WINDOWS).build(Scenarios.named("sixty-four-heaps").orElseThrow());
        Path file = dir.resolve("many.dmp");
        MinidumpWriter.write(many, file);
        try (Minidump dump = Minidump.open(file)) {
            assertThat(dump.threads()).hasSize(many.groundTruth().threads().size());
            assertThat(dump.threads().stream().map(t -> t.stackStart()).distinct()).hasSize(dump.threads().size());
        }
    }
}
