package io.clrheap.layout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a standalone segments GC ({@code libclrgc.so}, {@code DOTNET_GCName}) lays out differently from the runtime's
 * built-in regions GC, read from {@code profiles/gc/libclrgc-linux-x64-9.0.json}, where every value names the real
 * dumps it was read on (docs/reference/discovery.md section 14). A walker needs none of it (the GC publishes what it
 * reads in GcDacVars); the emulator builds segments heaps from it.
 *
 * @param module               the GC module's file name
 * @param builds               the runtime builds whose packages ship it and whose dumps gave these facts
 * @param gcDacVarsMinor       GcDacVars.minor_version_number (0; the built-in regions GC publishes 1)
 * @param buildVariant         the byte GcDacVars.build_variant points at
 * @param bookkeepingElements  GcDacVars.total_bookkeeping_elements
 * @param freeRegionKinds      GcDacVars.count_free_region_kinds
 * @param cardTableInfoSize    GcDacVars.card_table_info_size
 * @param generationSize       the generation table's stride (GcDacVars.generation_size)
 * @param allocationStart      generation.allocation_start's offset (generation_field_offsets[2])
 * @param allocationSegment    generation.allocation_segment's offset
 * @param gcHeapFieldOffsets   gc_heap_field_offsets, in dacFieldOrder's gc_heap order (-1: no such field)
 * @param heapAnalyzeSuccess   the value of gc_heap.heap_analyze_success outside a GC
 * @param firstObjectOffset    mem − the segment's base (its heap_segment lies at the base)
 * @param segmentHeapOffset    heap_segment.heap's offset (server GC)
 * @param startObjectSize      the free object at every generation's allocation_start
 * @param workstationSoh       a workstation GC's small-object segment size
 * @param workstationUoh       a workstation GC's LOH and POH segment size
 * @param serverSoh            a server GC's small-object segment size per heap (up to 4 heaps)
 * @param serverUoh            a server GC's LOH and POH segment size per heap
 */
public record SegmentsGcLayout(String module, List<String> builds, int gcDacVarsMinor, int buildVariant, int bookkeepingElements,
                               int freeRegionKinds, long cardTableInfoSize, long generationSize, long allocationStart,
                               long allocationSegment, List<Integer> gcHeapFieldOffsets, int heapAnalyzeSuccess, long firstObjectOffset,
                               long segmentHeapOffset, long startObjectSize, long workstationSoh, long workstationUoh, long serverSoh,
                               long serverUoh) {

    public SegmentsGcLayout {
        builds = List.copyOf(builds);
        gcHeapFieldOffsets = List.copyOf(gcHeapFieldOffsets);
    }

    private static final String RESOURCE = "profiles/gc/libclrgc-linux-x64-9.0.json";

    /** The segments GC the classic packages of {@code build} ship, or empty when no real dump of one of its builds is known. */
    public static java.util.Optional<SegmentsGcLayout> forBuild(String build) {
        SegmentsGcLayout layout = libclrgc();
        return layout.builds().contains(build) ? java.util.Optional.of(layout) : java.util.Optional.empty();
    }

    /** libclrgc.so of the 9.0.x Linux x64 packages (read once: an emulated process asks for it from several places). */
    public static SegmentsGcLayout libclrgc() {
        return Libclrgc.LAYOUT;
    }

    /** The resource read on first use; an immutable constant, the same for every target. */
    private static final class Libclrgc {
        static final SegmentsGcLayout LAYOUT = read();
    }

    private static SegmentsGcLayout read() {
        try (InputStream in = SegmentsGcLayout.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the layout model lacks its resource " + RESOURCE);
            }
            return parse(new ObjectMapper().readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(RESOURCE + ": " + e.getMessage(), e);
        }
    }

    private static SegmentsGcLayout parse(JsonNode root) {
        JsonNode vars = root.path("gcDacVars");
        JsonNode generation = root.path("generation");
        JsonNode segment = root.path("segment");
        List<String> builds = new ArrayList<>();
        root.path("builds").forEach(b -> builds.add(b.asText()));
        List<Integer> offsets = new ArrayList<>();
        root.path("gcHeapFieldOffsets").path(0).forEach(o -> offsets.add((int) number(o)));
        return new SegmentsGcLayout(root.path("module").path(0).asText(), builds,
                (int) value(vars, "minor_version_number"), (int) value(vars, "build_variant"), (int) value(vars, "total_bookkeeping_elements"),
                (int) value(vars, "count_free_region_kinds"), value(vars, "card_table_info_size"),
                value(generation, "size"), value(generation, "allocation_start"), value(generation, "allocation_segment"),
                offsets, (int) number(root.path("heapAnalyzeSuccess").path(0)),
                value(segment, "first_object_offset"), value(segment, "heap"), value(segment, "generation_start_object"),
                value(segment.path("workstation"), "soh"), value(segment.path("workstation"), "uoh"),
                value(segment.path("server"), "soh"), value(segment.path("server"), "uoh"));
    }

    private static long value(JsonNode parent, String key) {
        JsonNode entry = parent.path(key);
        if (!entry.isArray() || entry.isEmpty()) {
            throw new IllegalStateException(RESOURCE + ": no value for " + key);
        }
        return number(entry.get(0));
    }

    private static long number(JsonNode node) {
        if (node.isNumber()) {
            return node.asLong();
        }
        String text = node.asText();
        return text.startsWith("-") ? -Long.decode(text.substring(1)) : Long.decode(text);
    }

    /**
     * The small-object segment size of a server GC with {@code heaps} heaps: 4 GiB up to 4 heaps, half over 4, a
     * quarter over 8 (gc.cpp get_valid_segment_size; the real dumps have 2 heaps).
     */
    public long serverSoh(int heaps) {
        return heaps <= 4 ? serverSoh : heaps <= 8 ? serverSoh / 2 : serverSoh / 4;
    }
}
