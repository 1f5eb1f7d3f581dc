package io.clrheap.golden.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.golden.fuzz.ByteMutator.Field;
import io.clrheap.walker.source.DumpFormatException;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.runtime.TargetOpener;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the ELF core reader and what runs after it opens: any bytes either open, find the runtime (or are refused
 * with a TargetException) and walk, or are refused with a {@link DumpFormatException} naming the file; never another
 * exception, never more than 1 s.
 */
class ElfCoreFuzzTest {

    static final FuzzTarget TARGET = new FuzzTarget() {
        private Path last;

        @Override
        public String name() {
            return "elf";
        }

        @Override
        public String run(byte[] input) throws Exception {
            last = InputFiles.write(input, ".core");
            try (ElfCore core = ElfCore.open(last)) {
                return "opened, " + WalkAfterOpen.walk(() -> new TargetOpener(WalkAfterOpen.PROFILES).open(core, core.mappedFiles(), Optional.empty()));
            }
        }

        @Override
        public String refusal(Throwable thrown) {
            return thrown instanceof DumpFormatException ? InputFiles.namesFile(thrown, last)
                    : "not a DumpFormatException";
        }
    };

    /** The fields ElfCore trusts, from a light parse of {@code b}: the header, every program header, the note headers. */
    static List<Field> fields(byte[] b) {
        List<Field> fields = new ArrayList<>();
        for (int off : new int[] {4, 5, 6, 7}) {
            fields.add(new Field(off, 1));
        }
        for (int[] f : new int[][] {{16, 2}, {18, 2}, {20, 4}, {32, 8}, {40, 8}, {52, 2}, {54, 2}, {56, 2}, {58, 2}, {60, 2}, {62, 2}}) {
            fields.add(new Field(f[0], f[1]));
        }
        long phoff = ByteMutator.read(b, 32, 8);
        long phnum = Math.min(ByteMutator.read(b, 56, 2), 64);
        for (long i = 0; i < phnum && phoff >= 0; i++) {
            long ph = phoff + i * 56;
            fields.add(new Field(ph, 4));
            for (int o = 8; o < 56; o += 8) {
                fields.add(new Field(ph + o, 8));
            }
            if (ByteMutator.read(b, ph, 4) == 4) { // PT_NOTE: each note's namesz, descsz, type and its first words
                long at = ByteMutator.read(b, ph + 8, 8);
                long end = at + Math.min(ByteMutator.read(b, ph + 32, 8), 1 << 16);
                for (int n = 0; n < 32 && at >= 0 && at + 12 <= end; n++) {
                    fields.add(new Field(at, 4));
                    fields.add(new Field(at + 4, 4));
                    fields.add(new Field(at + 8, 4));
                    long namesz = ByteMutator.read(b, at, 4);
                    long descsz = ByteMutator.read(b, at + 4, 4);
                    long desc = at + 12 + ((namesz + 3) & ~3L);
                    for (int w = 0; w < 8 && w * 8 + 8 <= descsz; w++) {
                        fields.add(new Field(desc + w * 8, 8));
                    }
                    at = desc + ((descsz + 3) & ~3L);
                }
            }
        }
        return fields;
    }

    @Test
    void everyRegressionInputIsOpenedOrRefusedWithADumpFormatException() {
        assertThat(FuzzCampaign.replayRegressions(TARGET)).isEmpty();
    }

    @Test
    void mutatedCoresAreOpenedOrRefusedWithinASecondEach() {
        FuzzCampaign.Report report = FuzzCampaign.run(TARGET, (parent, random) -> ByteMutator.mutate(parent, fields(parent), random));
        assertThat(report.findings()).as("inputs that failed (written under target/fuzz-findings/elf)").isEmpty();
    }
}
