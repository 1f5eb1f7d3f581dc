package io.clrheap.walker.symbols;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.source.elf.MappedFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Smoke test on the real .NET 9.0.1 {@code createdump --withheap} core of the golden corpus: libcoreclr.so's
 * dynamic symbols are read from dump memory, where ld.so rebased the dynamic section. The expected {@code g_dacTable}
 * (link address 0x725128, st_size 1264 = 158 entries) is from docs/reference/discovery.md §2.
 */
class RealDumpSymbolsTest {

    /** Relative to the walker module, where Maven runs the tests. */
    private static final Path CORE = Path.of("../golden/real/net9-withheap/core.xz");

    @Test
    void findsGDacTableOfLibcoreclrInDumpMemory() throws Exception {
        Assumptions.assumeTrue(Files.isRegularFile(CORE),
                "skipped: the real dump " + CORE.toAbsolutePath().normalize() + " is not there");
        try (ElfCore core = ElfCore.open(CORE, System.out::println)) {
            assertThat(core.mappedFiles()).extracting(MappedFile::path).anyMatch(p -> p.endsWith("/libcoreclr.so"));
            long base = core.mappedFiles().stream()
                    .filter(f -> f.path().endsWith("/libcoreclr.so") && f.fileOffset() == 0)
                    .findFirst().orElseThrow().start();

            ElfDynamicSymbols symbols = ElfDynamicSymbols.inMemory(core, base);

            assertThat(symbols.lookup("g_dacTable"))
                    .contains(new DynamicSymbol("g_dacTable", base + 0x725128, 1264));
            assertThat(symbols.lookup("no_such_symbol_in_coreclr")).isEmpty();
        }
    }
}
