package io.clrheap.walker.source.elf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import net.fornwall.jelf.ElfFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real .NET 9.0.1 {@code createdump --withheap} core of the golden corpus ({@code golden/real/net9-withheap}).
 * Expected values were read from it with gdb 13 ({@code info threads}, {@code info registers rip rsp}) and
 * llvm-readelf 14 ({@code -n}).
 */
class RealCoreTest {

    /** Relative to the walker module, where Maven runs the tests. */
    static final Path CORE = Path.of("../golden/real/net9-withheap/core.xz");

    private static ElfCore core;

    @BeforeAll
    static void open() throws IOException {
        Assumptions.assumeTrue(Files.isRegularFile(CORE),
                "skipped: the real dump " + CORE.toAbsolutePath().normalize() + " is not there");
        core = ElfCore.open(CORE, System.out::println);
    }

    @AfterAll
    static void close() {
        if (core != null) {
            core.close();
        }
    }

    @Test
    void hasTheEightThreadsGdbLists() {
        assertThat(core.threads()).hasSize(8);
        assertThat(core.threads().getFirst()).extracting(CoreThread::tid, CoreThread::rip, CoreThread::rsp).containsExactly(tuple(24603, 0x7fe3d07162ecL, 0x7ffe2d78e2a0L).toArray());
        assertThat(core.threads().get(1)).extracting(CoreThread::tid, CoreThread::rip, CoreThread::rsp).containsExactly(tuple(24607, 0x7fe3d071a26fL, 0x7fe350e0ed30L).toArray());
    }

    @Test
    void mapsLibcoreclrFromFileOffsetZeroAtItsBase() {
        assertThat(core.mappedFiles())
                .filteredOn(f -> f.path().endsWith("/libcoreclr.so") && f.fileOffset() == 0)
                .extracting(MappedFile::start)
                .containsExactly(0x7fe3cfe00000L);
        assertThat(core.mappedFiles())
                .filteredOn(f -> f.path().endsWith("/libcoreclr.so") && f.start() == 0x7fe3cfedd000L)
                .extracting(MappedFile::fileOffset)
                .containsExactly(0xdd000L);
    }

    @Test
    void hasAnAuxiliaryVectorWithThePageSize() {
        assertThat(core.auxv()).containsEntry(6L, 0x1000L); // AT_PAGESZ
    }

    @Test
    void readsTheSameHeadersAsJelf() throws IOException {
        ElfFile elf = ElfFile.from(core.path());
        ElfCoreJelfCrossCheckTest.assertSameLoadSegments(core, elf);
        ElfCoreJelfCrossCheckTest.assertSameThreads(core, elf);
        ElfCoreJelfCrossCheckTest.assertSameFileNote(core, elf);
    }

    @Test
    void everyCapturedRangeIsReadableAtBothEnds() {
        assertThat(core.ranges()).isNotEmpty();
        for (var range : core.ranges()) {
            core.readByte(range.start());
            core.readByte(range.end() - 1);
        }
    }
}
