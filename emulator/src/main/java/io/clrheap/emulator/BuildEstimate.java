package io.clrheap.emulator;

import io.clrheap.emulator.scenario.Feature;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.scenario.Step;
import io.clrheap.emulator.scenario.TypeDef;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.profile.ProfileLoader;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What building a scenario will take, worked out from the scenario alone (no build): an upper bound, within a small
 * factor, of the process memory the build writes ({@link io.clrheap.emulator.space.AddressSpace#allocatedBytes()}:
 * native memory, outside the Java heap and not bounded by {@code -Xmx}), of the Java heap its ground truth takes, and
 * of the disk each output takes. Cheap: it adds up the expected sizes of the populations and the program's allocations
 * (no object is drawn), so a scenario of 10^9 objects is estimated in milliseconds.
 *
 * <p>How: every object costs its aligned size, except an array whose elements are never written (zeros: byte, int,
 * long, struct and multi-dimensional arrays), which costs at most one 64 KiB chunk however large it is (untouched
 * memory takes nothing); strings (their characters), reference arrays and classes (their reference fields) are written
 * whole. Each region adds a chunk for its partly used ends, and the runtime's own structures (module, MethodTables,
 * threads, handle tables, region descriptors) a fixed amount per process, heap and thread, measured on the built-in
 * scenarios with room to spare. Collections free nothing in the emulator's memory (regions are not given back), so
 * they are not counted.
 *
 * @param objects          objects the answer key will list at most: the declared ones, free objects, LOH padding
 * @param memoryBytes      process memory one build writes (native memory)
 * @param groundTruthBytes Java heap the ground truth of one build takes
 * @param elfBytes         the ELF core's file size
 * @param minidumpBytes    the minidump's file size
 * @param answerKeyBytes   the answer key folder's size (objects.tsv is one line an object)
 * @param bundleBytes      the fixture bundle's size (xz of the memory and the answer key; stored uncompressed at worst)
 */
public record BuildEstimate(long objects, long memoryBytes, long groundTruthBytes, long elfBytes, long minidumpBytes, long answerKeyBytes,
                            long bundleBytes) {

    /** The address space's unit of native memory (AddressSpace.CHUNK_SIZE). */
    static final long CHUNK = 64 << 10;
    /** What every process writes besides its heaps: the module image, loader heap, GC statics (measured: about 700 KiB). */
    static final long PROCESS_BASE = 768 << 10;
    /**
     * Per heap: gc_heap, its generation table, the descriptors and first chunks of its first five regions, its handle
     * table's segments (measured: about 256 KiB a heap on sixty-four-heaps).
     */
    static final long PER_HEAP = 5 * CHUNK;
    /**
     * Per thread: the Thread object, its thread-local block (measured: about 4 KiB a thread), and its stack, one chunk
     * (ProcessLayout.THREAD_STACK_SIZE).
     */
    static final long PER_THREAD = (8 << 10) + CHUNK;
    /** Features' own objects (the 600 KiB gap, 1,300 Leafs, the edge cases): a few chunks. */
    static final long FEATURES = 2 * CHUNK;
    /** Room on top of the sum: the estimate bounds what the built-in scenarios write (BuildEstimateTest) with this to spare. */
    static final double MARGIN = 1.1;
    private static final long ALIGNMENT = 8;
    private static final long MIN_OBJECT = 24;
    /** Quantiles an estimate of a length distribution's mean takes (upper Riemann sum: the sizes rise with the quantile). */
    private static final int QUANTILES = 1024;
    /** One line of objects.tsv without the type name: two addresses, size, generation, heap, kind, five tabs and a newline. */
    private static final long LINE_WITHOUT_NAME = 14 + 14 + 20 + 6 + 2 + 7 + 6 + 1;

    private static final Map<String, RuntimeLayout> LAYOUTS = new HashMap<>();

    /** The estimate of building {@code scenario} with the built-in profiles. */
    public static BuildEstimate of(Scenario scenario) {
        RuntimeLayout layout;
        synchronized (LAYOUTS) {
            layout = LAYOUTS.computeIfAbsent(scenario.runtime() + "/" + scenario.gc(),
                    k -> ProfileLoader.builtIn().load(scenario.runtime(), scenario.gc()));
        }
        return of(scenario, layout);
    }

    static BuildEstimate of(Scenario s, RuntimeLayout layout) {
        long basicRegion = layout.constant("region.basic_size");
        long largeRegion = layout.constant("region.large_size");
        long lohThreshold = layout.constant("loh.threshold");
        long padSize = layout.constant("loh.pad_size");
        Map<String, TypeDef> types = new HashMap<>();
        TypeDef.BUILT_IN.forEach(t -> types.put(t.name(), t));
        s.types().forEach(t -> types.put(t.name(), t));
        long longestName = types.keySet().stream().mapToLong(n -> n.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).max().orElse(0);
        longestName = Math.max(longestName, "Free".length());

        // bytes of small-object regions (they decide the region count) and of large regions, and the memory they cost
        Tally small = new Tally();
        Tally large = new Tally();
        long lines = 0;
        long truthBytes = 0;

        // the mixed population: gen2, gen1 (garbage in between survivors costs its bytes: a free object spans it), gen0
        double mixStep = 0;
        double mixTruth = 0;
        for (TypeDef t : TypeDef.SMALL_MIX) {
            int lengths = t.hasComponents() ? (t.shape() == TypeDef.Shape.STRING ? 48 : 64) : 1;
            double sum = 0;
            for (int n = 0; n < lengths; n++) {
                sum += step(t.size(t.hasComponents() ? n : 0));
            }
            mixStep += sum / lengths / TypeDef.SMALL_MIX.size();
            mixTruth += (t.hasComponents() ? 2.0 : 1.0) / TypeDef.SMALL_MIX.size();
        }
        long mixed = s.gen2Objects() + s.gen1Objects() + s.gen0Objects();
        small.add(mixed * mixStep, mixed * mixStep);
        // gen0 goes through 8 KiB allocation contexts: each one's rest (under one object) becomes a free object
        double contexts = s.gen0Objects() * mixStep / io.clrheap.emulator.process.ProcessLayout.ALLOCATION_QUANTUM;
        small.add(contexts * 600, contexts * 600);
        lines += mixed + (long) Math.ceil(mixed * s.garbage()) + (long) Math.ceil(contexts);
        truthBytes += (long) Math.ceil(mixed * mixTruth + contexts * 3);

        // LOH: byte[] or long[] of 85,000 to 170,000 bytes, each after its padding; only the header is written
        large.add(s.lohObjects() * (2.0 * lohThreshold + padSize + 16), s.lohObjects() * (double) Math.min(2 * lohThreshold, CHUNK));
        lines += 2 * s.lohObjects();
        truthBytes += 5 * s.lohObjects();
        // POH: byte[] or long[] of 16 to 2,015 elements; with poh-mixed, every fourth one also a byte[] over the threshold
        double pohStep = (step(TypeDef.BYTE_ARRAY.size(1015)) + step(TypeDef.LONG_ARRAY.size(1015))) / 2.0 + ALIGNMENT;
        large.add(s.pohObjects() * pohStep, s.pohObjects() * pohStep);
        lines += s.pohObjects();
        truthBytes += 3 * s.pohObjects();
        if (s.has(Feature.POH_MIXED)) {
            long n = (s.pohObjects() + 3) / 4 + s.heaps();
            large.add(n * (lohThreshold + 50_000.0), n * (double) CHUNK);
            lines += n;
            truthBytes += 4 * n;
        }
        // frozen strings: 1 to 40 characters, written whole
        Tally frozen = new Tally();
        double frozenStep = step(TypeDef.STRING.size(21)) + ALIGNMENT;
        frozen.add(s.frozenStrings() * frozenStep, s.frozenStrings() * frozenStep);
        lines += s.frozenStrings();
        truthBytes += 2 * s.frozenStrings();

        int collections = 0;
        for (Step step : s.program()) {
            switch (step) {
                case Step.Collect c -> collections++;
                case Step.Allocate a -> {
                    TypeDef t = types.get(a.type());
                    if (t == null) {
                        continue; // the build refuses it, naming the type
                    }
                    double bytes = 0;
                    double memory = 0;
                    double truth = 0;
                    boolean toLarge = false;
                    for (int q = 1; q <= QUANTILES; q++) {
                        long n = t.hasComponents() ? quantile(a.lengths(), (double) q / QUANTILES) : 0;
                        long size = t.size(n);
                        long st = step(size);
                        boolean loh = a.where() == Step.Where.LOH || (a.where() != Step.Where.POH && a.where() != Step.Where.FROZEN && size >= lohThreshold);
                        toLarge |= loh || a.where() == Step.Where.POH;
                        long pad = loh ? padSize : 0;
                        bytes += st + pad;
                        memory += (writtenWhole(t) ? st : Math.min(st, CHUNK)) + pad;
                        truth += 1 + varLongBytes(n) + (loh ? 2 : 0);
                    }
                    double count = a.count();
                    Tally where = a.where() == Step.Where.FROZEN ? frozen : toLarge ? large : small;
                    where.add(count * bytes / QUANTILES, count * memory / QUANTILES);
                    if (a.where() == Step.Where.GEN0) {
                        // every context's rest, and a context of its own for an object larger than the quantum
                        double ctx = count * bytes / QUANTILES / io.clrheap.emulator.process.ProcessLayout.ALLOCATION_QUANTUM + 1;
                        small.add(ctx * 600, ctx * 600);
                        lines += (long) Math.ceil(Math.min(ctx, count));
                    }
                    lines += 2 * a.count(); // with the free objects the dead leave and the LOH padding
                    truthBytes += (long) Math.ceil(count * truth / QUANTILES);
                }
            }
        }

        // regions beyond each heap's first five (PER_HEAP): those the bytes fill (a new one when an object does not fit:
        // at most half empty), those each collection starts; each costs a chunk for its partly used end
        long regions = 2L * (long) Math.ceil(small.bytes / basicRegion) + 2L * (long) Math.ceil(large.bytes / largeRegion)
                + (long) collections * s.heaps() * 2;
        long frozenSegments = 2 + 64 - Long.numberOfLeadingZeros(Math.max(1, (long) (frozen.bytes / (4 << 20))));
        double memory = PROCESS_BASE + (double) PER_HEAP * s.heaps() + (double) PER_THREAD * s.threads()
                + (s.features().isEmpty() ? 0 : FEATURES) + (double) CHUNK * (regions + frozenSegments)
                + small.memory + large.memory + frozen.memory;
        long memoryBytes = roundUp((long) Math.ceil(memory * MARGIN), CHUNK);

        // the answer key: a line an object, the regions, threads, handles, and a dumpheap -stat line per type
        lines += 1300 + 64L * s.heaps();
        regions += 5L * s.heaps() + frozenSegments;
        long answerKey = lines * (LINE_WITHOUT_NAME + longestName) + regions * 120 + s.threads() * (120L + 2 * 80)
                + 5L * s.handlesPerKind() * s.heaps() * 80 + (types.size() + 8) * (longestName + 60L) + 64 * 1024;
        // the ground truth: varints an object in runs that grow by doubling (up to half of each unused), a run per
        // allocation context or region
        long runs = regions + (long) Math.ceil(contexts) + 64;
        long truth = 2 * (truthBytes + lines) + runs * 160 + regions * 96 + 5L * s.handlesPerKind() * s.heaps() * 48 + (1 << 20);
        // dumps: the memory written plus headers (a program header or memory descriptor per chunk at most, a note per thread)
        long chunks = memoryBytes / CHUNK;
        long elf = memoryBytes + chunks * 56 + s.threads() * 1024L + (256 << 10);
        long minidump = memoryBytes + chunks * 16 + s.threads() * 2048L + (256 << 10);
        // xz never grows its input by more than a fraction of a percent; a tar header per entry (one per range at most)
        long bundle = (long) ((memoryBytes + answerKey) * 1.01) + chunks * 1024 + (1 << 20);
        return new BuildEstimate(lines, memoryBytes, truth, elf, minidump, answerKey, bundle);
    }

    /** Bytes and the native memory they cost, summed over objects. */
    private static final class Tally {
        double bytes;
        double memory;

        void add(double b, double m) {
            bytes += b;
            memory += m;
        }
    }

    /** Whether the emulator writes an object's whole body (characters, reference slots, fields), not only its header. */
    private static boolean writtenWhole(TypeDef t) {
        return switch (t.shape()) {
            case STRING, REFERENCE_ARRAY, CLASS, BOXED -> true;
            case ARRAY, MD_ARRAY -> false;
        };
    }

    /** The component count at quantile {@code u} in (0, 1] of a length distribution (Step.Lengths.sampler). */
    static long quantile(Step.Lengths lengths, double u) {
        long min = lengths.min();
        long max = lengths.max();
        return switch (lengths.distribution()) {
            case FIXED -> min;
            case UNIFORM -> Math.min(max, min + (long) Math.floor(u * (max - min + 1)));
            case LOG_UNIFORM -> Math.min(max, min + (long) Math.floor(Math.expm1(u * Math.log1p(max - min))));
        };
    }

    private static long step(long size) {
        return Math.max((size + ALIGNMENT - 1) & -ALIGNMENT, MIN_OBJECT);
    }

    private static int varLongBytes(long v) {
        return Math.max(1, (64 - Long.numberOfLeadingZeros(v) + 6) / 7);
    }

    private static long roundUp(long v, long unit) {
        return (v + unit - 1) / unit * unit;
    }

    /** The native memory a command holds at once when it builds the scenario {@code builds} times and keeps each (generate with a minidump: 2). */
    public long memoryBytes(int builds) {
        return builds * memoryBytes;
    }

    /** Bytes as people read them: 512 B, 1.5 KiB, 93.1 GiB. */
    public static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        double v = n;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "up to %,d objects, %s of process memory, %s of Java heap for the ground truth; disk: ELF core %s, "
                + "minidump %s, bundle %s, answer key %s", objects, bytes(memoryBytes), bytes(groundTruthBytes), bytes(elfBytes), bytes(minidumpBytes),
                bytes(bundleBytes), bytes(answerKeyBytes));
    }

    /** The parts as a list, for tests and reports: memory, ground truth, ELF, minidump, answer key, bundle. */
    public List<Long> parts() {
        return List.of(memoryBytes, groundTruthBytes, elfBytes, minidumpBytes, answerKeyBytes, bundleBytes);
    }
}
