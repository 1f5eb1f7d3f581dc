package io.clrheap.walker.source.elf;

import io.clrheap.walker.source.DumpFormatException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hostile and broken cores: each is refused with a {@link DumpFormatException} naming the file and the offset. */
class ElfCoreRejectionTest {

    private static final long A = 0x7f0000010000L;

    @TempDir
    Path dir;

    private static TestCoreWriter aCore() {
        return new TestCoreWriter()
                .ntFile(0x1000, List.of(new MappedFile(A, A + 0x1000, 0, "/lib/libx.so")))
                .prstatus(100, 1, 2)
                .load(A, TestCoreWriter.pattern(0x100, 0));
    }

    private Path write(byte[] bytes) throws IOException {
        return Files.write(dir.resolve("bad.core"), bytes);
    }

    private Path patched(TestCoreWriter writer, Consumer<ByteBuffer> patch) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(writer.build()).order(ByteOrder.LITTLE_ENDIAN);
        patch.accept(b);
        return write(b.array());
    }

    private static void assertRefused(Path file, String... fragments) {
        assertThatThrownBy(() -> ElfCore.open(file).close())
                .isInstanceOf(DumpFormatException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContainingAll(fragments);
    }

    @Test
    void refusesAFileThatIsNotElf() throws IOException {
        byte[] text = new byte[100];
        System.arraycopy("NOT AN ELF FILE".getBytes(), 0, text, 0, 15);
        assertRefused(write(text), "not an ELF file", "4e 4f 54 20", "at file offset 0x0");
    }

    @Test
    void refusesA32BitElfFile() throws IOException {
        assertRefused(patched(aCore(), b -> b.put(4, (byte) 1)), "EI_CLASS is 1", "ELFCLASS32", "at file offset 0x4");
    }

    @Test
    void refusesABigEndianElfFile() throws IOException {
        assertRefused(patched(aCore(), b -> b.put(5, (byte) 2)), "EI_DATA is 2", "at file offset 0x5");
    }

    @Test
    void refusesAnElfFileThatIsNotACore() throws IOException {
        assertRefused(patched(aCore(), b -> b.putShort(16, (short) 3)), "e_type is 3", "not ET_CORE",
                "at file offset 0x10");
    }

    @Test
    void refusesACoreOfAnotherMachine() throws IOException {
        assertRefused(patched(aCore(), b -> b.putShort(18, (short) 183)), "e_machine is 183", "at file offset 0x12");
    }

    @Test
    void refusesATruncatedElfHeader() throws IOException {
        byte[] whole = aCore().build();
        byte[] truncated = java.util.Arrays.copyOf(whole, 40);
        assertRefused(write(truncated), "truncated ELF header", "0x28 bytes", "at file offset 0x0");
    }

    @Test
    void refusesProgramHeadersThatRunPastTheEndOfTheFile() throws IOException {
        assertRefused(patched(aCore(), b -> b.putShort(TestCoreWriter.E_PHNUM, (short) 4000)),
                "e_phnum = 4000 program headers", "past the end of the file", "at file offset 0x38");
    }

    @Test
    void refusesMoreProgramHeadersThanTheLimit() throws IOException {
        Path file = aCore().write(dir.resolve("core"));
        assertThatThrownBy(() -> ElfCore.open(file, n -> { }, new ElfCoreLimits(1, 1 << 20, 100)))
                .isInstanceOf(DumpFormatException.class)
                .hasMessageContaining("declares 2 program headers, more than the limit of 1");
    }

    @Test
    void refusesAnExtendedProgramHeaderCountWhoseSectionHeaderIsMissing() throws IOException {
        // e_phnum = PN_XNUM sends the reader to section header 0 at e_shoff, here far past the end
        assertRefused(patched(aCore(), b -> {
            b.putShort(TestCoreWriter.E_PHNUM, (short) 0xffff);
            b.putLong(40, 0x100000);
        }), "section header 0", "at file offset 0x100000");
    }

    @Test
    void refusesALoadSegmentWhoseBytesRunPastTheEndOfTheFile() throws IOException {
        TestCoreWriter writer = aCore();
        int ph = writer.loadHeaderOffset(0);
        assertRefused(patched(writer, b -> {
            b.putLong(ph + 32, 0x10000);
            b.putLong(ph + 40, 0x10000);
        }), "PT_LOAD program header", "p_filesz 0x10000 runs past the end of the file",
                String.format("at file offset 0x%x", ph));
    }

    @Test
    void refusesALoadSegmentWithMoreFileBytesThanMemoryBytes() throws IOException {
        TestCoreWriter writer = aCore();
        int ph = writer.loadHeaderOffset(0);
        assertRefused(patched(writer, b -> b.putLong(ph + 40, 0x10)), "p_filesz 0x100 larger than p_memsz 0x10");
    }

    @Test
    void refusesOverlappingLoadSegments() throws IOException {
        Path file = new TestCoreWriter().load(A, TestCoreWriter.pattern(0x100, 0))
                .load(A + 0x80, TestCoreWriter.pattern(0x100, 0)).write(dir.resolve("core"));
        assertRefused(file, "overlap");
    }

    @Test
    void refusesANoteWhoseSizeRunsPastItsSegment() throws IOException {
        TestCoreWriter writer = aCore();
        int note = writer.notesOffset();
        assertRefused(patched(writer, b -> b.putInt(note + 4, 0x7fff0000)),
                "n_descsz 2147418112 runs past the end of its PT_NOTE segment", String.format("at file offset 0x%x", note));
    }

    @Test
    void refusesAnNtFileCountLargerThanItsNote() throws IOException {
        TestCoreWriter writer = aCore();
        long desc = writer.notesOffset() + 12 + 8;
        assertRefused(patched(writer, b -> b.putLong((int) desc, 1L << 40)),
                "declares 1099511627776 mappings", "holds at most 1 entries", String.format("at file offset 0x%x", desc));
    }

    @Test
    void refusesMoreNtFileEntriesThanTheLimit() throws IOException {
        Path file = new TestCoreWriter().ntFile(0x1000, List.of(
                new MappedFile(A, A + 0x1000, 0, "/a"), new MappedFile(A + 0x1000, A + 0x2000, 0, "/b")))
                .load(A, new byte[16]).write(dir.resolve("core"));
        assertThatThrownBy(() -> ElfCore.open(file, n -> { }, new ElfCoreLimits(100, 1 << 20, 1)))
                .isInstanceOf(DumpFormatException.class)
                .hasMessageContaining("declares 2 mappings, more than the limit of 1");
    }

    @Test
    void refusesAnNtFilePathWithoutItsNul() throws IOException {
        // one entry, "/lib/libx.so\0" padded: overwrite the NUL and the padding so that no NUL is left in the note
        TestCoreWriter writer = aCore();
        int paths = writer.notesOffset() + 12 + 8 + 16 + 24;
        assertRefused(patched(writer, b -> {
            for (int i = 0; i < 4; i++) {
                b.put(paths + 12 + i, (byte) 'x');
            }
        }), "NT_FILE path 0 of 1 has no terminating NUL");
    }

    @Test
    void refusesAPrstatusNoteTooSmallForItsRegisters() throws IOException {
        Path file = new TestCoreWriter().note("CORE", 1, new byte[100]).load(A, new byte[16]).write(dir.resolve("core"));
        assertRefused(file, "NT_PRSTATUS note has n_descsz 100", "(336)");
    }

    @Test
    void anyCorruptionOfASmallCoreIsEitherReadOrRefusedWithADumpFormatException() throws IOException {
        byte[] original = aCore().auxv(6, 0x1000).build();
        Random random = new Random(20260101);
        Path file = dir.resolve("fuzz.core");
        int refused = 0;
        for (int round = 0; round < 3000; round++) {
            byte[] bytes = original.clone();
            int flips = 1 + random.nextInt(4);
            for (int f = 0; f < flips; f++) {
                // mostly the headers and notes, where the counts and sizes are
                int at = random.nextInt(random.nextBoolean() ? Math.min(bytes.length, 600) : bytes.length);
                bytes[at] = (byte) (random.nextBoolean() ? random.nextInt() : bytes[at] ^ (1 << random.nextInt(8)));
            }
            Files.write(file, bytes);
            try (ElfCore core = ElfCore.open(file)) {
                for (var range : core.ranges()) {
                    core.readBytes(range.start(), (int) Math.min(range.length(), 64));
                }
                assertThat(core.threads()).isNotNull();
                assertThat(core.mappedFiles()).isNotNull();
            } catch (DumpFormatException e) {
                assertThat(e.getMessage()).contains(file.toString()).containsPattern("at file offset 0x[0-9a-f]+");
                refused++;
            }
        }
        assertThat(refused).isPositive();
    }
}
