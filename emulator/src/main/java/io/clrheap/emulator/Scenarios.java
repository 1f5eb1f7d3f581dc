package io.clrheap.emulator;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import io.clrheap.emulator.scenario.FieldSpec;
import io.clrheap.emulator.scenario.FieldType;
import io.clrheap.emulator.scenario.TypeDef;
import io.clrheap.emulator.scenario.Feature;
import io.clrheap.emulator.scenario.GcMode;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.scenario.Step;

/**
 * The built-in scenarios, by name: the default and one per edge case of docs/reference/walker-semantics.md section 7 that the
 * emulator builds, plus allocation programs (collections, many regions, user types). Each is defined for .NET 8
 * server GC and built for any runtime and flavour with {@link Scenario#on}; the segments GC's own ({@link #segments()})
 * are defined for .NET 9, the one runtime it is emulated for.
 * Long because it declares every built-in scenario, each a few lines of what it holds and which walker mistake it catches.
 */
public final class Scenarios {

    /** Every edge case of the regions GC (those of the segments GC apart). */
    private static final Set<Feature> REGIONS_FEATURES = java.util.Arrays.stream(Feature.values()).filter(f -> !f.segmentsOnly())
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    private static final Map<String, Scenario> BUILT_IN = new LinkedHashMap<>();
    /**
     * Built-in scenarios too large for the committed golden corpus (a fixture per runtime × GC would be hundreds of
     * megabytes each) and for the tests that build every scenario on every runtime (seconds to minutes of building
     * each): they exist for measurements ({@code ./clrheap generate --scenario large}, BENCHMARKS.md). See {@link #everyday()}.
     */
    private static final Set<String> LARGE = Set.of("large", "scale-64");

    static {
        Scenario d = Scenario.defaultScenario(RuntimeVersion.NET8, GcFlavor.SERVER);
        add(d);
        // each edge case of §1-42 sits in a third of the default's mixed population: a real-looking heap around it, small
        // enough that the committed golden corpus (222 fixtures, golden/synthetic) stays compact
        Scenario e = d.toBuilder().objects(1000, 500, 800, 6, 12).build();
        add(edge(e, "min-object", "§1: a System.Object, the minimum object of 24 bytes", Feature.MIN_OBJECT));
        add(edge(e, "empty-string", "§2: the empty string: reported 22 bytes, stepped 24", Feature.EMPTY_STRING));
        add(edge(e, "odd-string", "§3: a 3-character string: reported 28 bytes, stepped 32", Feature.ODD_STRING));
        add(edge(e, "byte-array-lengths", "§4: byte[] of 0, 1, 5, 8 elements: 24, 25, 29, 32 bytes", Feature.BYTE_ARRAY_LENGTHS));
        add(edge(e, "struct-array", "§5: an array of three 12-byte structs: 60 bytes, stepped 64", Feature.STRUCT_ARRAY));
        add(edge(e, "md-array", "§6: int[2,3]: BaseSize 40, 64 bytes", Feature.MD_ARRAY));
        add(e.toBuilder().name("size-edges").description("§1-6 together: Object, empty and odd strings, byte[0/1/5/8], a struct array, int[2,3]")
                .features(Set.of(Feature.MIN_OBJECT, Feature.EMPTY_STRING, Feature.ODD_STRING, Feature.BYTE_ARRAY_LENGTHS,
                        Feature.STRUCT_ARRAY, Feature.MD_ARRAY)).build());
        add(edge(e, "context-at-region-start", "§11: a live allocation context starting exactly at its gen0 region's mem",
                Feature.CONTEXT_AT_REGION_START));
        add(edge(e, "chained-contexts", "§12: two live allocation contexts back to back (limit1 + 24 == ptr2)", Feature.CHAINED_CONTEXTS));
        add(edge(e, "context-at-region-end", "§16: a live allocation context whose limit + 24 is its gen0 region's reserved end",
                Feature.CONTEXT_AT_REGION_END));
        add(edge(e, "poh-mixed", "§20: small and large objects on the POH, none padded", Feature.POH_MIXED));
        add(edge(e, "thousands", "§36: 1,300 instances of one type (thousands separators)", Feature.THOUSANDS));
        add(edge(e, "exhausted-context", "§10: a thread's allocation context used up exactly (alloc_ptr == alloc_limit)",
                Feature.EXHAUSTED_CONTEXT));
        add(edge(e, "global-context", "§13: a live global allocation context in the middle of gen0", Feature.GLOBAL_CONTEXT));
        add(edge(e, "heap-gen0-context", "§14: a live allocation context in heap 0's gen0 generation-table entry", Feature.HEAP_GEN0_CONTEXT));
        add(edge(e, "mark-bits", "§24: MethodTable words with the GC mark bit set (a dump taken mid-mark)", Feature.MARK_BITS));
        add(edge(e, "large-free-gap", "§38: a 600 KiB free gap in gen2 directly followed by a live object", Feature.LARGE_FREE_GAP));
        add(edge(e, "interleaved-heaps", "§22: heap 1's regions below heap 0's (server GC)", Feature.INTERLEAVED_HEAPS));
        add(edge(e, "length-padding-garbage", "§42: garbage in the 4 bytes after an int[]'s 32-bit length",
                Feature.LENGTH_PADDING_GARBAGE));
        add(d.toBuilder().name("empty-gen1").description("§21: an empty gen1 region (mem == allocated)").gen1Objects(0).build());
        add(d.toBuilder().name("no-garbage").description("a compacted heap: no free objects between survivors").garbage(0).build());
        add(d.toBuilder().name("four-heaps").description("§17: server GC with 4 heaps, contexts spread over their gen0 regions").heaps(4)
                .threads(6).build());
        add(d.toBuilder().name("sixty-four-heaps").description("server GC with 64 heaps (the most the emulator builds), 64 threads, one on each heap")
                .heaps(64).threads(64).handlesPerKind(1).build());
        add(d.toBuilder().name("datas-one-heap").description("§23: server GC with n_heaps = 1 (DATAS)").heaps(1).build());
        add(d.toBuilder().name("frozen-many").description("§18: 2,000 frozen string literals in the read-only segment").frozenStrings(2000).build());
        add(d.toBuilder().name("frozen-segments")
                .description("§18: frozen string literals over three segments, each reserving twice the last, the newest at the head of heap 0's gen2 list")
                .allocate(new Step.Allocate("System.String", 400, Step.Lengths.uniform(20_000, 32_000), Step.Where.FROZEN, -1, 0))
                .build());
        add(e.toBuilder().name("collected")
                .description("§7: garbage collected by gen0, gen1 and gen2 collections: fragmented, promoted regions, free gaps between survivors")
                .garbage(0)
                .allocate(new Step.Allocate("Node", 2000, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0.6))
                .allocate(new Step.Allocate("System.Byte[]", 1500, Step.Lengths.logUniform(0, 4000), Step.Where.GEN0, -1, 0.5))
                .collect(0)
                .allocate(new Step.Allocate("System.String", 2000, Step.Lengths.uniform(0, 80), Step.Where.GEN0, -1, 0.7))
                .allocate(new Step.Allocate("System.Int64[]", 4, Step.Lengths.uniform(11_000, 20_000), Step.Where.LOH, -1, 0.5))
                .collect(1)
                .allocate(new Step.Allocate("Pair", 1500, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0.3))
                .collect(2)
                .allocate(new Step.Allocate("System.Object", 1000, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0))
                .build());
        // the regions are filled with arrays of 40 to 80 KB, just under the LOH threshold: megabytes of zeros (a small
        // fixture) in a few hundred objects rather than the 100,000 small ones the same regions would take
        add(d.toBuilder().name("many-regions")
                .description("§17: gen0 and gen2 spanning several regions each (arrays just under the LOH threshold); live contexts left in gen0 regions that are no longer the ephemeral one")
                .threads(8).features(Set.of(Feature.CONTEXT_IN_OLDER_REGION))
                .allocate(new Step.Allocate("System.Int32[]", 360, Step.Lengths.uniform(10_000, 20_000), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("System.Byte[]", 240, Step.Lengths.uniform(40_000, 80_000), Step.Where.GEN0, -1, 0))
                .build());
        add(d.toBuilder().name("user-types")
                .description("types a scenario defines: a class with references, a boxed struct, a reference array, a rank-3 array; references to frozen strings")
                .type(TypeDef.ofClass("Shop.Order", 64, 3))
                .type(TypeDef.boxed("Shop.Money", 32))
                .type(TypeDef.referenceArray("Shop.Order[]"))
                .type(TypeDef.mdArray("System.Double[,,]", 8, 3))
                .allocate(new Step.Allocate("Shop.Order", 1500, Step.Lengths.fixed(0), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("Shop.Money", 800, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0))
                .allocate(new Step.Allocate("Shop.Order[]", 300, Step.Lengths.uniform(0, 40), Step.Where.GEN1, -1, 0))
                .allocate(new Step.Allocate("System.Double[,,]", 20, Step.Lengths.uniform(1, 60), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("Shop.Money", 500, Step.Lengths.fixed(0), Step.Where.POH, -1, 0))
                .build());
        // names the runtime composes from metadata (docs/reference/type-names.md): nesting, element-only types, arrays of arrays
        add(e.toBuilder().name("type-names")
                .description("type names from metadata: nested types (Outer+Inner, two deep, one in System), arrays of a nested and of an element-only type, a jagged array, T[*]")
                .type(TypeDef.ofClass("Shop.Cart", 32, 1))
                .type(TypeDef.ofClass("Shop.Cart+Line", 40, 1))
                .type(TypeDef.boxed("Shop.Cart+Line+Note", 24))
                .type(TypeDef.referenceArray("Shop.Cart+Line[]"))
                .type(TypeDef.arrayOf("Shop.Tag[]", 12))
                .type(TypeDef.referenceArray("System.Int32[][]"))
                .type(TypeDef.mdArray("System.Int64[*]", 8, 1))
                .type(TypeDef.boxed("System.Environment+SpecialFolder", 24))
                .allocate(new Step.Allocate("Shop.Cart", 40, Step.Lengths.fixed(0), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("Shop.Cart+Line", 60, Step.Lengths.fixed(0), Step.Where.GEN1, -1, 0))
                .allocate(new Step.Allocate("Shop.Cart+Line+Note", 30, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0))
                .allocate(new Step.Allocate("Shop.Cart+Line[]", 20, Step.Lengths.uniform(0, 8), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("Shop.Tag[]", 20, Step.Lengths.uniform(0, 10), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("System.Int32[][]", 10, Step.Lengths.uniform(0, 5), Step.Where.GEN1, -1, 0))
                .allocate(new Step.Allocate("System.Int64[*]", 10, Step.Lengths.uniform(1, 6), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("System.Environment+SpecialFolder", 10, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0))
                .build());
        add(objectGraph(e));
        add(d.toBuilder().name("huge-loh").description("an LOH object larger than a 32 MiB large region: it gets a region of its own, several large regions long")
                .allocate(new Step.Allocate("System.Byte[]", 1, Step.Lengths.fixed(40L << 20), Step.Where.LOH, 0, 0))
                .build());
        // fixtures for walkers written the simple way (the source article's): each adds one thing such a walker gets wrong
        // to a heap it walks right — only objects whose sizes are multiples of 8, no frozen strings, no live contexts
        Scenario plain = plain();
        add(plain);
        add(plain.toBuilder().name("trap-live-context")
                .description("trap: live allocation contexts with objects after them (a walker that stops at the first null MethodTable, or does not skip [alloc_ptr, alloc_limit + 24), misses those objects)")
                .allocate(new Step.Allocate("Node", 3000, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0)).build());
        add(plain.toBuilder().name("trap-frozen")
                .description("trap: string literals in the frozen segment at the head of heap 0's gen2 list (a walker that ignores the frozen heap misses them)")
                .allocate(new Step.Allocate("System.String", 300, Step.Lengths.fixed(5), Step.Where.FROZEN, -1, 0)).build());
        add(plain.toBuilder().name("trap-unaligned-size")
                .description("trap: strings and byte arrays whose sizes are not multiples of 8 (a walker that reports the 8-byte aligned size gets their bytes wrong)")
                .allocate(new Step.Allocate("System.String", 500, Step.Lengths.uniform(0, 40), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("System.Byte[]", 500, Step.Lengths.uniform(0, 100), Step.Where.GEN1, -1, 0)).build());
        add(plain.toBuilder().name("trap-weak-roots")
                .description("trap: weak handles (short and long) to objects nothing else reaches (a walker that counts weak handles as roots reports them live)")
                .features(Set.of(Feature.WEAK_ONLY_OBJECTS)).build());
        add(plain.toBuilder().name("trap-stale-stack")
                .description("trap: stale stack slots below each thread's rsp holding references to dead objects (a walker that scans "
                        + "below rsp reports them as stack roots, and their objects live)")
                .build());
        addFieldScenarios(plain);
        addSegmentsScenarios(plain);
        add(d.toBuilder().name("every-edge").description("all of the above edge cases in one heap (the regions GC's: not the segments GC's)").threads(7)
                .features(REGIONS_FEATURES).build());
        // measurements (not in the corpus, not built by the per-scenario tests: see LARGE). The emulator places about
        // 97 % of the declared counts (large: 5,304,000 declared, 5,158,624 placed), hence 104 M declared for scale-64
        add(large());
        add(large().toBuilder().name("scale-64")
                .description("scale: 64 server heaps, 64 threads, over 100 million objects of every kind (about 7 GiB of memory touched, "
                        + "a multi-GiB address span); a measurement, not in the golden corpus")
                .heaps(64).threads(64).seed(64)
                .objects(69_000_000, 14_000_000, 21_000_000, 1_200, 40_000).frozenStrings(40_000).build());
    }

    /**
     * Over 5 million objects of every kind the emulator builds, on 2 server heaps: the heap docs/benchmarks.md's performance
     * section and quick measurements walk. Every edge-case feature is on, so that the walk meets all of them; the
     * mixed population is the default's (objects, strings, arrays of every element size, user classes), 1,700 times over.
     */
    private static Scenario large() {
        return Scenario.defaultScenario(RuntimeVersion.NET8, GcFlavor.SERVER).toBuilder().name("large")
                .description("5.2 million objects of every kind on 2 server heaps: gen0/1/2, LOH, POH, frozen strings, every edge case, "
                        + "7 threads with live contexts, 20 % garbage; for measurements, not in the golden corpus")
                .threads(7).features(REGIONS_FEATURES).seed(5_000_000)
                .objects(3_300_000, 800_000, 1_200_000, 120, 4_000).frozenStrings(4_000).build();
    }

    /**
     * Every shape of reference the walkers must enumerate, and the ones they get wrong (docs/reference/object-graph.md):
     * a class with several GC series and a reference in its last word, boxed structs with references, arrays of
     * structs with references (one and two repeating items, some on the LOH), arrays of references on the POH and the
     * LOH, objects with finalizers (registered, and ready for finalization), references across generations and heaps,
     * after a collection.
     */
    private static Scenario objectGraph(Scenario base) {
        return base.toBuilder().name("object-graph")
                .description("the object graph: several GC series, a reference in an object's last word, boxed structs and arrays of structs with references, "
                        + "reference arrays on the POH and LOH, finalizable objects, cross-generation and cross-heap references")
                // references at 8, 16 and 40: two series, the last at the object's last word (BaseSize 56 - 16)
                .type(TypeDef.ofClass("Graph.Tree", 56, List.of(8, 16, 40), false))
                .type(TypeDef.ofClass("Graph.Holder", 48, List.of(8, 32), false))
                .type(TypeDef.boxed("Graph.Entry", 40, List.of(8, 24)))
                // 24-byte structs: {ref, long, ref} (two repeating items) and {ref, ref, long} (one, as Dictionary's Entry)
                .type(TypeDef.structArray("Graph.Entry[]", 24, List.of(0, 16)))
                .type(TypeDef.structArray("Graph.KeyValue[]", 24, List.of(0, 8)))
                .type(TypeDef.referenceArray("Graph.Tree[]"))
                .type(TypeDef.ofClass("Graph.Resource", 32, List.of(8), true))
                .allocate(new Step.Allocate("Graph.Tree", 600, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0.5))
                .allocate(new Step.Allocate("Graph.Resource", 100, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0.3))
                .collect(1)
                .allocate(new Step.Allocate("Graph.Tree", 400, Step.Lengths.fixed(0), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("Graph.Holder", 200, Step.Lengths.fixed(0), Step.Where.GEN1, -1, 0))
                .allocate(new Step.Allocate("Graph.Entry", 100, Step.Lengths.fixed(0), Step.Where.GEN1, -1, 0))
                .allocate(new Step.Allocate("Graph.Entry[]", 60, Step.Lengths.uniform(0, 12), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("Graph.Entry[]", 2, Step.Lengths.uniform(3600, 4000), Step.Where.LOH, -1, 0))
                .allocate(new Step.Allocate("Graph.KeyValue[]", 40, Step.Lengths.uniform(1, 10), Step.Where.GEN0, -1, 0))
                .allocate(new Step.Allocate("Graph.Tree[]", 50, Step.Lengths.uniform(0, 20), Step.Where.GEN1, -1, 0))
                .allocate(new Step.Allocate("System.Object[]", 10, Step.Lengths.uniform(1, 30), Step.Where.POH, -1, 0))
                .allocate(new Step.Allocate("System.Object[]", 2, Step.Lengths.uniform(11_000, 12_000), Step.Where.LOH, -1, 0))
                .allocate(new Step.Allocate("Graph.Resource", 200, Step.Lengths.fixed(0), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("Graph.Resource", 100, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0))
                .allocate(new Step.Allocate("Graph.Tree", 300, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0.2))
                .build();
    }

    /**
     * Typed fields (docs/answer-key.md, fields.tsv): a base class and classes deriving from it, structs stored inline
     * (one with a reference), enums, arrays of each, every primitive, statics; on the plain heap, so that only fields
     * differ from it. The traps each stress one thing a field reader gets wrong: base classes' fields (three levels, one
     * class with none of its own), struct fields (nested, with references and odd sizes), and the packed FieldDesc
     * (offsets up to a large object's, element types with the low bit set, RIDs unlike the offsets).
     */
    private static void addFieldScenarios(Scenario plain) {
        TypeDef color = TypeDef.enumType("Fields.Color", io.clrheap.value.ElementType.I4);
        TypeDef level = TypeDef.enumType("Fields.Level", io.clrheap.value.ElementType.U1);
        TypeDef point = TypeDef.withFields("Fields.Point", TypeDef.Shape.BOXED, null, List.of(
                FieldSpec.of("X", FieldType.primitive(io.clrheap.value.ElementType.I4)),
                FieldSpec.of("Y", FieldType.primitive(io.clrheap.value.ElementType.I4))));
        // a struct with a reference, declared references first then by size, so that sequential and automatic layout agree
        TypeDef span = TypeDef.withFields("Fields.Span", TypeDef.Shape.BOXED, null, List.of(
                FieldSpec.of("Label", FieldType.STRING),
                FieldSpec.of("Start", FieldType.primitive(io.clrheap.value.ElementType.I8)),
                FieldSpec.of("Length", FieldType.primitive(io.clrheap.value.ElementType.I4)),
                FieldSpec.of("Kind", FieldType.enumOf(level))));
        TypeDef box = TypeDef.withFields("Fields.Box", TypeDef.Shape.BOXED, null, List.of(
                FieldSpec.of("Corner", FieldType.struct(point)),
                FieldSpec.of("Size", FieldType.struct(point))));
        TypeDef shape = TypeDef.withFields("Fields.Shape", TypeDef.Shape.CLASS, null, List.of(
                FieldSpec.of("Name", FieldType.STRING),
                FieldSpec.of("Id", FieldType.primitive(io.clrheap.value.ElementType.I4)),
                FieldSpec.of("Color", FieldType.enumOf(color)),
                FieldSpec.of("Visible", FieldType.primitive(io.clrheap.value.ElementType.BOOLEAN)),
                FieldSpec.ofStatic("Count", FieldType.primitive(io.clrheap.value.ElementType.I4))));
        // the base class ends at 17 bytes: Alpha, Mark and Weight fill the gap before the 8-byte fields (FieldLayout)
        TypeDef circle = TypeDef.withFields("Fields.Circle", TypeDef.Shape.CLASS, shape, List.of(
                FieldSpec.of("Radius", FieldType.primitive(io.clrheap.value.ElementType.R8)),
                FieldSpec.of("Center", FieldType.struct(point)),
                FieldSpec.of("Mark", FieldType.primitive(io.clrheap.value.ElementType.CHAR)),
                FieldSpec.of("Alpha", FieldType.primitive(io.clrheap.value.ElementType.U1)),
                FieldSpec.of("Weight", FieldType.primitive(io.clrheap.value.ElementType.R4)),
                FieldSpec.of("Next", FieldType.classNamed("Fields.Shape")),
                FieldSpec.of("Samples", FieldType.arrayOf(FieldType.primitive(io.clrheap.value.ElementType.I4)))));
        TypeDef ring = TypeDef.withFields("Fields.Ring", TypeDef.Shape.CLASS, circle, List.of(
                FieldSpec.of("Inner", FieldType.primitive(io.clrheap.value.ElementType.R8)),
                FieldSpec.of("Hole", FieldType.struct(box))));
        TypeDef tag = TypeDef.withFields("Fields.Tag", TypeDef.Shape.CLASS, shape, List.of());
        TypeDef record = TypeDef.withFields("Fields.Record", TypeDef.Shape.CLASS, null, List.of(
                FieldSpec.of("Span", FieldType.struct(span)),
                FieldSpec.of("Points", FieldType.arrayOf(FieldType.struct(point))),
                FieldSpec.of("Colors", FieldType.arrayOf(FieldType.enumOf(color))),
                FieldSpec.of("Names", FieldType.arrayOf(FieldType.STRING)),
                FieldSpec.of("Shapes", FieldType.arrayOf(FieldType.classNamed("Fields.Shape"))),
                FieldSpec.of("Link", FieldType.classNamed("Fields.Record")),
                FieldSpec.of("Any", FieldType.OBJECT),
                FieldSpec.of("Small", FieldType.primitive(io.clrheap.value.ElementType.I1)),
                FieldSpec.of("Short", FieldType.primitive(io.clrheap.value.ElementType.I2)),
                FieldSpec.of("Word", FieldType.primitive(io.clrheap.value.ElementType.U2)),
                FieldSpec.of("Unsigned", FieldType.primitive(io.clrheap.value.ElementType.U4)),
                FieldSpec.of("Big", FieldType.primitive(io.clrheap.value.ElementType.U8)),
                FieldSpec.of("Ratio", FieldType.primitive(io.clrheap.value.ElementType.R4)),
                FieldSpec.of("Level", FieldType.enumOf(level)),
                FieldSpec.ofStatic("Default", FieldType.STRING)));
        Scenario.Builder typed = plain.toBuilder()
                .type(color).type(level).type(point).type(span).type(box).type(shape).type(circle).type(ring).type(tag).type(record)
                .type(TypeDef.structArray("Fields.Point[]", 8, List.of()))
                .type(TypeDef.arrayOf("Fields.Color[]", 4))
                .type(TypeDef.referenceArray("Fields.Shape[]"))
                .type(TypeDef.referenceArray("System.String[]"));
        add(typed.name("fields")
                .description("typed fields: every primitive, strings, references, structs inline (nested, with a reference), enums, arrays of each, "
                        + "base classes' fields, statics; fields.tsv gives every field of every object")
                .allocate(new Step.Allocate("Fields.Shape", 60, Step.Lengths.fixed(0), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("Fields.Circle", 80, Step.Lengths.fixed(0), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("Fields.Ring", 40, Step.Lengths.fixed(0), Step.Where.GEN1, -1, 0))
                .allocate(new Step.Allocate("Fields.Tag", 20, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0))
                .allocate(new Step.Allocate("Fields.Record", 80, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0))
                .allocate(new Step.Allocate("Fields.Span", 20, Step.Lengths.fixed(0), Step.Where.GEN1, -1, 0))
                .allocate(new Step.Allocate("Fields.Point", 20, Step.Lengths.fixed(0), Step.Where.GEN1, -1, 0))
                .allocate(new Step.Allocate("Fields.Box", 10, Step.Lengths.fixed(0), Step.Where.GEN1, -1, 0))
                .allocate(new Step.Allocate("Fields.Color", 10, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0))
                .allocate(new Step.Allocate("Fields.Point[]", 20, Step.Lengths.uniform(0, 6), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("Fields.Color[]", 20, Step.Lengths.uniform(0, 6), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("Fields.Shape[]", 20, Step.Lengths.uniform(0, 6), Step.Where.GEN2, -1, 0))
                // what the typed references and arrays of references point at: a String field at a string (ReferenceWriter)
                .allocate(new Step.Allocate("System.String", 200, Step.Lengths.uniform(0, 40), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("System.Int32[]", 20, Step.Lengths.uniform(0, 8), Step.Where.GEN1, -1, 0))
                .allocate(new Step.Allocate("System.String[]", 20, Step.Lengths.uniform(0, 6), Step.Where.GEN1, -1, 0))
                .collect(0)
                .build());
        add(plain.toBuilder().type(color).type(level).type(point).type(span).type(box).type(shape).type(circle).type(ring).type(tag)
                .name("trap-base-fields")
                .description("trap: classes three deep whose base classes declare fields (a walker that reads only the FieldDescs of the object's own "
                        + "class misses the base classes' rows)")
                .allocate(new Step.Allocate("Fields.Circle", 200, Step.Lengths.fixed(0), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("Fields.Ring", 200, Step.Lengths.fixed(0), Step.Where.GEN1, -1, 0))
                .allocate(new Step.Allocate("Fields.Tag", 100, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0))
                // boxed structs: a walker finds a struct field's MethodTable among the heap's types
                .allocate(new Step.Allocate("Fields.Point", 10, Step.Lengths.fixed(0), Step.Where.GEN1, -1, 0))
                .allocate(new Step.Allocate("Fields.Box", 10, Step.Lengths.fixed(0), Step.Where.GEN1, -1, 0))
                .collect(0)
                .build());
        add(plain.toBuilder().type(level).type(color).type(point).type(span).type(box).type(shape).type(record)
                .type(TypeDef.structArray("Fields.Point[]", 8, List.of()))
                .name("trap-struct-field")
                .description("trap: structs stored inline, nested and with a reference inside (a walker that reads a struct field as a reference "
                        + "prints its first 8 bytes for the struct and none of its fields)")
                .allocate(new Step.Allocate("Fields.Record", 300, Step.Lengths.fixed(0), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("Fields.Box", 200, Step.Lengths.fixed(0), Step.Where.GEN1, -1, 0))
                .allocate(new Step.Allocate("Fields.Span", 50, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0))
                .allocate(new Step.Allocate("Fields.Point[]", 10, Step.Lengths.uniform(1, 4), Step.Where.GEN2, -1, 0))
                .collect(0)
                .build());
        // CHAR (3), U1 (5), R8 (0xd), U4 (9), VALUETYPE (0x11): element types whose low bit sits at bit 27 of dword2, next to the offset
        TypeDef packed = TypeDef.withFields("Fields.Packed", TypeDef.Shape.CLASS, null, List.of(
                FieldSpec.of("C", FieldType.primitive(io.clrheap.value.ElementType.CHAR)),
                FieldSpec.of("B", FieldType.primitive(io.clrheap.value.ElementType.U1)),
                FieldSpec.of("D", FieldType.primitive(io.clrheap.value.ElementType.R8)),
                FieldSpec.of("U", FieldType.primitive(io.clrheap.value.ElementType.U4)),
                FieldSpec.of("P", FieldType.struct(point)),
                FieldSpec.of("S", FieldType.STRING)));
        add(plain.toBuilder().type(point).type(packed)
                .name("trap-packed-offset")
                .description("trap: FieldDescs whose element types set bit 27 of dword2 and whose RIDs differ from their offsets (a walker that "
                        + "reads the offset with more than 27 bits, or from dword1, reads every field at the wrong place)")
                .allocate(new Step.Allocate("Fields.Packed", 400, Step.Lengths.fixed(0), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("Fields.Point", 40, Step.Lengths.fixed(0), Step.Where.GEN1, -1, 0))
                .collect(0)
                .build());
    }

    private Scenarios() {
    }

    private static void add(Scenario s) {
        if (BUILT_IN.putIfAbsent(s.name(), s) != null) {
            throw new IllegalStateException("two built-in scenarios named " + s.name());
        }
    }

    /**
     * A heap a simple walker walks right: objects whose sizes are multiples of 8 only, no frozen strings, and no live
     * allocation context (the last step is a gen0 collection, which gives every context up).
     */
    private static Scenario plain() {
        return Scenario.builder("naive-plain")
                .description("a heap a simple walker walks right: sizes multiples of 8, no frozen strings, no live allocation contexts; every walker passes it")
                .runtime(RuntimeVersion.NET8).gc(GcFlavor.SERVER).heaps(2).threads(3).handlesPerKind(2).seed(7)
                .allocate(new Step.Allocate("Node", 2000, Step.Lengths.fixed(0), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("System.Object[]", 500, Step.Lengths.uniform(0, 30), Step.Where.GEN2, -1, 0))
                .allocate(new Step.Allocate("System.Int64[]", 4, Step.Lengths.uniform(11_000, 20_000), Step.Where.LOH, -1, 0))
                .allocate(new Step.Allocate("System.Int64[]", 20, Step.Lengths.uniform(1, 200), Step.Where.POH, -1, 0))
                .allocate(new Step.Allocate("Pair", 3000, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0.3))
                .allocate(new Step.Allocate("Leaf", 2000, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0.3))
                .collect(0)
                .build();
    }

    /**
     * The standalone segments GC ({@code libclrgc.so}, .NET 9 on Linux; docs/reference/discovery.md section 14): the
     * plain heap on it, and a trap for each thing a walker of a segments heap gets wrong.
     */
    private static void addSegmentsScenarios(Scenario plain) {
        Scenario segments = plain.toBuilder().name("segments")
                .description("the naive-plain heap under the standalone segments GC (libclrgc.so): gen2, gen1 and gen0 one after the other in each "
                        + "heap's ephemeral segment, each from its allocation_start; LOH and POH segments of their own")
                .runtime(RuntimeVersion.NET9).gcMode(GcMode.SEGMENTS).build();
        add(segments);
        add(segments.toBuilder().name("trap-generation-starts")
                .description("trap: segments GC: gen1 and gen0 both hold objects after gen2 in the ephemeral segment (a walker that follows every "
                        + "generation's start_segment walks that segment once per generation; one that stops at heap_segment.allocated misses gen0)")
                .allocate(new Step.Allocate("Node", 1500, Step.Lengths.fixed(0), Step.Where.GEN1, -1, 0))
                .allocate(new Step.Allocate("Leaf", 1000, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0)).build());
        add(segments.toBuilder().name("trap-context-at-generation-start")
                .description("trap: segments GC: a live allocation context at gen0's allocation_start, right after its start object, running to "
                        + "alloc_allocated (a walker that takes the free object at a generation start for the end of the heap, or does not skip "
                        + "[alloc_ptr, alloc_limit + 24), misses the context's objects or reads its zeros)")
                .features(Set.of(Feature.CONTEXT_AT_GENERATION_START)).build());
        add(segments.toBuilder().name("trap-stale-segment-tail")
                .description("trap: segments GC: stale object images between each segment's end of objects and its committed end (a walker that "
                        + "walks to heap_segment.committed or used reports objects that are not there)")
                .features(Set.of(Feature.STALE_SEGMENT_TAIL)).build());
    }

    private static Scenario edge(Scenario base, String name, String description, Feature feature) {
        return base.toBuilder().name(name).description(description).features(Set.of(feature)).build();
    }

    /** Every built-in scenario, the large ones included ({@code ./clrheap scenarios} lists them all). */
    public static List<Scenario> all() {
        return List.copyOf(BUILT_IN.values());
    }

    /**
     * The built-in scenarios small enough to build in a unit test and to commit as golden fixtures: all but the
     * large ones made for measurements. The golden corpus and every test that builds each scenario use this list.
     */
    public static List<Scenario> everyday() {
        return BUILT_IN.values().stream().filter(s -> !isLarge(s.name()) && s.gcMode() == GcMode.REGIONS).toList();
    }

    /**
     * The built-in scenarios of the standalone segments GC ({@code libclrgc.so}, .NET 9 only): kept apart from
     * {@link #everyday()}, whose scenarios build on every runtime.
     */
    public static List<Scenario> segments() {
        return BUILT_IN.values().stream().filter(s -> s.gcMode() == GcMode.SEGMENTS).toList();
    }

    /** The everyday scenarios and the segments GC's: what the golden corpus and {@code --scenario all} hold. */
    public static List<Scenario> corpus() {
        List<Scenario> all = new java.util.ArrayList<>(everyday());
        all.addAll(segments());
        return List.copyOf(all);
    }

    /** Whether {@code s} builds under the segments GC too: it has no edge case that places contexts in regions. */
    public static boolean runsOnSegments(Scenario s) {
        return s.features().stream().noneMatch(Feature::regionsOnly);
    }

    /** True for a built-in scenario made for measurements, kept out of the golden corpus and the per-scenario tests. */
    public static boolean isLarge(String name) {
        return LARGE.contains(name);
    }

    public static Optional<Scenario> named(String name) {
        return Optional.ofNullable(BUILT_IN.get(name));
    }
}
