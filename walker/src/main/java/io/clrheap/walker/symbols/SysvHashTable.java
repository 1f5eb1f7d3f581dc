package io.clrheap.walker.symbols;

/**
 * A {@code DT_HASH} table (the System V gABI "Hash Table"):
 * <pre>
 *   u32 nbucket, nchain
 *   u32 bucket[nbucket]     first symbol index of each chain, 0 (STN_UNDEF) for none
 *   u32 chain[nchain]       next symbol index on the chain, 0 at its end; nchain = the number of symbols
 * </pre>
 */
final class SysvHashTable implements SymbolHashTable {

    /** A cap on buckets and symbols, far above any real library's. */
    static final long MAX_ENTRIES = 1L << 24;

    private final ImageBytes image;
    private final long location;
    private final long nbucket;
    private final long nchain;
    private final long buckets;
    private final long chains;

    private SysvHashTable(ImageBytes image, long location, long nbucket, long nchain) {
        this.image = image;
        this.location = location;
        this.nbucket = nbucket;
        this.nchain = nchain;
        this.buckets = location + 8;
        this.chains = buckets + 4 * nbucket;
    }

    static SysvHashTable read(ImageBytes image, long location) throws ModuleFormatException {
        image.require(location, 8, "the DT_HASH header");
        long nbucket = image.u32(location);
        long nchain = image.u32(location + 4);
        if (nbucket == 0 || nbucket > MAX_ENTRIES || nchain > MAX_ENTRIES) {
            throw image.error(location, String.format(
                    "the DT_HASH table has %d buckets and %d chain entries (allowed: 1 to %d)",
                    nbucket, nchain, MAX_ENTRIES));
        }
        image.requireTable(location + 8, 4 * (nbucket + nchain), "the DT_HASH buckets and chains");
        return new SysvHashTable(image, location, nbucket, nchain);
    }

    /** The System V ELF hash (gABI "Hash Table", elf_hash), an unsigned 32-bit value. */
    static long hash(byte[] name) {
        long h = 0;
        for (byte b : name) {
            h = (h << 4) + Byte.toUnsignedInt(b);
            long g = h & 0xf0000000L;
            if (g != 0) {
                h ^= g >>> 24;
            }
            h &= ~g & 0xffffffffL;
        }
        return h;
    }

    @Override
    public long find(byte[] name, Candidate candidate) throws ModuleFormatException {
        long index = image.u32(buckets + 4 * (hash(name) % nbucket));
        // a chain visits each symbol at most once, so more than nchain steps means a cycle
        for (long walked = 0; index != 0; walked++) {
            if (index >= nchain || walked > nchain) {
                throw image.error(location, String.format(
                        "a DT_HASH chain reaches symbol %d after %d steps (the table has %d symbols)",
                        index, walked, nchain));
            }
            if (candidate.matches(index)) {
                return index;
            }
            index = image.u32(chains + 4 * index);
        }
        return -1;
    }
}
