package io.clrheap.golden.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.golden.fuzz.ByteMutator.Field;
import io.clrheap.walker.source.minidump.Minidump;
import io.clrheap.walker.source.minidump.MinidumpFormatException;
import io.clrheap.walker.runtime.TargetOpener;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the minidump reader and what runs after it opens: any bytes either open, find coreclr.dll (or are refused
 * with a TargetException) and walk, or are refused with a {@link MinidumpFormatException} naming the file; never
 * another exception, never more than 1 s.
 */
class MinidumpFuzzTest {

    static final FuzzTarget TARGET = new FuzzTarget() {
        private Path last;

        @Override
        public String name() {
            return "minidump";
        }

        @Override
        public String run(byte[] input) throws Exception {
            last = InputFiles.write(input, ".dmp");
            try (Minidump dump = Minidump.open(last)) {
                return "opened, " + WalkAfterOpen.walk(() -> new TargetOpener(WalkAfterOpen.PROFILES).open(dump));
            }
        }

        @Override
        public String refusal(Throwable thrown) {
            return thrown instanceof MinidumpFormatException ? InputFiles.namesFile(thrown, last)
                    : "not a MinidumpFormatException";
        }
    };

    /**
     * The fields the parser trusts, from a light parse of {@code b}: the header, every stream directory entry
     * (type, size, RVA) and the first 256 bytes of every stream as 4- and 8-byte words (counts, RVAs, BaseRva,
     * memory descriptors, module entries).
     */
    static List<Field> fields(byte[] b) {
        List<Field> fields = new ArrayList<>();
        for (int off = 0; off < 32; off += 4) {
            fields.add(new Field(off, 4));
        }
        long streams = Math.min(ByteMutator.read(b, 8, 4), 64);
        long directory = ByteMutator.read(b, 12, 4);
        for (long i = 0; i < streams && directory >= 0; i++) {
            long entry = directory + i * 12;
            fields.add(new Field(entry, 4));
            fields.add(new Field(entry + 4, 4));
            fields.add(new Field(entry + 8, 4));
            long size = Math.min(ByteMutator.read(b, entry + 4, 4), 256);
            long rva = ByteMutator.read(b, entry + 8, 4);
            for (long o = 0; rva >= 0 && o + 4 <= size; o += 4) {
                fields.add(new Field(rva + o, 4));
                if ((o & 7) == 0 && o + 8 <= size) {
                    fields.add(new Field(rva + o, 8));
                }
            }
        }
        return fields;
    }

    @Test
    void everyRegressionInputIsOpenedOrRefusedWithAMinidumpFormatException() {
        assertThat(FuzzCampaign.replayRegressions(TARGET)).isEmpty();
    }

    @Test
    void mutatedMinidumpsAreOpenedOrRefusedWithinASecondEach() {
        FuzzCampaign.Report report = FuzzCampaign.run(TARGET, (parent, random) -> ByteMutator.mutate(parent, fields(parent), random));
        assertThat(report.findings()).as("inputs that failed (written under target/fuzz-findings/minidump)").isEmpty();
    }
}
