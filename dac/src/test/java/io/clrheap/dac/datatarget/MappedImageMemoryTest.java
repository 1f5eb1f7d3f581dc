package io.clrheap.dac.datatarget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.memory.MissingMemoryException;
import io.clrheap.memory.SegmentMemory;
import io.clrheap.walker.source.elf.MappedFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A dump's missing file mappings read from the files themselves, the dump's own bytes first. */
class MappedImageMemoryTest {

    private static final long PAGE = 4096;
    /** The dump holds one page at DUMP; the file is mapped from FILE_OFFSET at MAPPING, two pages, the first in the dump. */
    private static final long MAPPING = 0x7f00_0000_0000L;
    private static final long FILE_OFFSET = 0x2000;

    @TempDir
    Path folder;

    /** A file of {@code length} bytes whose byte i is (i * 7) & 0xff. */
    private Path image(String name, int length) throws Exception {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 7);
        }
        return Files.write(folder.resolve(name), bytes);
    }

    private MappedImageMemory memory(SegmentMemory dump, String mappedPath) throws Exception {
        return MappedImageMemory.of(dump, List.of(new MappedFile(MAPPING, MAPPING + 2 * PAGE, FILE_OFFSET, mappedPath)), List.of(folder));
    }

    @Test
    void aPageTheDumpLacksIsReadFromTheFileAtTheMappingsOffset() throws Exception {
        image("Lib.dll", 0x4000);
        MappedImageMemory memory = memory(SegmentMemory.allocate(MAPPING, (int) PAGE, "dump"), "/opt/app/Lib.dll");

        long at = MAPPING + PAGE + 0x10;
        long fileByte = FILE_OFFSET + PAGE + 0x10;

        assertThat(memory.contains(at, 8)).isTrue();
        assertThat(memory.readByte(at)).isEqualTo((byte) (fileByte * 7));
    }

    @Test
    void whatTheDumpHoldsWinsOverTheFile() throws Exception {
        image("Lib.dll", 0x4000);
        SegmentMemory dump = SegmentMemory.allocate(MAPPING, (int) PAGE, "dump");
        dump.writeByte(MAPPING + 3, (byte) 0x5a);
        MappedImageMemory memory = memory(dump, "/opt/app/Lib.dll");

        assertThat(memory.readByte(MAPPING + 3)).isEqualTo((byte) 0x5a);
    }

    @Test
    void aReadAcrossTheDumpAndTheFileTakesEachPartFromItsSource() throws Exception {
        image("Lib.dll", 0x4000);
        SegmentMemory dump = SegmentMemory.allocate(MAPPING, (int) PAGE, "dump");
        dump.writeByte(MAPPING + PAGE - 1, (byte) 0x11);
        MappedImageMemory memory = memory(dump, "/opt/app/Lib.dll");

        byte[] two = new byte[2];
        memory.read(MAPPING + PAGE - 1, two, 0, 2);

        assertThat(two).containsExactly((byte) 0x11, (byte) ((FILE_OFFSET + PAGE) * 7));
    }

    @Test
    void theLastPagePastTheFilesEndReadsAsZeros() throws Exception {
        image("Lib.dll", (int) (FILE_OFFSET + PAGE + 4)); // ends 4 bytes into the mapping's second page
        MappedImageMemory memory = memory(SegmentMemory.allocate(MAPPING, (int) PAGE, "dump"), "/opt/app/Lib.dll");

        assertThat(memory.readByte(MAPPING + PAGE + 3)).isEqualTo((byte) ((FILE_OFFSET + PAGE + 3) * 7));
        assertThat(memory.readInt(MAPPING + PAGE + 4)).isZero();
    }

    @Test
    void aMappingWhoseFileIsNotInTheFoldersStaysMissing() throws Exception {
        MappedImageMemory memory = memory(SegmentMemory.allocate(MAPPING, (int) PAGE, "dump"), "/opt/app/Other.dll");

        assertThat(memory.backedMappings()).isZero();
        assertThat(memory.contains(MAPPING + PAGE, 1)).isFalse();
        assertThatThrownBy(() -> memory.readByte(MAPPING + PAGE)).isInstanceOf(MissingMemoryException.class);
    }

    @Test
    void anAddressOutsideEveryMappingAndTheDumpIsMissing() throws Exception {
        image("Lib.dll", 0x4000);
        MappedImageMemory memory = memory(SegmentMemory.allocate(MAPPING, (int) PAGE, "dump"), "/opt/app/Lib.dll");

        assertThat(memory.contains(MAPPING + 2 * PAGE, 1)).isFalse();
        assertThatThrownBy(() -> memory.readLong(MAPPING + 2 * PAGE)).isInstanceOf(MissingMemoryException.class);
    }
}
