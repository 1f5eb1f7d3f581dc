package io.clrheap.walker.source.elf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import net.fornwall.jelf.ElfFile;
import net.fornwall.jelf.ElfNoteSection;
import net.fornwall.jelf.ElfSegment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ElfCore's reading of a core agrees with jelf, an independent ELF parser. */
class ElfCoreJelfCrossCheckTest {

    private static final int PT_LOAD = 1;
    private static final int PT_NOTE = 4;

    @TempDir
    Path dir;

    /** The same PT_LOAD headers, in address order. */
    static void assertSameLoadSegments(ElfCore core, ElfFile elf) {
        List<LoadSegment> theirs = elf.segmentsOfType(PT_LOAD).stream()
                .sorted(Comparator.comparing((ElfSegment s) -> s.p_vaddr, Long::compareUnsigned))
                .map(s -> new LoadSegment(s.p_vaddr, s.p_memsz, s.p_offset, s.p_filesz, s.p_flags))
                .toList();
        assertThat(core.loadSegments()).containsExactlyElementsOf(theirs);
    }

    /** Each NT_PRSTATUS note jelf finds gives one of our threads, with pr_pid read from jelf's desc bytes. */
    static void assertSameThreads(ElfCore core, ElfFile elf) {
        List<Integer> tids = elf.firstSegmentByType(PT_NOTE).notes().stream()
                .filter(n -> n.type == 1 && n.name.equals("CORE"))
                .map(n -> ByteBuffer.wrap(n.descriptorBytes()).order(ByteOrder.LITTLE_ENDIAN).getInt(32))
                .toList();
        assertThat(core.threads()).extracting(CoreThread::tid).containsExactlyElementsOf(tids);
    }

    /** jelf finds exactly one NT_FILE note whose count and page size match our entries. */
    static void assertSameFileNote(ElfCore core, ElfFile elf) {
        List<ElfNoteSection.ElfNote> files = elf.firstSegmentByType(PT_NOTE).notes().stream()
                .filter(n -> n.type == 0x46494c45).toList();
        assertThat(files).hasSize(1);
        ByteBuffer desc = ByteBuffer.wrap(files.getFirst().descriptorBytes()).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(desc.getLong(0)).isEqualTo(core.mappedFiles().size());
        long pageSize = desc.getLong(8);
        for (int i = 0; i < core.mappedFiles().size(); i++) {
            MappedFile f = core.mappedFiles().get(i);
            assertThat(desc.getLong(16 + 24 * i)).isEqualTo(f.start());
            assertThat(desc.getLong(16 + 24 * i + 8)).isEqualTo(f.end());
            assertThat(desc.getLong(16 + 24 * i + 16) * pageSize).isEqualTo(f.fileOffset());
        }
    }

    @Test
    void aWrittenCoreReadsTheSameInJelf() throws IOException {
        Path file = new TestCoreWriter()
                .ntFile(0x1000, List.of(
                        new MappedFile(0x7f0000100000L, 0x7f0000101000L, 0, "/opt/dotnet/libcoreclr.so"),
                        new MappedFile(0x7f0000101000L, 0x7f0000180000L, 0x1000, "/opt/dotnet/libcoreclr.so")))
                .prstatus(31, 0x7f0000100100L, 0x7ffc00000000L)
                .prstatus(32, 0x7f0000100200L, 0x7ffc00100000L)
                .load(0x7f0000101000L, 0x7f000, new byte[0], 5)
                .load(0x7f0000100000L, TestCoreWriter.pattern(0x1000, 0))
                .load(0x7ffc00000000L, 0x2000, TestCoreWriter.pattern(0x1000, 1), 6)
                .write(dir.resolve("core"));
        ElfFile elf = ElfFile.from(file);
        try (ElfCore core = ElfCore.open(file)) {
            assertSameLoadSegments(core, elf);
            assertSameThreads(core, elf);
            assertSameFileNote(core, elf);
        }
    }
}
