package io.clrheap.generator.minidump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.Scenarios;
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
    void theHeaderNamesTheFormatTheStreamsAndFullMemory() throws Exception {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(written())).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(b.getInt(0)).as("MDMP").isEqualTo(0x504d444d);
        assertThat(b.getShort(4) & 0xffff).isEqualTo(0xa793);
        assertThat(b.getInt(8)).as("streams").isEqualTo(6);
        assertThat(b.getInt(12)).as("directory").isEqualTo(32);
        assertThat(b.getInt(20)).as("TimeDateStamp: the module's, not the clock's").isEqualTo(process.module().timeDateStamp());
        assertThat(b.getLong(24)).as("MiniDumpWithFullMemory").isEqualTo(2);
        List<Integer> types = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            types.add(b.getInt(32 + 12 * i));
        }
        assertThat(types).containsExactly(7, 3, 4, 15, 0x636c7268, 9);
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
    void theMemoryIsEveryRangeTheProcessWroteAndTheThreadsStacks() throws Exception {
        try (Minidump dump = Minidump.open(written())) {
            List<MemoryRange> expected = new ArrayList<>(process.memory().touchedRanges());
            for (var t : dump.threads()) {
                expected.add(new MemoryRange(t.teb(), 0x1000));
                expected.add(new MemoryRange(t.stackStart(), t.stackSize()));
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
        int entry = 32 + 12 * 4;
        assertThat(b.getInt(entry)).isEqualTo(0x636c7268);
        String text = new String(bytes, b.getInt(entry + 8), b.getInt(entry + 4), StandardCharsets.UTF_8);
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
        int list = b.getInt(32 + 12 * 5 + 8);
        return (int) b.getLong(list + 8);
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
