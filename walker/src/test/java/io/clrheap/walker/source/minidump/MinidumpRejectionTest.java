package io.clrheap.walker.source.minidump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hostile and broken minidumps: each is refused with a {@link MinidumpFormatException} naming the file and the offset. */
class MinidumpRejectionTest {

    private static final long A = 0x7ff6_1000_0000L;
    private static final long B = 0x0000_00a0_0000_0000L;
    // the directory entries of aDump(), in the order TestMinidumpWriter lays them out
    private static final int SYSTEM_INFO_ENTRY = 32;
    private static final int THREAD_LIST_ENTRY = 32 + 12;
    private static final int MODULE_LIST_ENTRY = 32 + 24;
    private static final int MEMORY64_ENTRY = 32 + 60;

    @TempDir
    Path dir;

    private static TestMinidumpWriter aDump() {
        return new TestMinidumpWriter()
                .thread(4242, B, B + 0xc000, 0x40, A, B + 0xc010)
                .module(A, 0x2000, "C:\\coreclr.dll", 7)
                .processId(4242)
                .typeNames("0x7f3900001000 System.String\n0x7f3900002000 System.Object\n")
                .memory64(A, TestMinidumpWriter.pattern(0x100, 0))
                .memory64(A + 0x1000, TestMinidumpWriter.pattern(0x80, 1));
    }

    private Path write(byte[] bytes) throws IOException {
        return Files.write(dir.resolve("bad.dmp"), bytes);
    }

    private Path patched(TestMinidumpWriter writer, Consumer<ByteBuffer> patch) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(writer.build()).order(ByteOrder.LITTLE_ENDIAN);
        patch.accept(b);
        return write(b.array());
    }

    private static void assertRefused(Path file, long offset, String... fragments) {
        assertThatThrownBy(() -> Minidump.open(file).close())
                .isInstanceOfSatisfying(MinidumpFormatException.class, e -> assertThat(e.fileOffset()).isEqualTo(offset))
                .hasMessageContaining(file.toString())
                .hasMessageContaining(String.format("at file offset 0x%x", offset))
                .hasMessageContainingAll(fragments);
    }

    @Test
    void theTestDumpItselfIsAccepted() throws IOException {
        try (Minidump dump = Minidump.open(write(aDump().build()))) {
            assertThat(dump.modules()).hasSize(1);
            assertThat(dump.threads()).hasSize(1);
            assertThat(dump.typeNames()).hasValueSatisfying(n -> assertThat(n).hasSize(2));
        }
    }

    @Test
    void refusesAFileThatIsNotAMinidump() throws IOException {
        byte[] text = Arrays.copyOf("NOT A MINIDUMP AT ALL, JUST TEXT".getBytes(), 64);
        assertRefused(write(text), 0, "not a minidump", "signature 0x20544f4e");
    }

    @Test
    void refusesAFileShorterThanTheHeader() throws IOException {
        assertRefused(write(new byte[] {'M', 'D', 'M', 'P', (byte) 0x93, (byte) 0xa7}), 0, "MINIDUMP_HEADER needs 0x20 bytes");
        assertRefused(write(new byte[0]), 0, "MINIDUMP_HEADER");
    }

    @Test
    void refusesAnotherVersion() throws IOException {
        assertRefused(patched(aDump(), b -> b.putShort(4, (short) 0x1234)), 4, "minidump version 0x1234", "0xa793");
    }

    @Test
    void refusesAStreamCountAboveTheLimit() throws IOException {
        assertRefused(patched(aDump(), b -> b.putInt(8, -1)), 8, "NumberOfStreams 4294967295 is above the limit");
    }

    @Test
    void refusesADirectoryPastTheEndOfTheFile() throws IOException {
        assertRefused(patched(aDump(), b -> b.putInt(12, 0x7fff_0000)), 0x7fff_0000L, "the stream directory", "past the end of the file");
    }

    @Test
    void refusesAStreamPastTheEndOfTheFile() throws IOException {
        assertRefused(patched(aDump(), b -> b.putInt(MEMORY64_ENTRY + 4, 0x100000)), MEMORY64_ENTRY,
                "Memory64ListStream of 0x100000 bytes", "runs past the end of the file");
    }

    @Test
    void refusesAStreamTypeListedTwice() throws IOException {
        assertRefused(patched(aDump(), b -> b.putInt(THREAD_LIST_ENTRY, 7)), THREAD_LIST_ENTRY, "a second SystemInfoStream", "file offset 0x20");
    }

    @Test
    void refusesADumpWithoutSystemInfo() throws IOException {
        assertRefused(write(new TestMinidumpWriter().withoutSystemInfo().memory64(A, new byte[8]).build()), 12, "no SystemInfoStream");
    }

    @Test
    void refusesAnotherProcessorArchitecture() throws IOException {
        TestMinidumpWriter arm = aDump().architecture(12);
        byte[] bytes = arm.build();
        assertRefused(write(bytes), arm.streamOffset(7), "processor architecture 12 is not AMD64");
    }

    @Test
    void refusesAMemoryRangeCountItsStreamCannotHold() throws IOException {
        TestMinidumpWriter w = aDump();
        byte[] bytes = w.build();
        long stream = w.streamOffset(9);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong((int) stream, Long.MAX_VALUE);
        assertRefused(write(bytes), stream, "Memory64ListStream counts 9223372036854775807 ranges", "hold 2 descriptors");
    }

    @Test
    void refusesAMemoryRangeWhoseBytesRunPastTheEndOfTheFile() throws IOException {
        TestMinidumpWriter w = aDump();
        byte[] bytes = w.build();
        long second = w.streamOffset(9) + 16 + 16;
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong((int) second + 8, 0x81);
        assertRefused(write(bytes), second, "memory range 1 [0x7ff610001000, 0x7ff610001081)", "past the end of the file");
    }

    @Test
    void refusesATruncatedFileWhoseLastRangeIsCut() throws IOException {
        byte[] bytes = aDump().build();
        Path file = write(Arrays.copyOf(bytes, bytes.length - 1));
        assertThatThrownBy(() -> Minidump.open(file).close()).isInstanceOf(MinidumpFormatException.class)
                .hasMessageContaining("memory range 1").hasMessageContaining("past the end of the file");
    }

    @Test
    void refusesOverlappingMemoryRanges() throws IOException {
        TestMinidumpWriter w = aDump();
        byte[] bytes = w.build();
        long second = w.streamOffset(9) + 16 + 16;
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong((int) second, A + 0xf0);
        assertRefused(write(bytes), second, "memory ranges [0x7ff610000000, 0x7ff610000100) and [0x7ff6100000f0, 0x7ff610000170) overlap");
    }

    @Test
    void refusesAMemoryRangeThatWrapsPastTheTopOfTheAddressSpace() throws IOException {
        TestMinidumpWriter w = aDump();
        byte[] bytes = w.build();
        long second = w.streamOffset(9) + 16 + 16;
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong((int) second, -0x40L);
        assertRefused(write(bytes), second, "runs past the top of the address space");
    }

    @Test
    void refusesMoreMemoryRangesThanTheLimit() throws IOException {
        Path file = write(aDump().build());
        MinidumpLimits one = new MinidumpLimits(16, 1, 16, 16, 1024, 1024);
        assertThatThrownBy(() -> Minidump.open(file, one).close()).isInstanceOf(MinidumpFormatException.class)
                .hasMessageContaining("2 memory ranges are above the limit of 1");
    }

    @Test
    void refusesAModuleCountItsStreamCannotHold() throws IOException {
        TestMinidumpWriter w = aDump();
        byte[] bytes = w.build();
        long stream = w.streamOffset(4);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt((int) stream, 1_000_000);
        assertRefused(write(bytes), stream, "ModuleListStream counts 1000000 modules of 108 bytes");
    }

    @Test
    void refusesAModuleNamePastTheEndOfTheFile() throws IOException {
        TestMinidumpWriter w = aDump();
        byte[] bytes = w.build();
        long nameRva = w.streamOffset(4) + 4 + 20;
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt((int) nameRva, 0x7000_0000);
        assertRefused(write(bytes), nameRva, "the name of module 0 at RVA 0x70000000 is past the end of the file");
    }

    @Test
    void refusesAModuleNameOfAnOddOrHugeLength() throws IOException {
        TestMinidumpWriter w = aDump();
        byte[] bytes = w.build();
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int name = b.getInt((int) w.streamOffset(4) + 4 + 20);
        b.putInt(name, 27);
        assertRefused(write(bytes), name, "the name of module 0 is 27 bytes long");
        b.putInt(name, 0x7fff_fff0);
        assertRefused(write(bytes), name, "is 2147483632 bytes long");
    }

    @Test
    void refusesAThreadContextPastTheEndOfTheFile() throws IOException {
        TestMinidumpWriter w = aDump();
        byte[] bytes = w.build();
        long thread = w.streamOffset(3) + 4;
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt((int) thread + 44, 0x7000_0000);
        assertRefused(write(bytes), thread + 40, "the context of thread 4242", "past the end of the file");
    }

    @Test
    void refusesATypeNameLineOfAnotherForm() throws IOException {
        TestMinidumpWriter w = aDump().typeNames("0x7f3900001000 System.String\nSystem.Object at 0x7f3900002000\n");
        byte[] bytes = w.build();
        assertRefused(write(bytes), w.streamOffset(0x636c7268) + 29, "is not '0x<MethodTable> <name>'", "System.Object at");
    }

    @Test
    void refusesAMethodTableNamedTwice() throws IOException {
        TestMinidumpWriter w = aDump().typeNames("0x10 A\n0x10 B\n");
        byte[] bytes = w.build();
        assertRefused(write(bytes), w.streamOffset(0x636c7268) + 7, "MethodTable 0x10 is named twice");
    }

    @Test
    void refusesATypeNameStreamThatIsNotUtf8OrEndsMidLine() throws IOException {
        TestMinidumpWriter bad = aDump().typeNames("0x10 A\n0x20 B");
        byte[] bytes = bad.build();
        assertRefused(write(bytes), bad.streamOffset(0x636c7268) + 7, "last line has no line feed");
        TestMinidumpWriter latin = aDump().typeNames("0x10 A\n");
        byte[] raw = latin.build();
        raw[(int) latin.streamOffset(0x636c7268) + 5] = (byte) 0xff;
        assertRefused(write(raw), latin.streamOffset(0x636c7268), "not UTF-8");
    }

    @Test
    void refusesEveryTruncationOfAValidDump() throws IOException {
        byte[] bytes = aDump().build();
        for (int length = 0; length < bytes.length; length += length < 0x400 ? 1 : 13) {
            Path file = write(Arrays.copyOf(bytes, length));
            int cut = length;
            assertThatThrownBy(() -> Minidump.open(file).close()).as("cut at %d of %d", cut, bytes.length)
                    .isInstanceOf(MinidumpFormatException.class).hasMessageContaining("at file offset 0x");
        }
    }

    @Test
    void randomDamageIsRefusedOrReadNeverAnotherFailure() throws IOException {
        byte[] good = aDump().build();
        Random random = new Random(20261123);
        Assertions.assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int round = 0; round < 3000; round++) {
                byte[] bytes = good.clone();
                int flips = 1 + random.nextInt(4);
                for (int i = 0; i < flips; i++) {
                    int at = random.nextInt(Math.min(bytes.length, 0x800));
                    bytes[at] = random.nextInt(3) == 0 ? (byte) 0xff : (byte) random.nextInt(256);
                }
                Path file = write(bytes);
                try (Minidump dump = Minidump.open(file)) {
                    for (var r : dump.ranges()) {
                        dump.readByte(r.start());
                        dump.readByte(r.end() - 1);
                    }
                } catch (MinidumpFormatException expected) {
                    assertThat(expected.getMessage()).contains("at file offset 0x");
                }
            }
        });
    }
}
