package io.clrheap.dac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.source.elf.LoadSegment;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.clrheap.dac.walk.DacWalkKind;

/**
 * A DAC that crashes takes only its child process: the caller gets a failed check naming the DAC call, and lives on.
 * The fixture is a copy of a real 9.0.1 workstation dump with one planted NULL: GcDacVars' pointer to
 * {@code current_c_gc_state} (GcDacVars + 0x48), which the DAC dereferences without checking.
 */
class DacCrashTest {

    private static final Path CORE = Path.of("../golden/real/net9-wks/core.xz");
    /** GcDacVars.current_c_gc_state: gcinterface.dacvars.def, seen at this offset in the real 9.0.1 dumps */
    private static final long CURRENT_C_GC_STATE = 0x48;

    @Test
    void aPlantedNullCrashesTheDacInItsChildAndTheCrashNamesTheCall(@TempDir Path dir) throws Exception {
        Path planted = dir.resolve("planted-null.core");
        Target original;
        long slot;
        try (ElfCore dump = ElfCore.open(CORE)) {
            original = new TargetOpener(ProfileLoader.builtIn()).open(dump, dump.mappedFiles(), Optional.empty());
            slot = original.globalPointer("g_gcDacGlobals") + CURRENT_C_GC_STATE;
            Files.copy(dump.path(), planted); // the decompressed core the ElfCore maps
            writeZeroAt(planted, dump, slot);
        }
        try (ElfCore dump = ElfCore.open(planted)) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(dump, dump.mappedFiles(), Optional.empty());
            assertThat(dump.readLong(slot)).isZero();
            DacEngine dac = DacEngine.open(TestDac.path());

            assertThatThrownBy(() -> dac.walk(planted, target, DacWalkKind.SOS, (a, m, s, r) -> { }, DacEngine.DEFAULT_TIMEOUT))
                    .isInstanceOfSatisfying(DacCrashException.class, e -> {
                        assertThat(e.lastCall()).contains("GetGCHeapStaticData");
                        assertThat(e.how()).contains("SIGSEGV");
                    });
        }
        // this JVM is alive and the DAC still reads the untouched dump
        DacHeap heap = DacEngine.open(TestDac.path()).walk(CORE, original, DacWalkKind.SOS, (a, m, s, r) -> { }, DacEngine.DEFAULT_TIMEOUT);
        assertThat(heap.objectCount()).isPositive();
    }

    private static void writeZeroAt(Path core, ElfCore dump, long address) throws IOException {
        LoadSegment segment = dump.loadSegments().stream()
                .filter(s -> Long.compareUnsigned(address - s.vaddr(), s.filesz()) < 0).findFirst().orElseThrow();
        try (RandomAccessFile file = new RandomAccessFile(core.toFile(), "rw")) {
            file.seek(segment.fileOffset() + (address - segment.vaddr()));
            file.write(new byte[8]);
        }
    }
}
