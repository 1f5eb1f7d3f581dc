package io.clrheap.walker.symbols;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.source.elf.TestCoreWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import net.fornwall.jelf.ElfException;
import net.fornwall.jelf.ElfFile;
import net.fornwall.jelf.ElfSegment;
import net.fornwall.jelf.ElfSymbol;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GNU hash lookup agrees with jelf's reading of .dynsym (through the section headers, a different path) on a
 * real, large shared object: the JDK's own libjvm.so, which every test run has.
 */
class SystemLibraryCrossCheckTest {

    private static final long BASE = 0x7f1234560000L;
    private static final int SHN_ABS = 0xfff1;
    private static final Path LIBJVM = Path.of(System.getProperty("java.home"), "lib", "server", "libjvm.so");

    private static Map<String, ElfSymbol> defined;

    @TempDir
    Path dir;

    @BeforeAll
    static void readWithJelf() throws IOException {
        Assumptions.assumeTrue(Files.isRegularFile(LIBJVM), "skipped: no " + LIBJVM + " (not a Linux JDK)");
        ElfSymbol[] all = ElfFile.from(LIBJVM).getDynamicSymbolTableSection().symbols;
        // names defined once (versioned duplicates would make "the" symbol of a name ambiguous)
        defined = Arrays.stream(all)
                .filter(s -> s.st_shndx != 0)
                .collect(Collectors.groupingBy(SystemLibraryCrossCheckTest::name))
                .entrySet().stream()
                .filter(e -> e.getValue().size() == 1 && !e.getKey().isEmpty())
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().getFirst()));
        assertThat(defined).hasSizeGreaterThan(100);
    }

    private static String name(ElfSymbol symbol) {
        try {
            return symbol.getName();
        } catch (ElfException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void assertAgreesWithJelf(ElfDynamicSymbols symbols) {
        // glibc (elf/dl-lookup.c, SYMBOL_ADDRESS) does not relocate SHN_ABS symbols such as version names
        defined.forEach((name, symbol) -> assertThat(symbols.lookup(name))
                .as(name)
                .contains(new DynamicSymbol(name,
                        (symbol.st_shndx & 0xffff) == SHN_ABS ? symbol.st_value : BASE + symbol.st_value,
                        symbol.st_size)));
        assertThat(symbols.lookup("JNI_CreateJavaVM_but_not_really")).isEmpty();
    }

    @Test
    void everyDefinedSymbolOfLibjvmIsFoundInTheFile() throws IOException {
        assertAgreesWithJelf(ElfDynamicSymbols.fromFile(LIBJVM, BASE));
    }

    @Test
    void everyDefinedSymbolOfLibjvmIsFoundInACoreThatMapsIt() throws Exception {
        // a core holding libjvm.so's PT_LOADs at BASE, as a process would map it (link-time d_ptr values)
        TestCoreWriter writer = new TestCoreWriter();
        ElfFile elf = ElfFile.from(LIBJVM);
        try (FileChannel channel = FileChannel.open(LIBJVM, StandardOpenOption.READ)) {
            for (ElfSegment load : elf.segmentsOfType(1)) {
                ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(load.p_filesz));
                channel.read(bytes, load.p_offset);
                writer.load(BASE + load.p_vaddr, load.p_memsz, bytes.array(), load.p_flags);
            }
        }
        try (ElfCore core = ElfCore.open(writer.write(dir.resolve("libjvm.core")))) {
            assertAgreesWithJelf(ElfDynamicSymbols.inMemory(core, BASE));
        }
    }

}
