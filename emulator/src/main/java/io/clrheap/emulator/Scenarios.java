package io.clrheap.emulator;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The built-in scenarios, by name: the default and one per edge case of walker-semantics.md section 7 that the
 * emulator can build so far. Each is defined for .NET 8 server GC and built for any runtime and flavour with
 * {@link Scenario#on}.
 */
public final class Scenarios {

    private static final Map<String, Scenario> BUILT_IN = new LinkedHashMap<>();

    static {
        Scenario d = Scenario.defaultScenario(RuntimeVersion.NET8, GcFlavor.SERVER);
        add(d);
        add(variant(d, "min-object", "§1: a System.Object, the minimum object of 24 bytes", Set.of(Feature.MIN_OBJECT), d.heaps(), d.gen1Objects(), d.garbage()));
        add(variant(d, "empty-string", "§2: the empty string: reported 22 bytes, stepped 24", Set.of(Feature.EMPTY_STRING), d.heaps(), d.gen1Objects(), d.garbage()));
        add(variant(d, "odd-string", "§3: a 3-character string: reported 28 bytes, stepped 32", Set.of(Feature.ODD_STRING), d.heaps(), d.gen1Objects(), d.garbage()));
        add(variant(d, "byte-array-lengths", "§4: byte[] of 0, 1, 5, 8 elements: 24, 25, 29, 32 bytes", Set.of(Feature.BYTE_ARRAY_LENGTHS), d.heaps(), d.gen1Objects(), d.garbage()));
        add(variant(d, "struct-array", "§5: an array of three 12-byte structs: 60 bytes, stepped 64", Set.of(Feature.STRUCT_ARRAY), d.heaps(), d.gen1Objects(), d.garbage()));
        add(variant(d, "md-array", "§6: int[2,3]: BaseSize 40, 64 bytes", Set.of(Feature.MD_ARRAY), d.heaps(), d.gen1Objects(), d.garbage()));
        add(variant(d, "size-edges", "§1-6 together: Object, empty and odd strings, byte[0/1/5/8], a struct array, int[2,3]",
                Set.of(Feature.MIN_OBJECT, Feature.EMPTY_STRING, Feature.ODD_STRING, Feature.BYTE_ARRAY_LENGTHS, Feature.STRUCT_ARRAY,
                        Feature.MD_ARRAY), d.heaps(), d.gen1Objects(), d.garbage()));
        add(variant(d, "context-at-region-start", "§11: a live allocation context starting exactly at its gen0 region's mem",
                Set.of(Feature.CONTEXT_AT_REGION_START), d.heaps(), d.gen1Objects(), d.garbage()));
        add(variant(d, "chained-contexts", "§12: two live allocation contexts back to back (limit1 + 24 == ptr2)",
                Set.of(Feature.CHAINED_CONTEXTS), d.heaps(), d.gen1Objects(), d.garbage()));
        add(variant(d, "poh-mixed", "§20: small and large objects on the POH, none padded", Set.of(Feature.POH_MIXED), d.heaps(), d.gen1Objects(), d.garbage()));
        add(variant(d, "thousands", "§36: 1,300 instances of one type (thousands separators)", Set.of(Feature.THOUSANDS), d.heaps(), d.gen1Objects(), d.garbage()));
        add(variant(d, "exhausted-context", "§10: a thread's allocation context used up exactly (alloc_ptr == alloc_limit)",
                Set.of(Feature.EXHAUSTED_CONTEXT), d.heaps(), d.gen1Objects(), d.garbage()));
        add(variant(d, "global-context", "§13: a live global allocation context in the middle of gen0",
                Set.of(Feature.GLOBAL_CONTEXT), d.heaps(), d.gen1Objects(), d.garbage()));
        add(variant(d, "heap-gen0-context", "§14: a live allocation context in heap 0's gen0 generation-table entry",
                Set.of(Feature.HEAP_GEN0_CONTEXT), d.heaps(), d.gen1Objects(), d.garbage()));
        add(variant(d, "mark-bits", "§24: MethodTable words with the GC mark bit set (a dump taken mid-mark)",
                Set.of(Feature.MARK_BITS), d.heaps(), d.gen1Objects(), d.garbage()));
        add(variant(d, "large-free-gap", "§38: a 600 KiB free gap in gen2 directly followed by a live object",
                Set.of(Feature.LARGE_FREE_GAP), d.heaps(), d.gen1Objects(), d.garbage()));
        add(variant(d, "interleaved-heaps", "§22: heap 1's regions below heap 0's (server GC)",
                Set.of(Feature.INTERLEAVED_HEAPS), d.heaps(), d.gen1Objects(), d.garbage()));
        add(variant(d, "empty-gen1", "§21: an empty gen1 region (mem == allocated)", Set.of(), d.heaps(), 0, d.garbage()));
        add(variant(d, "no-garbage", "a compacted heap: no free objects between survivors", Set.of(), d.heaps(), d.gen1Objects(), 0));
        add(variant(d, "four-heaps", "§17: server GC with 4 heaps, contexts spread over their gen0 regions", Set.of(), 4, d.gen1Objects(), d.garbage()));
        add(variant(d, "datas-one-heap", "§23: server GC with n_heaps = 1 (DATAS)", Set.of(), 1, d.gen1Objects(), d.garbage()));
        add(new Scenario("frozen-many", "§18: 2,000 frozen string literals in the read-only segment", d.runtime(), d.gc(), d.heaps(),
                d.threads(), d.gen2Objects(), d.gen1Objects(), d.gen0Objects(), d.lohObjects(), d.pohObjects(), 2000, d.garbage(),
                d.handlesPerKind(), Set.of(), d.seed()));
        add(variant(d, "every-edge", "all of the above edge cases in one heap",
                Set.of(Feature.values()), d.heaps(), d.gen1Objects(), d.garbage()));
    }

    private Scenarios() {
    }

    private static void add(Scenario s) {
        BUILT_IN.put(s.name(), s);
    }

    private static Scenario variant(Scenario base, String name, String description, Set<Feature> features, int heaps, int gen1, double garbage) {
        return new Scenario(name, description, base.runtime(), base.gc(), heaps, base.threads(), base.gen2Objects(), gen1,
                base.gen0Objects(), base.lohObjects(), base.pohObjects(), base.frozenStrings(), garbage, base.handlesPerKind(),
                features, base.seed());
    }

    public static List<Scenario> all() {
        return List.copyOf(BUILT_IN.values());
    }

    public static Optional<Scenario> named(String name) {
        return Optional.ofNullable(BUILT_IN.get(name));
    }
}
