package io.clrheap.walker.symbols;

/**
 * A {@code DT_GNU_HASH} table. Layout, hash function and lookup: Ali Bahrami, "GNU Hash ELF Sections" (Oracle
 * Solaris blog, 2011), and glibc elf/dl-lookup.c ({@code do_lookup_x}, {@code dl_new_hash}) with
 * elf/dl-setup_hash.c:
 * <pre>
 *   u32 nbuckets, symoffset, bloom_size, bloom_shift
 *   u64 bloom[bloom_size]              (ELFCLASS64 words)
 *   u32 buckets[nbuckets]              lowest symbol index with that hash % nbuckets, 0 for none
 *   u32 chain[]                        chain[i - symoffset]: hash of symbol i, bit 0 set on a chain's last symbol
 * </pre>
 */
final class GnuHashTable implements SymbolHashTable {

    /** A cap on buckets: libraries with hundreds of thousands of exports use a few ten thousand. */
    static final long MAX_BUCKETS = 1L << 24;
    /** A cap on bloom words, for the same reason. */
    static final long MAX_BLOOM_WORDS = 1L << 22;
    /**
     * A cap on the symbols walked along one chain: the linker sizes buckets for chains of a few symbols
     * (binutils bfd/elflink.c, compute_bucket_count), so a chain this long means a missing end bit.
     */
    static final int MAX_CHAIN_WALK = 1 << 16;
    private static final int WORD_BITS = 64;

    private final ImageBytes image;
    private final long location;
    private final long nbuckets;
    private final long symoffset;
    private final long bloomWords;
    private final long bloomShift;
    private final long bloom;
    private final long buckets;
    private final long chains;

    private GnuHashTable(ImageBytes image, long location, long nbuckets, long symoffset, long bloomWords,
                         long bloomShift) {
        this.image = image;
        this.location = location;
        this.nbuckets = nbuckets;
        this.symoffset = symoffset;
        this.bloomWords = bloomWords;
        this.bloomShift = bloomShift;
        this.bloom = location + 16;
        this.buckets = bloom + 8 * bloomWords;
        this.chains = buckets + 4 * nbuckets;
    }

    static GnuHashTable read(ImageBytes image, long location) throws ModuleFormatException {
        image.require(location, 16, "the DT_GNU_HASH header");
        long nbuckets = image.u32(location);
        long symoffset = image.u32(location + 4);
        long bloomWords = image.u32(location + 8);
        long bloomShift = image.u32(location + 12);
        if (nbuckets == 0 || nbuckets > MAX_BUCKETS) {
            throw image.error(location, String.format(
                    "the DT_GNU_HASH table has %d buckets (allowed: 1 to %d)", nbuckets, MAX_BUCKETS));
        }
        // glibc masks the bloom index with bloom_size - 1 (elf/dl-setup_hash.c), so it must be a power of two
        if (bloomWords == 0 || bloomWords > MAX_BLOOM_WORDS || Long.bitCount(bloomWords) != 1) {
            throw image.error(location + 8, String.format(
                    "the DT_GNU_HASH table has %d bloom words (allowed: a power of two up to %d)",
                    bloomWords, MAX_BLOOM_WORDS));
        }
        if (bloomShift >= 32) {
            throw image.error(location + 12, String.format(
                    "the DT_GNU_HASH table has bloom_shift %d (a 32-bit hash allows at most 31)", bloomShift));
        }
        GnuHashTable table = new GnuHashTable(image, location, nbuckets, symoffset, bloomWords, bloomShift);
        image.requireTable(table.bloom, 8 * bloomWords + 4 * nbuckets, "the DT_GNU_HASH bloom filter and buckets");
        return table;
    }

    /** The GNU hash: h = h * 33 + c from 5381, over the name's bytes (dl_new_hash), as an unsigned 32-bit value. */
    static long hash(byte[] name) {
        int h = 5381;
        for (byte b : name) {
            h = h * 33 + Byte.toUnsignedInt(b);
        }
        return Integer.toUnsignedLong(h);
    }

    @Override
    public long find(byte[] name, Candidate candidate) throws ModuleFormatException {
        long h = hash(name);
        long word = image.u64(bloom + 8 * ((h / WORD_BITS) & (bloomWords - 1)));
        if (((word >>> (h % WORD_BITS)) & (word >>> ((h >>> bloomShift) % WORD_BITS)) & 1) == 0) {
            return -1; // the bloom filter says no symbol has this hash
        }
        long index = image.u32(buckets + 4 * (h % nbuckets));
        if (index == 0) {
            return -1;
        }
        if (index < symoffset) {
            throw image.error(buckets + 4 * (h % nbuckets), String.format(
                    "a DT_GNU_HASH bucket holds symbol %d, below symoffset %d", index, symoffset));
        }
        for (int walked = 0; walked < MAX_CHAIN_WALK; walked++, index++) {
            long chainHash = image.u32(chains + 4 * (index - symoffset));
            if ((chainHash | 1) == (h | 1) && candidate.matches(index)) {
                return index;
            }
            if ((chainHash & 1) != 0) {
                return -1;
            }
        }
        throw image.error(location, String.format(
                "a DT_GNU_HASH chain runs past %d symbols without its end bit", MAX_CHAIN_WALK));
    }
}
