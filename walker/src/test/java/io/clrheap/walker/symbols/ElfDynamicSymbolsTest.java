package io.clrheap.walker.symbols;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.memory.MissingMemoryException;
import io.clrheap.memory.SegmentMemory;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.source.elf.TestCoreWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ElfDynamicSymbolsTest {

    private static final long BASE = 0x7fe3cfe00000L;

    @TempDir
    Path dir;

    /** Three symbols; with 2 buckets at least two share a chain. */
    private static TestSharedObject runtime() {
        return new TestSharedObject()
                .symbol("g_dacTable", 0x1128, 1264)
                .symbol("DotNetRuntimeInfo", 0x1800, 112)
                .symbol("coreclr_initialize", 0x1a00, 0x40);
    }

    private static SegmentMemory inMemory(byte[] image, long base) {
        SegmentMemory memory = SegmentMemory.allocate(base, image.length, "test dump");
        memory.write(base, image, 0, image.length);
        return memory;
    }

    @Test
    void findsASymbolInAnImageWhoseDynamicPointersLdSoRebased() throws Exception {
        ElfDynamicSymbols symbols = ElfDynamicSymbols.inMemory(inMemory(runtime().build(BASE), BASE), BASE);
        assertThat(symbols.lookup("g_dacTable")).contains(new DynamicSymbol("g_dacTable", BASE + 0x1128, 1264));
    }

    @Test
    void findsASymbolInAnImageWithLinkTimeDynamicPointers() throws Exception {
        ElfDynamicSymbols symbols = ElfDynamicSymbols.inMemory(inMemory(runtime().build(0), BASE), BASE);
        assertThat(symbols.lookup("g_dacTable")).contains(new DynamicSymbol("g_dacTable", BASE + 0x1128, 1264));
    }

    @Test
    void findsEverySymbolAlongTheChainsItShares() throws Exception {
        ElfDynamicSymbols symbols = ElfDynamicSymbols.inMemory(inMemory(runtime().buckets(1).build(BASE), BASE), BASE);
        assertThat(symbols.lookup("DotNetRuntimeInfo")).contains(new DynamicSymbol("DotNetRuntimeInfo", BASE + 0x1800, 112));
        assertThat(symbols.lookup("coreclr_initialize")).contains(new DynamicSymbol("coreclr_initialize", BASE + 0x1a00, 0x40));
        assertThat(symbols.lookup("g_dacTable")).isPresent();
    }

    @Test
    void aNameNotInTheTableIsAbsent() throws Exception {
        ElfDynamicSymbols symbols = ElfDynamicSymbols.inMemory(inMemory(runtime().build(BASE), BASE), BASE);
        assertThat(symbols.lookup("g_dacTabl")).isEmpty();
        assertThat(symbols.lookup("g_dacTable2")).isEmpty();
        assertThat(symbols.lookup("")).isEmpty();
    }

    @Test
    void fallsBackToTheSysvHashTableWithoutAGnuOne() throws Exception {
        byte[] image = runtime().sysvHashOnly().buckets(3).build(BASE);
        ElfDynamicSymbols symbols = ElfDynamicSymbols.inMemory(inMemory(image, BASE), BASE);
        assertThat(symbols.lookup("g_dacTable")).contains(new DynamicSymbol("g_dacTable", BASE + 0x1128, 1264));
        assertThat(symbols.lookup("coreclr_initialize")).isPresent();
        assertThat(symbols.lookup("nothing")).isEmpty();
    }

    @Test
    void anUndefinedSymbolIsNotFound() throws Exception {
        byte[] image = runtime().undefined("malloc").sysvHashOnly().buckets(1).build(0);
        ElfDynamicSymbols symbols = ElfDynamicSymbols.inMemory(inMemory(image, BASE), BASE);
        assertThat(symbols.lookup("malloc")).isEmpty();
        assertThat(symbols.lookup("g_dacTable")).isPresent();
    }

    @Test
    void readsTheSameSymbolsFromTheFileAsMappedAtTheBase() throws IOException {
        Path file = Files.write(dir.resolve("libcoreclr.so"), runtime().undefined("malloc").build(0));
        ElfDynamicSymbols symbols = ElfDynamicSymbols.fromFile(file, BASE);
        assertThat(symbols.lookup("g_dacTable")).contains(new DynamicSymbol("g_dacTable", BASE + 0x1128, 1264));
        assertThat(symbols.lookup("DotNetRuntimeInfo")).map(DynamicSymbol::address).contains(BASE + 0x1800);
        assertThat(symbols.lookup("malloc")).isEmpty();
    }

    @Test
    void theHashFunctionsGiveThePublishedValues() {
        // values from Ali Bahrami, "GNU Hash ELF Sections" (Oracle blog): dl_new_hash and the SysV elf_hash
        assertThat(GnuHashTable.hash(bytes(""))).isEqualTo(0x00001505L);
        assertThat(GnuHashTable.hash(bytes("printf"))).isEqualTo(0x156b2bb8L);
        assertThat(GnuHashTable.hash(bytes("exit"))).isEqualTo(0x7c967e3fL);
        assertThat(GnuHashTable.hash(bytes("syscall"))).isEqualTo(0xbac212a0L);
        assertThat(SysvHashTable.hash(bytes("printf"))).isEqualTo(0x077905a6L);
        assertThat(SysvHashTable.hash(bytes("exit"))).isEqualTo(0x0006cf04L);
        assertThat(SysvHashTable.hash(bytes("syscall"))).isEqualTo(0x0b09985cL);
    }

    @Test
    void headersThatAreNotMappedAreMissing() {
        SegmentMemory elsewhere = SegmentMemory.allocate(0x1000, 0x1000, "test dump");
        assertThatThrownBy(() -> ElfDynamicSymbols.inMemory(elsewhere, BASE))
                .isInstanceOfSatisfying(ModuleHeadersMissingException.class,
                        e -> assertThat(e.base()).isEqualTo(BASE))
                .hasMessageStartingWith("the ELF headers of the module mapped at 0x7fe3cfe00000 are not in the dump")
                .hasMessageContaining("not mapped")
                .hasMessageEndingWith("pass the runtime binary with --module FILE");
    }

    @Test
    void headersOfAMappingWithNoBytesInTheDumpAreMissingWithPFileszZero() throws Exception {
        Path file = new TestCoreWriter().load(BASE, 0x2000, new byte[0], 4)
                .load(0x7f0000000000L, new byte[0x100]).write(dir.resolve("core"));
        try (ElfCore core = ElfCore.open(file)) {
            assertThatThrownBy(() -> ElfDynamicSymbols.inMemory(core, BASE))
                    .isInstanceOf(ModuleHeadersMissingException.class)
                    .hasMessage("the ELF headers of the module mapped at 0x7fe3cfe00000 are not in the dump "
                            + "(p_filesz = 0): pass the runtime binary with --module FILE");
        }
    }

    @Test
    void aDynamicSectionThatIsNotCapturedIsMissing() throws Exception {
        TestSharedObject so = runtime();
        byte[] image = so.build(BASE);
        byte[] firstPart = java.util.Arrays.copyOf(image, (int) so.offsetOf("dynamic"));
        Path file = new TestCoreWriter().load(BASE, image.length, firstPart, 4).write(dir.resolve("core"));
        try (ElfCore core = ElfCore.open(file)) {
            assertThatThrownBy(() -> ElfDynamicSymbols.inMemory(core, BASE))
                    .isInstanceOf(ModuleHeadersMissingException.class)
                    .hasMessageContaining(String.format("the dynamic section at 0x%x", BASE + so.offsetOf("dynamic")))
                    .hasMessageContaining("mapped but not captured in the dump");
        }
    }

    @Test
    void aDataFileMappedAtOffsetZeroIsNotAnElfImage() {
        byte[] pe = new byte[0x200];
        pe[0] = 'M';
        pe[1] = 'Z';
        assertThatThrownBy(() -> ElfDynamicSymbols.inMemory(inMemory(pe, BASE), BASE))
                .isInstanceOf(UncheckedIOException.class)
                .cause().isInstanceOf(ModuleFormatException.class)
                .hasMessageContaining("not an ELF image: magic 4d 5a 00 00")
                .hasMessageContaining("at 0x7fe3cfe00000");
    }

    @Test
    void aChainWithoutItsEndBitIsWalkedOnlyUpToTheCap() throws Exception {
        byte[] image = runtime().buckets(1).withoutChainEndBits().build(BASE);
        // room for the whole capped walk: zero chain entries never match and never end the chain
        SegmentMemory memory = SegmentMemory.allocate(BASE, image.length + 4 * GnuHashTable.MAX_CHAIN_WALK + 0x1000,
                "test dump");
        memory.write(BASE, image, 0, image.length);
        ElfDynamicSymbols symbols = ElfDynamicSymbols.inMemory(memory, BASE);
        assertThatThrownBy(() -> symbols.lookup("absent"))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("a DT_GNU_HASH chain runs past 65536 symbols without its end bit");
    }

    @Test
    void aBucketCountBeyondTheFileIsRefusedWithItsOffset() throws IOException {
        TestSharedObject so = runtime();
        byte[] image = so.build(0);
        ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN).putInt((int) so.offsetOf("hash"), 0x00ffffff);
        Path file = Files.write(dir.resolve("libbad.so"), image);
        assertThatThrownBy(() -> ElfDynamicSymbols.fromFile(file, BASE))
                .isInstanceOf(ModuleFormatException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("the DT_GNU_HASH bloom filter and buckets")
                .hasMessageContaining(String.format("at file offset 0x%x", so.offsetOf("hash") + 16));
    }

    @Test
    void aFileThatIsNotElfIsRefused() throws IOException {
        Path file = Files.write(dir.resolve("notes.txt"), "just some text, long enough for a header.......... ok"
                .repeat(2).getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> ElfDynamicSymbols.fromFile(file, BASE))
                .isInstanceOf(ModuleFormatException.class)
                .hasMessageContaining("not an ELF image")
                .hasMessageContaining("at file offset 0x0");
    }

    @Test
    void aTruncatedFileIsRefused() throws IOException {
        Path file = Files.write(dir.resolve("lib.so"), java.util.Arrays.copyOf(runtime().build(0), 40));
        assertThatThrownBy(() -> ElfDynamicSymbols.fromFile(file, BASE))
                .isInstanceOf(ModuleFormatException.class)
                .hasMessageContaining("the ELF header (0x40 bytes) runs past the end of the file (0x28 bytes)");
    }

    @Test
    void anyCorruptionOfAnImageIsReadOrRefusedWithTheDocumentedExceptions() throws IOException {
        byte[] original = runtime().undefined("malloc").build(0);
        Random random = new Random(7);
        Path file = dir.resolve("fuzz.so");
        int refused = 0;
        for (int round = 0; round < 2000; round++) {
            byte[] image = original.clone();
            for (int f = 1 + random.nextInt(4); f > 0; f--) {
                int at = random.nextInt(0x300); // headers, symbols, strings, dynamic section, hash table
                image[at] = (byte) (random.nextBoolean() ? random.nextInt() : image[at] ^ (1 << random.nextInt(8)));
            }
            Files.write(file, image);
            try {
                ElfDynamicSymbols symbols = ElfDynamicSymbols.fromFile(file, BASE);
                for (String name : new String[] {"g_dacTable", "DotNetRuntimeInfo", "coreclr_initialize", "malloc", "x"}) {
                    symbols.lookup(name);
                }
            } catch (ModuleFormatException e) {
                assertThat(e.getMessage()).contains(file.toString()).containsPattern("0x[0-9a-f]+");
                refused++;
            } catch (UncheckedIOException e) {
                assertThat(e.getCause()).isInstanceOf(ModuleFormatException.class);
            }
            try {
                ElfDynamicSymbols symbols = ElfDynamicSymbols.inMemory(inMemory(image, BASE), BASE);
                symbols.lookup("g_dacTable");
                symbols.lookup("y");
            } catch (ModuleHeadersMissingException | MissingMemoryException e) {
                assertThat(e.getMessage()).contains("0x");
            } catch (UncheckedIOException e) {
                assertThat(e.getCause()).isInstanceOf(ModuleFormatException.class);
            }
        }
        assertThat(refused).isPositive();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
