package io.clrheap.walker.source.elf;

import io.clrheap.walker.source.OsThread;
import io.clrheap.walker.source.Register;
import io.clrheap.walker.source.RegisterSet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.memory.MemoryRange;
import io.clrheap.memory.MissingMemoryException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ElfCoreTest {

    private static final long A = 0x7f0000010000L;     // a fully captured page
    private static final long B = A + 0x1000;          // adjacent to A, captured
    private static final long C = 0x7f0000020000L;     // 0x2000 mapped, the first 0x800 captured
    private static final long D = 0x7f0000030000L;     // mapped, nothing captured (p_filesz = 0)

    @TempDir
    Path dir;

    private ElfCore core;

    @AfterEach
    void close() {
        if (core != null) {
            core.close();
        }
    }

    private ElfCore open(TestCoreWriter writer) throws IOException {
        core = ElfCore.open(writer.write(dir.resolve("test.core")));
        return core;
    }

    /** Segments added out of address order, as the reader must not assume any order. */
    private static TestCoreWriter fourSegments() {
        return new TestCoreWriter()
                .load(C, 0x2000, TestCoreWriter.pattern(0x800, 3), 4)
                .load(B, TestCoreWriter.pattern(0x1000, 2))
                .load(D, 0x1000, new byte[0], 4)
                .load(A, TestCoreWriter.pattern(0x1000, 1));
    }

    @Test
    void readsTheCapturedBytesOfASegmentLittleEndian() throws IOException {
        ElfCore core = open(fourSegments());
        // segment A holds bytes (i + 1): at offset 0x10 they are 0x11 0x12 ... 0x18
        assertThat(core.readByte(A + 0x10)).isEqualTo((byte) 0x11);
        assertThat(core.readShort(A + 0x10)).isEqualTo((short) 0x1211);
        assertThat(core.readInt(A + 0x10)).isEqualTo(0x14131211);
        assertThat(core.readLong(A + 0x10)).isEqualTo(0x1817161514131211L);
        assertThat(core.readBytes(C + 0x7fe, 2)).containsExactly((byte) (0x7fe + 3), (byte) (0x7ff + 3));
    }

    @Test
    void aMappedAddressPastFileszIsNotCaptured() throws IOException {
        ElfCore core = open(fourSegments());
        assertThatThrownBy(() -> core.readLong(C + 0x800))
                .isInstanceOfSatisfying(MissingMemoryException.class, e -> {
                    assertThat(e.reason()).isEqualTo(MissingMemoryException.Reason.NOT_CAPTURED);
                    assertThat(e.address()).isEqualTo(C + 0x800);
                })
                .hasMessageContaining("0x7f0000020800").hasMessageContaining("test.core");
        assertThatThrownBy(() -> core.readByte(D + 0x10))
                .isInstanceOfSatisfying(MissingMemoryException.class,
                        e -> assertThat(e.reason()).isEqualTo(MissingMemoryException.Reason.NOT_CAPTURED));
    }

    @Test
    void anAddressInNoSegmentIsNotMapped() throws IOException {
        ElfCore core = open(fourSegments());
        for (long address : new long[] {A - 8, C + 0x2000, 0, -8}) {
            assertThatThrownBy(() -> core.readLong(address))
                    .isInstanceOfSatisfying(MissingMemoryException.class,
                            e -> assertThat(e.reason()).isEqualTo(MissingMemoryException.Reason.NOT_MAPPED));
        }
    }

    @Test
    void aReadAcrossTwoAdjacentSegmentsJoinsTheirBytes() throws IOException {
        ElfCore core = open(fourSegments());
        // the last 4 bytes of A are 0x00 0x01 0x02 0x03 + 1 ... (i + 1) for i = 0xffc..0xfff; B starts with 2, 3, 4, 5
        assertThat(core.readLong(B - 4)).isEqualTo(0x0504030200fffefdL);
        byte[] bytes = core.readBytes(B - 2, 4);
        assertThat(bytes).containsExactly((byte) 0xff, (byte) 0x00, (byte) 0x02, (byte) 0x03);
        assertThat(core.readInt(B - 2)).isEqualTo(0x030200ff);
        assertThat(core.readShort(B - 1)).isEqualTo((short) 0x0200);
    }

    @Test
    void aReadRunningFromCapturedIntoUncapturedBytesFailsAtTheFirstMissingByte() throws IOException {
        ElfCore core = open(fourSegments());
        assertThatThrownBy(() -> core.readLong(C + 0x7fc))
                .isInstanceOfSatisfying(MissingMemoryException.class, e -> {
                    assertThat(e.reason()).isEqualTo(MissingMemoryException.Reason.NOT_CAPTURED);
                    assertThat(e.address()).isEqualTo(C + 0x7fc);
                    assertThat(e.length()).isEqualTo(8);
                });
        assertThatThrownBy(() -> core.readBytes(B + 0xff0, 0x20))   // B ends at 0x7f0000012000, nothing follows
                .isInstanceOfSatisfying(MissingMemoryException.class,
                        e -> assertThat(e.reason()).isEqualTo(MissingMemoryException.Reason.NOT_MAPPED));
    }

    @Test
    void containsIsTrueOnlyWhenEveryByteIsCaptured() throws IOException {
        ElfCore core = open(fourSegments());
        assertThat(core.contains(A, 0x2000)).isTrue();          // A and B together
        assertThat(core.contains(A, 0x2001)).isFalse();
        assertThat(core.contains(C, 0x800)).isTrue();
        assertThat(core.contains(C, 0x801)).isFalse();
        assertThat(core.contains(D, 1)).isFalse();
        assertThat(core.contains(A - 1, 2)).isFalse();
        assertThat(core.contains(-1L, 2)).isFalse();             // wraps past the top
    }

    @Test
    void rangesAreTheCapturedBytesWithAdjacentSegmentsCoalesced() throws IOException {
        ElfCore core = open(fourSegments());
        assertThat(core.ranges()).containsExactly(new MemoryRange(A, 0x2000), new MemoryRange(C, 0x800));
    }

    @Test
    void loadSegmentsAreEveryPtLoadSortedByAddress() throws IOException {
        ElfCore core = open(fourSegments());
        assertThat(core.loadSegments()).extracting(LoadSegment::vaddr).containsExactly(A, B, C, D);
        LoadSegment c = core.loadSegments().get(2);
        assertThat(c.memsz()).isEqualTo(0x2000);
        assertThat(c.filesz()).isEqualTo(0x800);
        assertThat(c.flags()).isEqualTo(LoadSegment.PF_R);
        assertThat(core.readByte(C)).isEqualTo(Files.readAllBytes(core.path())[(int) c.fileOffset()]);
    }

    @Test
    void describesItselfByTheFileName() throws IOException {
        assertThat(open(fourSegments()).describe()).isEqualTo("test.core");
    }

    @Test
    void readsTheNtFileMappingsWithByteOffsets() throws IOException {
        List<MappedFile> files = List.of(
                new MappedFile(0x7f0000100000L, 0x7f0000105000L, 0, "/usr/share/dotnet/libcoreclr.so"),
                new MappedFile(0x7f0000105000L, 0x7f0000200000L, 0x5000, "/usr/share/dotnet/libcoreclr.so"),
                new MappedFile(0x7f0000300000L, 0x7f0000301000L, 0x3000, "/tmp/ünïcode name"));
        ElfCore core = open(new TestCoreWriter().ntFile(0x1000, files).load(A, TestCoreWriter.pattern(16, 0)));
        assertThat(core.mappedFiles()).containsExactlyElementsOf(files);
    }

    @Test
    void readsOneThreadPerPrstatusWithTidRipAndRsp() throws IOException {
        ElfCore core = open(new TestCoreWriter()
                .prstatus(24603, 0x7fe3d07162ecL, 0x7ffe2d78e2a0L)
                .note("CORE", 2, new byte[512])                       // NT_FPREGSET: not a thread
                .note("LINUX", 1, new byte[336])                      // another owner's type 1: not a thread
                .prstatus(24607, 0x7fe3d071a26fL, 0x7fe350e0ed30L)
                .load(A, TestCoreWriter.pattern(16, 0)));
        assertThat(core.threads()).extracting(CoreThread::tid, CoreThread::rip, CoreThread::rsp).containsExactly(
                tuple(24603, 0x7fe3d07162ecL, 0x7ffe2d78e2a0L),
                tuple(24607, 0x7fe3d071a26fL, 0x7fe350e0ed30L));
        RegisterSet r = core.threads().getFirst().registers();
        assertThat(List.of(r.get(Register.R15), r.get(Register.RBX), r.get(Register.RAX), r.get(Register.RCX)))
                .as("user_regs_struct order").containsExactly(0xf15L, 0xb0bL, 0xa0aL, 0L);
        assertThat(core.osThreads()).extracting(OsThread::osId, OsThread::registers, OsThread::stackBase)
                .containsExactly(tuple(24603L, r, 0L), tuple(24607L, core.threads().get(1).registers(), 0L));
    }

    @Test
    void readsTheAuxiliaryVectorUpToAtNull() throws IOException {
        ElfCore core = open(new TestCoreWriter()
                .auxv(33, 0x7fffd0c25000L, 6, 0x1000, 7, 0x7fe3d0c27000L)   // AT_SYSINFO_EHDR, AT_PAGESZ, AT_BASE
                .load(A, TestCoreWriter.pattern(16, 0)));
        assertThat(core.auxv()).containsExactly(
                Map.entry(33L, 0x7fffd0c25000L), Map.entry(6L, 0x1000L), Map.entry(7L, 0x7fe3d0c27000L));
    }

    @Test
    void aCoreWithoutNotesHasNoMappingsThreadsOrAuxv() throws IOException {
        ElfCore core = open(new TestCoreWriter().load(A, TestCoreWriter.pattern(16, 0)));
        assertThat(core.mappedFiles()).isEmpty();
        assertThat(core.threads()).isEmpty();
        assertThat(core.auxv()).isEmpty();
    }

    @Test
    void readsASegmentWhoseBytesLieBeyondTwoGibibytesInTheFile() throws IOException {
        long far = 0x8000_0000L + 0x1000_0000L; // 2.25 GiB: past any int offset; the file is sparse
        ElfCore core = open(new TestCoreWriter().dataStart(far)
                .load(A, TestCoreWriter.pattern(0x1000, 7))
                .load(B, TestCoreWriter.pattern(0x1000, 9)));
        assertThat(Files.size(core.path())).isGreaterThan(far);
        assertThat(core.loadSegments().getFirst().fileOffset()).isEqualTo(far);
        assertThat(core.readLong(B + 8)).isEqualTo(0x1817161514131211L);
        assertThat(core.readInt(B - 2)).isEqualTo(0x0a090605);
    }

    @Test
    void readsAfterCloseAreRefused() throws IOException {
        ElfCore core = open(fourSegments());
        core.close();
        assertThatThrownBy(() -> core.readLong(A)).isInstanceOf(IllegalStateException.class);
        this.core = null;
    }
}
