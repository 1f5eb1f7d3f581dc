package io.clrheap.walker.symbols;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.List;
import java.util.Optional;

/**
 * The dynamic symbols of an ELF shared object or PIE (64-bit, little endian, x86-64), found the way the dynamic
 * loader finds them: ELF header → program headers → {@code PT_DYNAMIC} → {@code DT_SYMTAB}, {@code DT_STRTAB},
 * {@code DT_STRSZ} and {@code DT_GNU_HASH} ({@code DT_HASH} when there is no GNU hash table). No section headers
 * are needed: dumps do not hold them.
 *
 * <p>Symbol addresses are load bias + {@code st_value}; the load bias is the module's base (the start of its
 * file-offset-0 mapping) minus the link-time address of file offset 0, which is 0 for shared objects and PIEs.
 */
public final class ElfDynamicSymbols {

    private static final int ST_NAME = 0;
    private static final int ST_SHNDX = 6;
    private static final int ST_VALUE = 8;
    private static final int ST_SIZE = 16;
    /** Section index of an undefined (imported) symbol (gABI "Special Section Indexes"). */
    private static final int SHN_UNDEF = 0;
    /** Section index of an absolute symbol, whose value is not relocated (gABI "Special Section Indexes"). */
    private static final int SHN_ABS = 0xfff1;
    /** A cap on the string table's size (DT_STRSZ); libcoreclr.so's is under 64 KiB. */
    static final long MAX_STRTAB = 1L << 28;

    private final ImageBytes image;
    private final long symtab;
    private final long strtab;
    private final long strsz;
    private final SymbolHashTable hashTable;
    private List<ElfLoad> loads = List.of();

    /** The process addresses of the module's writable PT_LOAD bytes ({@code p_filesz}): where its initialised .data lies. */
    public List<AddressRange> writableData() {
        List<AddressRange> ranges = new java.util.ArrayList<>();
        for (ElfLoad load : loads) {
            if (load.writable() && load.filesz() > 0) {
                ranges.add(new AddressRange(image.bias() + load.vaddr(), load.filesz()));
            }
        }
        return ranges;
    }

    /** A range of process addresses. */
    public record AddressRange(long start, long length) {
    }

    private ElfDynamicSymbols(ImageBytes image, long symtab, long strtab, long strsz, SymbolHashTable hashTable) {
        this.image = image;
        this.symtab = symtab;
        this.strtab = strtab;
        this.strsz = strsz;
        this.hashTable = hashTable;
    }

    /**
     * The image as mapped in a process (or its dump) at {@code base}, the start of its file-offset-0 mapping. In a
     * live image ld.so has rebased the {@code d_ptr} values to absolute addresses; both forms are accepted (a
     * {@code d_ptr} below {@code base} is link-time).
     *
     * @throws ModuleHeadersMissingException when the ELF header, program headers, dynamic section, string table or
     *                                       hash table are not readable in {@code memory}
     * @throws UncheckedIOException          wrapping a {@link ModuleFormatException} when they are readable but are
     *                                       not those of a 64-bit x86-64 ELF image with dynamic symbols (for
     *                                       example a data file mapped at offset 0)
     */
    public static ElfDynamicSymbols inMemory(Memory memory, long base) throws ModuleHeadersMissingException {
        Objects.requireNonNull(memory, "memory");
        Step step = new Step();
        try {
            return read(new MemoryImage(memory, base), step);
        } catch (MissingMemoryException e) {
            throw new ModuleHeadersMissingException(base, missing(base, step, e));
        } catch (ModuleFormatException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The same image read from its file on disk (for dumps that lack the module's headers), as mapped at
     * {@code base}: addresses are {@code base + st_value}. The file is memory-mapped, never read whole.
     *
     * @throws ModuleFormatException when the file is not a 64-bit x86-64 ELF image with dynamic symbols, or is
     *                               corrupt
     */
    public static ElfDynamicSymbols fromFile(Path file, long base) throws IOException {
        return read(FileImage.map(file, base), new Step());
    }

    /** What the parser was reading, for the message when its bytes turn out to be missing. */
    private static final class Step {
        String what = "the ELF header and program headers";
        long location;
    }

    private static String missing(long base, Step step, MissingMemoryException e) {
        if (step.location == base && e.address() == base
                && e.reason() == MissingMemoryException.Reason.NOT_CAPTURED) {
            return "p_filesz = 0"; // the mapping of the headers is a PT_LOAD with no bytes in the dump
        }
        if (e.address() == step.location) {
            return String.format("%s at 0x%x is %s", step.what, step.location, e.reason().text());
        }
        return String.format("%s at 0x%x: 0x%x is %s", step.what, step.location, e.address(), e.reason().text());
    }

    private static ElfDynamicSymbols read(ImageBytes image, Step step) throws ModuleFormatException {
        step.location = image.atFileOffset(0);
        ModuleHeaders headers = ModuleHeaders.read(image);
        image.useLoadSegments(headers.loads());

        step.what = "the dynamic section";
        step.location = image.atLinkAddress(headers.dynamicAddress(), step.what);
        DynamicSection dynamic = DynamicSection.read(image, step.location, headers.dynamicSize());

        step.what = "the DT_STRTAB string table";
        long strtab = image.atDynamicPointer(dynamic.strtab(), "DT_STRTAB");
        step.location = strtab;
        if (Long.compareUnsigned(dynamic.strsz(), MAX_STRTAB) > 0) {
            throw image.error(strtab, String.format(
                    "DT_STRSZ is %d bytes, more than the limit of %d", dynamic.strsz(), MAX_STRTAB));
        }
        image.requireTable(strtab, dynamic.strsz(), "the string table (DT_STRSZ " + dynamic.strsz() + ")");

        step.what = "the DT_SYMTAB symbol table";
        long symtab = image.atDynamicPointer(dynamic.symtab(), "DT_SYMTAB");
        step.location = symtab;
        image.requireTable(symtab, DynamicSection.SYMENT, "the first symbol");

        SymbolHashTable table;
        if (dynamic.gnuHash() != 0) {
            step.what = "the DT_GNU_HASH table";
            step.location = image.atDynamicPointer(dynamic.gnuHash(), "DT_GNU_HASH");
            table = GnuHashTable.read(image, step.location);
        } else {
            step.what = "the DT_HASH table";
            step.location = image.atDynamicPointer(dynamic.hash(), "DT_HASH");
            table = SysvHashTable.read(image, step.location);
        }
        ElfDynamicSymbols symbols = new ElfDynamicSymbols(image, symtab, strtab, dynamic.strsz(), table);
        symbols.loads = headers.loads();
        return symbols;
    }

    /**
     * The defined symbol called {@code name}, through the GNU hash table (else {@code DT_HASH}).
     *
     * @throws MissingMemoryException when, in a dump, a symbol or string the lookup needs is not captured
     * @throws UncheckedIOException   wrapping a {@link ModuleFormatException} when the tables are corrupt (a chain
     *                                without its end, a name outside the string table)
     */
    public Optional<DynamicSymbol> lookup(String name) {
        byte[] wanted = name.getBytes(StandardCharsets.UTF_8);
        try {
            long index = hashTable.find(wanted, i -> isDefinedAndNamed(i, wanted));
            if (index < 0) {
                return Optional.empty();
            }
            long symbol = symtab + index * DynamicSection.SYMENT;
            long value = image.u64(symbol + ST_VALUE);
            long address = image.u16(symbol + ST_SHNDX) == SHN_ABS ? value : image.bias() + value;
            return Optional.of(new DynamicSymbol(name, address, image.u64(symbol + ST_SIZE)));
        } catch (ModuleFormatException e) {
            throw new UncheckedIOException(e);
        }
    }

    private boolean isDefinedAndNamed(long index, byte[] wanted) throws ModuleFormatException {
        long symbol = symtab + index * DynamicSection.SYMENT;
        if (image.u16(symbol + ST_SHNDX) == SHN_UNDEF) {
            return false; // an import: DT_HASH chains hold them, and they have no address in this module
        }
        long nameOffset = image.u32(symbol + ST_NAME);
        if (nameOffset >= strsz) {
            throw image.error(symbol, String.format(
                    "symbol %d's st_name 0x%x is outside the string table (DT_STRSZ 0x%x)", index, nameOffset, strsz));
        }
        if (wanted.length + 1 > strsz - nameOffset) {
            return false; // the name and its NUL would not fit in the table
        }
        byte[] actual = image.bytes(strtab + nameOffset, wanted.length + 1);
        return actual[wanted.length] == 0 && Arrays.equals(actual, 0, wanted.length, wanted, 0, wanted.length);
    }

    @Override
    public String toString() {
        return "ElfDynamicSymbols[" + image.name() + "]";
    }
}
