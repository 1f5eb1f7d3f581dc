package io.clrheap.capture.snapshot;

import io.clrheap.capture.nettrace.Nettrace;
import io.clrheap.capture.nettrace.NettraceEvent;
import io.clrheap.capture.nettrace.NettraceFormatException;
import io.clrheap.capture.nettrace.NettraceLimits;
import io.clrheap.capture.nettrace.PayloadException;
import io.clrheap.capture.nettrace.PayloadReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The runtime's own view of its GC heap, decoded from the events of an EventPipe session with the GC heap dump
 * keywords: the heap walk (GCBulkNode, GCBulkEdge, GCBulkType), its roots (GCBulkRootEdge,
 * GCBulkRootConditionalWeakTableElementEdge, GCBulkRootStaticVar) and the GC it ran in (GCStart, GCGenerationRange,
 * GCGlobalHeapHistory, GCPerHeapHistory, GCEnd, GCHeapStats). Written as golden/real's text files by
 * {@link #write(Path)}.
 */
public final class GcHeapSnapshot {

    static final String LIVE_OBJECTS_HEADER = "# address size mt type  (GCBulkNode/GCBulkType from the runtime's own heap walk; sizes unaligned)";
    static final String REFS_HEADER = "# src: referenced objects (GCBulkEdge; only objects with at least one reference are listed)";
    static final String ROOTS_HEADER = "# ROOT kind flags(1=pinning,2=weak,4=interior,8=refcounted) rootid(handle address for kind=Handle) object";
    static final String DEPENDENT_HEADER = "# DEPENDENT rootid(handle) key value   (GCBulkRootConditionalWeakTableElementEdge)";
    static final String STATIC_HEADER = "# STATIC rootid object mt flags field";
    static final List<String> GC_EVENTS_HEADER = List.of(
            "# GC events of the snapshot session (the GC that the heap snapshot induces right after the dump), in order;",
            "# ts = EventPipe timestamp. GCGenerationRange (DiagDescrGenerations): phase=start lines describe the generation",
            "# ranges when that GC started (= heap at dump time), phase=end lines the ranges after it. gen 0-2 SOH, 3 LOH,",
            "# 4 POH; one line per region; start = heap_segment_mem, end = heap_segment_allocated, reservedEnd =",
            "# heap_segment_reserved; only the n_heaps active heaps; read-only (frozen) segments are not listed.");

    /** Objects of the heap walk, in the order the runtime reported them. */
    private final LongList nodeAddress = new LongList();
    private final LongList nodeSize = new LongList();
    private final LongList nodeType = new LongList();
    private final LongList nodeEdges = new LongList();
    private final LongList edges = new LongList();
    private final Map<Long, String> typeNames = new HashMap<>();
    private final List<RootEdge> rootEdges = new ArrayList<>();
    private final List<DependentEdge> dependentEdges = new ArrayList<>();
    private final List<StaticRoot> staticRoots = new ArrayList<>();
    private final List<String> gcEvents = new ArrayList<>();
    /** the compactions of the GCs in the trace, in GC order (GCBulkMovedObjectRanges) */
    private final List<Relocation> relocations = new ArrayList<>();
    private long relocatedNodes;

    private record RootEdge(long timestamp, int kind, long flags, long rootId, long object) {
    }

    private record DependentEdge(long timestamp, long rootId, long key, long value) {
    }

    private record StaticRoot(long timestamp, long rootId, long object, long type, long flags, String field) {
    }

    private GcHeapSnapshot() {
    }

    /** One object the runtime's heap walk reported. */
    public record Node(long address, long size, long methodTable, String type) {
    }

    /** Decodes the runtime provider's GC events of a trace (other events are ignored). */
    public static GcHeapSnapshot decode(Nettrace trace) throws NettraceFormatException {
        return decode(trace, NettraceLimits.DEFAULT);
    }

    public static GcHeapSnapshot decode(Nettrace trace, NettraceLimits limits) throws NettraceFormatException {
        GcHeapSnapshot s = new GcHeapSnapshot();
        List<NettraceEvent> nodeEvents = new ArrayList<>();
        List<NettraceEvent> edgeEvents = new ArrayList<>();
        GcEventLines lines = new GcEventLines(s.gcEvents);
        Relocation.Builder moves = null;
        for (NettraceEvent e : trace.events()) {
            if (!e.metadata().provider().equals(RuntimeEvents.PROVIDER)) {
                continue;
            }
            PayloadReader p = new PayloadReader(e.payload(), e.streamOffset(), limits);
            try {
                switch (e.metadata().eventId()) {
                    case RuntimeEvents.GC_BULK_NODE -> nodeEvents.add(e);
                    case RuntimeEvents.GC_BULK_EDGE -> edgeEvents.add(e);
                    case RuntimeEvents.GC_BULK_TYPE -> s.types(p);
                    case RuntimeEvents.GC_BULK_ROOT_EDGE -> s.rootEdges(e, p);
                    case RuntimeEvents.GC_BULK_ROOT_CWT_ELEMENT_EDGE -> s.dependentEdges(e, p);
                    case RuntimeEvents.GC_BULK_ROOT_STATIC_VAR -> s.staticRoots(e, p);
                    case RuntimeEvents.GC_BULK_MOVED_OBJECT_RANGES -> {
                        if (moves == null) {
                            moves = new Relocation.Builder();
                        }
                        moves.add(e.timestamp(), p);
                    }
                    default -> {
                        if (e.metadata().eventId() == RuntimeEvents.GC_START && moves != null) {
                            s.relocations.add(moves.build()); // the previous GC's
                            moves = null;
                        }
                        lines.accept(e, p);
                    }
                }
            } catch (PayloadException x) {
                throw new NettraceFormatException(e.streamOffset(), "event " + e.metadata().eventId() + " of " + RuntimeEvents.PROVIDER + ": " + x.getMessage());
            }
        }
        if (moves != null) {
            s.relocations.add(moves.build());
        }
        // the walk numbers its bulk events (Index); edges belong to the nodes in order, EdgeCount at a time
        Comparator<NettraceEvent> byIndex = Comparator.comparingLong(GcHeapSnapshot::index);
        nodeEvents.sort(byIndex);
        edgeEvents.sort(byIndex);
        for (NettraceEvent e : nodeEvents) {
            s.nodes(e, limits);
        }
        for (NettraceEvent e : edgeEvents) {
            s.edges(e, limits);
        }
        return s;
    }

    private static long index(NettraceEvent e) {
        byte[] b = e.payload();
        return b.length < 4 ? -1 : (b[0] & 0xffL) | (b[1] & 0xffL) << 8 | (b[2] & 0xffL) << 16 | (b[3] & 0xffL) << 24;
    }

    private void nodes(NettraceEvent e, NettraceLimits limits) throws NettraceFormatException {
        PayloadReader p = new PayloadReader(e.payload(), e.streamOffset(), limits);
        try {
            p.u32();
            int n = p.count("GCBulkNode", 32);
            p.u16();
            for (int i = 0; i < n; i++) {
                long address = p.i64();
                long before = placeInDump(address, e.timestamp());
                if (before != address) {
                    relocatedNodes++;
                }
                nodeAddress.add(before);
                nodeSize.add(p.i64());
                nodeType.add(p.i64());
                nodeEdges.add(p.i64());
            }
        } catch (PayloadException x) {
            throw new NettraceFormatException(e.streamOffset(), "GCBulkNode: " + x.getMessage());
        }
    }

    private void edges(NettraceEvent e, NettraceLimits limits) throws NettraceFormatException {
        PayloadReader p = new PayloadReader(e.payload(), e.streamOffset(), limits);
        try {
            p.u32();
            int n = p.count("GCBulkEdge", 12);
            p.u16();
            for (int i = 0; i < n; i++) {
                edges.add(placeInDump(p.i64(), e.timestamp()));
                p.u32(); // ReferencingFieldID
            }
        } catch (PayloadException x) {
            throw new NettraceFormatException(e.streamOffset(), "GCBulkEdge: " + x.getMessage());
        }
    }

    private void types(PayloadReader p) throws PayloadException {
        int n = p.count("GCBulkType", 31);
        p.u16();
        for (int i = 0; i < n; i++) {
            long typeId = p.i64();
            p.i64(); // ModuleID
            p.u32(); // TypeNameID
            p.u32(); // Flags
            p.u8(); // CorElementType
            String name = p.utf16();
            int parameters = p.count("TypeParameterCount", 8);
            for (int k = 0; k < parameters; k++) {
                p.i64();
            }
            typeNames.putIfAbsent(typeId, name);
        }
    }

    private void rootEdges(NettraceEvent e, PayloadReader p) throws PayloadException {
        p.u32();
        int n = p.count("GCBulkRootEdge", 21);
        p.u16();
        for (int i = 0; i < n; i++) {
            long object = p.i64();
            int kind = p.u8();
            long flags = p.u32();
            long rootId = p.i64();
            rootEdges.add(new RootEdge(e.timestamp(), kind, flags, rootId, object));
        }
    }

    private void dependentEdges(NettraceEvent e, PayloadReader p) throws PayloadException {
        p.u32();
        int n = p.count("GCBulkRootConditionalWeakTableElementEdge", 24);
        p.u16();
        for (int i = 0; i < n; i++) {
            long key = p.i64();
            long value = p.i64();
            long rootId = p.i64();
            dependentEdges.add(new DependentEdge(e.timestamp(), rootId, key, value));
        }
    }

    private void staticRoots(NettraceEvent e, PayloadReader p) throws PayloadException {
        int n = p.count("GCBulkRootStaticVar", 30);
        p.i64(); // AppDomainID
        p.u16();
        for (int i = 0; i < n; i++) {
            long rootId = p.i64();
            long object = p.i64();
            long type = p.i64();
            long flags = p.u32();
            String field = p.utf16();
            staticRoots.add(new StaticRoot(e.timestamp(), rootId, object, type, flags, field));
        }
    }

    /**
     * Where an object that an event at {@code timestamp} names was before the GCs of the trace moved it: the heap walk
     * runs at the end of the snapshot's GC and reports where that GC put each object, after its compaction (and after
     * any GC of the session before it). Each compaction's moved ranges (GCBulkMovedObjectRanges, reported before the
     * walk) are undone, the latest first; an address in no moved range stayed where it was. So the snapshot names
     * objects where the dump, taken before, has them. (0 stays 0.)
     */
    private long placeInDump(long address, long timestamp) {
        long a = address;
        for (int g = relocations.size() - 1; g >= 0; g--) {
            Relocation r = relocations.get(g);
            if (Long.compareUnsigned(r.lastTimestamp(), timestamp) < 0) {
                a = r.before(a);
            }
        }
        return a;
    }

    /** How many of the walk's objects were listed where a GC of the session moved them (and are written where they were before). */
    public long relocatedObjects() {
        return relocatedNodes;
    }

    /** The moved ranges of the GCs of the session before the walk, all together. */
    public long movedRanges() {
        return relocations.stream().mapToLong(Relocation::size).sum();
    }

    /** How many objects the heap walk reported. */
    public int nodeCount() {
        return nodeAddress.size();
    }

    /** The objects of the heap walk, sorted by address, each once (live-objects.txt). */
    public List<Node> liveObjects() {
        int n = nodeAddress.size();
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Long.compareUnsigned(nodeAddress.get(a), nodeAddress.get(b)));
        List<Node> out = new ArrayList<>(n);
        long last = 0;
        boolean first = true;
        for (int i : order) {
            long address = nodeAddress.get(i);
            if (!first && address == last) {
                continue;
            }
            first = false;
            last = address;
            long mt = nodeType.get(i);
            out.add(new Node(address, nodeSize.get(i), mt, typeNames.getOrDefault(mt, "?")));
        }
        return out;
    }

    /** roots.txt's ROOT lines (GCBulkRootEdge), the objects where the dump has them. */
    public List<String> roots() {
        List<String> out = new ArrayList<>(rootEdges.size());
        for (RootEdge r : rootEdges) {
            out.add(String.format(Locale.ROOT, "ROOT %s 0x%x 0x%x 0x%x", RuntimeEvents.rootKind(r.kind()), r.flags(), r.rootId(),
                    placeInDump(r.object(), r.timestamp())));
        }
        return out;
    }

    private List<String> dependents() {
        List<String> out = new ArrayList<>(dependentEdges.size());
        for (DependentEdge d : dependentEdges) {
            out.add(String.format(Locale.ROOT, "DEPENDENT 0x%x 0x%x 0x%x", d.rootId(), placeInDump(d.key(), d.timestamp()),
                    placeInDump(d.value(), d.timestamp())));
        }
        return out;
    }

    private List<String> statics() {
        List<String> out = new ArrayList<>(staticRoots.size());
        for (StaticRoot r : staticRoots) {
            out.add(String.format(Locale.ROOT, "STATIC 0x%x 0x%x 0x%x 0x%x %s", r.rootId(), placeInDump(r.object(), r.timestamp()), r.type(), r.flags(),
                    r.field()));
        }
        return out;
    }

    public List<String> gcEvents() {
        return List.copyOf(gcEvents);
    }

    /** refs.txt's lines: an object's references in the order the walk reported them; objects without any are left out. */
    public List<String> refs() throws NettraceFormatException {
        return refs(Set.of());
    }

    /** refs.txt's lines without those of the objects at {@code leftOut}. */
    public List<String> refs(Set<Long> leftOut) throws NettraceFormatException {
        List<String> out = new ArrayList<>();
        int next = 0;
        for (int i = 0; i < nodeAddress.size(); i++) {
            long count = nodeEdges.get(i);
            if (count == 0) {
                continue;
            }
            if (count < 0 || count > edges.size() - next) {
                throw new NettraceFormatException(0, String.format(Locale.ROOT,
                        "object 0x%x has %d references, but only %d GCBulkEdge values are left", nodeAddress.get(i), count, edges.size() - next));
            }
            if (leftOut.contains(nodeAddress.get(i))) {
                next += (int) count;
                continue;
            }
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "0x%x:", nodeAddress.get(i)));
            for (long k = 0; k < count; k++) {
                line.append(String.format(Locale.ROOT, " 0x%x", edges.get(next++)));
            }
            out.add(line.toString());
        }
        return out;
    }

    /** Writes live-objects.txt, roots.txt, refs.txt and gc-events.txt into a folder; returns the objects listed. */
    public int write(Path folder) throws IOException {
        return write(folder, Set.of());
    }

    /**
     * Writes live-objects.txt, roots.txt, refs.txt and gc-events.txt into a folder, without the objects at
     * {@code leftOut} in live-objects.txt and refs.txt (objects that the dump does not hold as the snapshot lists them).
     *
     * @return the objects live-objects.txt lists, the count a golden folder's info.txt states
     */
    public int write(Path folder, Set<Long> leftOut) throws IOException {
        List<String> live = new ArrayList<>();
        live.add(LIVE_OBJECTS_HEADER);
        for (Node node : liveObjects()) {
            if (!leftOut.contains(node.address())) {
                live.add(String.format(Locale.ROOT, "0x%x %d 0x%x %s", node.address(), node.size(), node.methodTable(), node.type()));
            }
        }
        writeLines(folder.resolve("live-objects.txt"), live);
        List<String> r = new ArrayList<>();
        r.add(ROOTS_HEADER);
        r.addAll(roots());
        r.add(DEPENDENT_HEADER);
        r.addAll(dependents());
        r.add(STATIC_HEADER);
        r.addAll(statics());
        writeLines(folder.resolve("roots.txt"), r);
        List<String> refs = new ArrayList<>();
        refs.add(REFS_HEADER);
        refs.addAll(refs(leftOut));
        writeLines(folder.resolve("refs.txt"), refs);
        List<String> gc = new ArrayList<>(GC_EVENTS_HEADER);
        gc.addAll(gcEvents);
        writeLines(folder.resolve("gc-events.txt"), gc);
        return live.size() - 1;
    }

    private static void writeLines(Path file, List<String> lines) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (String line : lines) {
                w.write(line);
                w.write('\n');
            }
        }
    }
}
