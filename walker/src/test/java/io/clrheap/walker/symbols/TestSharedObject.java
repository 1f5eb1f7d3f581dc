package io.clrheap.walker.symbols;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a tiny x86-64 ELF shared object for tests, independently of the reader (own offsets and hash functions,
 * from glibc {@code <elf.h>}, the gABI and binutils' layout of .gnu.hash): one PT_LOAD mapping the whole image from
 * file offset 0 at link address 0, one PT_DYNAMIC, a .dynsym, .dynstr, .dynamic and a .gnu.hash (or a SysV .hash).
 */
final class TestSharedObject {

    record Symbol(String name, long value, long size, boolean defined) {
    }

    static final int SYMTAB = 0x100;
    private static final int SYM_SIZE = 24;

    private final List<Symbol> symbols = new ArrayList<>();
    private boolean gnuHash = true;
    private int buckets = 2;
    private boolean chainEndBits = true;
    private final Map<String, Long> layout = new LinkedHashMap<>();

    TestSharedObject symbol(String name, long value, long size) {
        symbols.add(new Symbol(name, value, size, true));
        return this;
    }

    /** An imported symbol (st_shndx = SHN_UNDEF); only a SysV hash table lists it. */
    TestSharedObject undefined(String name) {
        symbols.add(new Symbol(name, 0, 0, false));
        return this;
    }

    TestSharedObject sysvHashOnly() {
        gnuHash = false;
        return this;
    }

    TestSharedObject buckets(int n) {
        buckets = n;
        return this;
    }

    /** Leaves out the end-of-chain bits of the GNU hash chains (a corrupt table). */
    TestSharedObject withoutChainEndBits() {
        chainEndBits = false;
        return this;
    }

    /** File offset (= link address) of a part of the last image built: "dynstr", "hash", "dynamic". */
    long offsetOf(String part) {
        return layout.get(part);
    }

    static long gnuHash(String name) {
        long h = 5381;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h = (h * 33 + (b & 0xff)) & 0xffffffffL;
        }
        return h;
    }

    static long sysvHash(String name) {
        long h = 0;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h = ((h << 4) + (b & 0xff)) & 0xffffffffL;
            long high = h & 0xf0000000L;
            if (high != 0) {
                h ^= high >>> 24;
            }
            h &= ~high & 0xffffffffL;
        }
        return h;
    }

    /**
     * The image with the dynamic section's d_ptr values as in the file ({@code rebaseTo} 0) or as ld.so leaves
     * them in a loaded image (link address + {@code rebaseTo}).
     */
    byte[] build(long rebaseTo) {
        List<Symbol> ordered = new ArrayList<>(symbols);
        if (gnuHash) {
            // .gnu.hash needs the defined symbols after the undefined ones, grouped by bucket (binutils elflink.c)
            ordered.sort(Comparator.comparing((Symbol s) -> s.defined())
                    .thenComparingLong(s -> gnuHash(s.name()) % buckets));
        }
        ByteArrayOutputStream strings = new ByteArrayOutputStream();
        strings.write(0);
        Map<String, Integer> nameOffsets = new LinkedHashMap<>();
        for (Symbol s : ordered) {
            nameOffsets.put(s.name(), strings.size());
            strings.writeBytes(s.name().getBytes(StandardCharsets.UTF_8));
            strings.write(0);
        }
        int symCount = 1 + ordered.size();
        long dynstr = SYMTAB + (long) SYM_SIZE * symCount;
        long dynamic = align8(dynstr + strings.size());
        int dynEntries = 6;
        long hash = dynamic + 16L * dynEntries; // last, so that zeros follow its chains
        byte[] hashTable = gnuHash ? gnuHashTable(ordered) : sysvHashTable(ordered);
        long end = hash + hashTable.length;
        layout.put("dynstr", dynstr);
        layout.put("hash", hash);
        layout.put("dynamic", dynamic);

        ByteBuffer b = ByteBuffer.allocate((int) Math.max(end, 0x2000)).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0});
        b.putShort(16, (short) 3);            // ET_DYN
        b.putShort(18, (short) 62);           // EM_X86_64
        b.putInt(20, 1);
        b.putLong(32, 64);                    // e_phoff
        b.putShort(52, (short) 64);
        b.putShort(54, (short) 56);
        b.putShort(56, (short) 2);            // e_phnum
        b.putInt(64, 1);                      // PT_LOAD: the whole image, offset 0 at link address 0
        b.putInt(68, 6);
        b.putLong(64 + 32, b.capacity());
        b.putLong(64 + 40, b.capacity());
        b.putInt(120, 2);                     // PT_DYNAMIC
        b.putInt(124, 6);
        b.putLong(120 + 8, dynamic);
        b.putLong(120 + 16, dynamic);
        b.putLong(120 + 32, 16L * dynEntries);
        b.putLong(120 + 40, 16L * dynEntries);
        for (int i = 0; i < ordered.size(); i++) {
            Symbol s = ordered.get(i);
            int at = SYMTAB + SYM_SIZE * (i + 1);
            b.putInt(at, nameOffsets.get(s.name()));
            b.put(at + 4, (byte) (s.defined() ? 0x11 : 0x12));    // STB_GLOBAL, STT_OBJECT / STT_FUNC
            b.putShort(at + 6, (short) (s.defined() ? 24 : 0));   // a section index, or SHN_UNDEF
            b.putLong(at + 8, s.value());
            b.putLong(at + 16, s.size());
        }
        b.put((int) dynstr, strings.toByteArray());
        b.put((int) hash, hashTable);
        long[][] entries = {
                {gnuHash ? 0x6ffffef5L : 4, hash + rebaseTo},
                {5, dynstr + rebaseTo},
                {6, SYMTAB + rebaseTo},
                {10, strings.size()},
                {11, SYM_SIZE},
                {0, 0}};
        for (int i = 0; i < entries.length; i++) {
            b.putLong((int) dynamic + 16 * i, entries[i][0]);
            b.putLong((int) dynamic + 16 * i + 8, entries[i][1]);
        }
        return b.array();
    }

    private byte[] gnuHashTable(List<Symbol> ordered) {
        int firstDefined = 1 + (int) ordered.stream().filter(s -> !s.defined()).count();
        List<Symbol> defined = ordered.subList(firstDefined - 1, ordered.size());
        ByteBuffer b = ByteBuffer.allocate(16 + 8 + 4 * buckets + 4 * defined.size()).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(buckets).putInt(firstDefined).putInt(1).putInt(6);
        b.putLong(-1L);                       // a bloom word with every bit set: never rules a name out
        int chains = 24 + 4 * buckets;
        for (int i = 0; i < defined.size(); i++) {
            long h = gnuHash(defined.get(i).name());
            int bucket = (int) (h % buckets);
            if (b.getInt(24 + 4 * bucket) == 0) {
                b.putInt(24 + 4 * bucket, firstDefined + i);
            }
            boolean last = i + 1 == defined.size() || gnuHash(defined.get(i + 1).name()) % buckets != bucket;
            b.putInt(chains + 4 * i, (int) ((h & ~1L) | (last && chainEndBits ? 1 : 0)));
        }
        return b.array();
    }

    private byte[] sysvHashTable(List<Symbol> ordered) {
        int nchain = 1 + ordered.size();
        ByteBuffer b = ByteBuffer.allocate(8 + 4 * buckets + 4 * nchain).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(buckets).putInt(nchain);
        int chains = 8 + 4 * buckets;
        for (int i = ordered.size(); i >= 1; i--) {  // push each symbol on the front of its bucket's chain
            int bucket = (int) (sysvHash(ordered.get(i - 1).name()) % buckets);
            b.putInt(chains + 4 * i, b.getInt(8 + 4 * bucket));
            b.putInt(8 + 4 * bucket, i);
        }
        return b.array();
    }

    private static long align8(long n) {
        return (n + 7) & ~7L;
    }
}
