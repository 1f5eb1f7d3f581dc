package io.clrheap.walker;

import io.clrheap.memory.Memory;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.discovery.InProcessDiscovery;
import io.clrheap.walker.discovery.InProcessRoute;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.report.HandleTableWalker;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.graph.ObjectGraph;
import io.clrheap.walker.heap.ThreadStoreList;
import io.clrheap.walker.source.OsThread;
import io.clrheap.walker.metadata.MethodTableNames;
import io.clrheap.layout.LayoutException;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.source.ThreadSource;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.walk.ObjectVisitor;
import io.clrheap.walker.walk.WalkRules;
import io.clrheap.walker.walk.WalkSummary;
import io.clrheap.walker.fields.ManagedObject;
import io.clrheap.walker.fields.ManagedType;
import io.clrheap.walker.fields.ObjectFields;
import io.clrheap.walker.query.ObjectCriteria;
import io.clrheap.walker.query.ObjectFilter;
import io.clrheap.walker.query.StringStatistics;
import io.clrheap.layout.GcFlavor;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.graph.RootKind;
import io.clrheap.walker.report.HandleInfo;
import io.clrheap.walker.sos.SosEeHeap;
import io.clrheap.walker.sos.SosGcHandles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An opened dump or process: the runtime in it ({@link #target()}), its GC heap as discovery finds it
 * ({@link #heap()}: sub-heaps, regions or segments with generation and kind, allocation contexts, frozen segments, and
 * the problems met), a streaming object walk, the handle tables, and the type names the file carries. Opened by
 * {@link Dumps}; closing it closes the file or process it reads.
 *
 * <p>Discovery runs once, on first use, and its result is kept. A session may be used from several threads.
 */
public final class DumpSession implements AutoCloseable {

    private final String format;
    private final String name;
    private final Target target;
    private final TypeNames typeNames;
    private final TypeNames metadataNames;
    private final OpenOptions options;
    private final AutoCloseable resource;
    private final ThreadSource threads;
    private DiscoveredHeap heap;
    private InProcessRoute route;
    private ObjectGraph graph;
    private ObjectFields fields;

    DumpSession(String format, String name, Target target, Map<Long, String> typeNames, OpenOptions options, AutoCloseable resource,
                ThreadSource threads) {
        this.threads = threads;
        this.format = format;
        this.name = name;
        this.target = target;
        this.metadataNames = metadataNames(target);
        this.typeNames = metadataNames.orElse(TypeNames.of(typeNames));
        this.options = options;
        this.resource = resource;
    }

    /** What was opened: {@code ELF core}, {@code minidump}, {@code fixture bundle}, {@code live process}, or as given to {@link Dumps#of}. */
    public String format() {
        return format;
    }

    /** The OS threads the image recorded, with their registers and stack ends; empty when it recorded none. */
    public List<OsThread> osThreads() {
        return threads.osThreads();
    }

    /** The file's name, or the process's description. */
    public String name() {
        return name;
    }

    /** The runtime: its module, exact build and version, GC flavour, and the profile bound to it. */
    public Target target() {
        return target;
    }

    /** The process memory. */
    public Memory memory() {
        return target.memory();
    }

    /**
     * Type names: read from the ECMA-335 metadata of the modules in the dump (MethodTable → Module → PE image →
     * TypeDef), as SOS prints them; for the MethodTables whose module's image the dump lacks, the names the file
     * carries (a clrheap fixture's name note), if any. Unnamed MethodTables print by address. Names are resolved when
     * asked, once per MethodTable.
     */
    public TypeNames typeNames() {
        return typeNames;
    }

    /**
     * The object graph: every object's references (from its type's GC descriptor) and its roots: GC handles,
     * finalization queues, and the managed threads' stacks and registers scanned conservatively; built by one walk, on
     * first use, and kept. ClrMD's {@code EnumerateReferences} and {@code EnumerateRoots}; {@code gcroot},
     * {@code objsize}, {@code --live}.
     */
    public synchronized ObjectGraph graph() {
        if (graph == null) {
            DiscoveredHeap h = heap();
            graph = ObjectGraph.build(target, h, walker(), handleTables(), threadStore(), osThreads());
        }
        return graph;
    }

    /** Objects' fields with their names, declared types and values (dumpobj): names from the dump's metadata. */
    public synchronized ObjectFields fields() {
        if (fields == null) {
            MethodTableNames names;
            try {
                names = new MethodTableNames(target.memory(), target.layout());
            } catch (LayoutException e) {
                names = null;
            }
            fields = new ObjectFields(target.memory(), target.layout(), names);
        }
        return fields;
    }

    /**
     * The object at {@code address}, with its fields (ClrMD's {@code ClrHeap.GetObject}): empty when the word there is
     * no real MethodTable (its EEClass does not point back at it), the free-object MethodTable, or not in the dump. The
     * address is not checked against a walk: give an object's start (the walk, {@code gcroot}, a reference field).
     */
    public Optional<ManagedObject> object(long address) {
        WalkRules rules = WalkRules.of(target.layout());
        Memory memory = target.memory();
        try {
            long mt = memory.readPointer(address) & rules.methodTableMask();
            if (mt == 0 || mt == heap().freeMethodTable()) {
                return Optional.empty();
            }
            if (!rules.hasEeClass(memory, mt)) {
                return Optional.empty();
            }
            int flags = (int) memory.readU32(mt + rules.mtFlagsOffset());
            int componentSize = rules.componentSize(flags);
            long count = componentSize == 0 ? 0 : memory.readU32(address + rules.componentCountOffset());
            long size = rules.size(memory.readU32(mt + rules.mtBaseSizeOffset()), componentSize, count);
            String name = typeNames.display(mt, heap().freeMethodTable());
            boolean string = stringMethodTable() != 0 ? mt == stringMethodTable() : name.equals("System.String");
            return Optional.of(new ManagedObject(fields(), memory, name, address, mt, size, string, new ManagedObject.Lookup() {
                @Override
                public Optional<ManagedObject> object(long a) {
                    return DumpSession.this.object(a);
                }

                @Override
                public Optional<ManagedType> type(long m) {
                    return DumpSession.this.type(m);
                }
            }));
        } catch (MissingMemoryException e) {
            return Optional.empty();
        }
    }

    /**
     * {@code criteria} bound to this dump, for {@link #walk}: the objects SOS's {@code !dumpheap} would list with the
     * same options. A {@code live} criterion builds the object graph ({@link #graph()}) first.
     */
    public ObjectFilter filter(ObjectCriteria criteria) {
        return filter(criteria, typeNames());
    }

    /** {@link #filter(ObjectCriteria)} with a type criterion matched against {@code names} (a names file, say). */
    public ObjectFilter filter(ObjectCriteria criteria, TypeNames names) {
        ObjectGraph g = criteria.live() ? graph() : null;
        long stringMt = criteria.strings() ? target.globalPointer("g_pStringClass") : 0;
        return new ObjectFilter(criteria, g == null ? null : g.live(), g == null ? null : g.graph(), stringMt, names,
                heap().freeMethodTable());
    }

    /** The strings that pass {@code criteria} (strings only, whatever it says), grouped by value: one walk. */
    public StringStatistics stringStatistics(ObjectCriteria criteria) {
        var statistics = new StringStatistics(target.memory(), target.layout());
        walk(filter(criteria.stringsOnly()).filtering(statistics));
        return statistics;
    }

    /**
     * The type whose MethodTable is {@code methodTable} (ClrMD's {@code ClrHeap.GetTypeByMethodTable}): empty when the
     * address is no real MethodTable (its EEClass does not point back at it) or not in the dump.
     */
    public Optional<ManagedType> type(long methodTable) {
        WalkRules rules = WalkRules.of(target.layout());
        try {
            if (methodTable == 0 || !rules.hasEeClass(target.memory(), methodTable)) {
                return Optional.empty();
            }
        } catch (MissingMemoryException e) {
            return Optional.empty();
        }
        return Optional.of(new ManagedType(fields(), methodTable, typeNames.display(methodTable, heap().freeMethodTable()), this::type));
    }

    /**
     * System.String's MethodTable as the runtime publishes it (g_pStringClass), or 0 where the build's g_dacTable has
     * no entry for it or the dump lacks the global: a string is known by it when the dump lacks CoreLib's metadata (a
     * trimmed capture of a runtime whose CoreLib is a file of its own) and its type has no name.
     */
    private long stringMethodTable() {
        if (stringMethodTable < 0) {
            try {
                stringMethodTable = target.build().dacTable().indexOf("g_pStringClass").isPresent() ? target.globalPointer("g_pStringClass") : 0;
            } catch (MissingMemoryException e) {
                stringMethodTable = 0;
            }
        }
        return stringMethodTable;
    }

    private long stringMethodTable = -1;

    /** The runtime's thread store: every managed thread with its OS thread id. */
    public ThreadStoreList threadStore() {
        return new HeapDiscovery(target, options.limits()).threads();
    }

    /** Type names from the dump's metadata alone, without the names a file carries. */
    public TypeNames metadataTypeNames() {
        return metadataNames;
    }

    /** Names from metadata when the target's profile says where the chain lies; else none (the profile names the gap). */
    private static TypeNames metadataNames(Target target) {
        try {
            return TypeNames.fromMetadata(new MethodTableNames(target.memory(), target.layout()));
        } catch (LayoutException e) {
            return TypeNames.none();
        }
    }

    /** The GC heap, found the way {@link OpenOptions} says (the dump path by default); discovered once. */
    public synchronized DiscoveredHeap heap() {
        if (heap == null) {
            if (options.nativeCalls().isPresent()) {
                InProcessDiscovery discovery = new InProcessDiscovery(target, options.nativeCalls().get(), options.limits());
                heap = discovery.discover();
                route = discovery.route();
            } else {
                heap = new HeapDiscovery(target, options.limits()).discover();
            }
        }
        return heap;
    }

    /** The in-process route discovery took (thread → GCHeap → vtable → DiagDescrGenerations), when the heap was found in-process. */
    public synchronized Optional<InProcessRoute> inProcessRoute() {
        heap();
        return Optional.ofNullable(route);
    }

    /** A walker over {@link #heap()}: for region-by-region (and parallel) walks and progress. */
    public HeapWalker walker() {
        return new HeapWalker(target.memory(), WalkRules.of(target.layout()), heap(), options.limits());
    }

    /** Walks every object in address order, free objects included; no object is allocated per visit. */
    public WalkSummary walk(ObjectVisitor visitor) {
        return walker().walk(visitor);
    }

    /** The GC handle tables: every handle with its type and target, and the problems met reading them. */
    public HandleTableWalker handleTables() {
        return new HandleTableWalker(target, heap().heaps().size());
    }

    /** SOS's {@code eeheap -gc} of the discovered heap (docs/reports.md): every region with its bounds, and the totals. */
    public SosEeHeap eeHeap() {
        long vars = target.globalPointer("g_gcDacGlobals");
        if (io.clrheap.walker.runtime.GcMode.of(target.memory(), target.layout(), vars) == io.clrheap.walker.runtime.GcMode.REGIONS) {
            return SosEeHeap.of(heap(), target.gc() == GcFlavor.SERVER);
        }
        // a segments GC: each generation's allocation_start and generation 0's allocation context, at the offsets and
        // stride the GC publishes (GcDacVars.generation_size, generation_field_offsets[0] and [2])
        io.clrheap.memory.Memory m = target.memory();
        long stride = m.readLong(vars + target.layout().offset("GcDacVars", "generation_size"));
        long offsets = m.readPointer(vars + target.layout().offset("GcDacVars", "generation_field_offsets"));
        long context = m.readInt(offsets);
        long start = m.readInt(offsets + 8);
        return SosEeHeap.of(heap(), target.gc() == GcFlavor.SERVER, h -> {
            long[] starts = new long[5];
            for (int g = 0; g < 5; g++) {
                starts[g] = m.readPointer(h.generationTable() + g * stride + start);
            }
            long table = h.generationTable() + context;
            return new SosEeHeap.GenerationStarts(starts, m.readPointer(table), m.readPointer(table + 8));
        });
    }

    /**
     * SOS's {@code gchandles} (docs/reports.md): every handle of {@code tables} that holds an object, with the object's
     * MethodTable, size and type as {@code names} gives it; an object the dump lacks has size 0 and type
     * {@code (not in the dump)}.
     */
    public SosGcHandles gcHandles(HandleTableWalker tables, TypeNames names) {
        WalkRules rules = WalkRules.of(target.layout());
        long free = heap().freeMethodTable();
        Memory memory = target.memory();
        List<SosGcHandles.Handle> held = new ArrayList<>();
        for (HandleInfo h : tables.handles()) {
            if (h.target() == 0) {
                continue; // an unused slot: SOS's gchandles lists only handles that hold an object
            }
            RootKind kind = RootKind.ofHandleType(h.typeName());
            if (kind == null) {
                continue; // an internal type (the dependent handles' secondary block): no handle of the program's
            }
            long mt = 0;
            long size = 0;
            String type;
            try {
                mt = memory.readPointer(h.target()) & rules.methodTableMask();
                long baseSize = memory.readU32(mt + rules.mtBaseSizeOffset());
                int componentSize = rules.componentSize((int) memory.readU32(mt + rules.mtFlagsOffset()));
                long count = componentSize == 0 ? 0 : memory.readU32(h.target() + rules.componentCountOffset());
                size = rules.size(baseSize, componentSize, count);
                type = names.display(mt, free);
            } catch (MissingMemoryException e) {
                type = "(not in the dump)";
            }
            held.add(new SosGcHandles.Handle(h.handle(), kind, h.target(), mt, size, h.secondary(), type));
        }
        return new SosGcHandles(held);
    }

    @Override
    public void close() throws IOException {
        try {
            resource.close();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    /** Closes {@code resource} after {@code failure}, keeping what closing throws as suppressed. */
    static void closeQuietly(AutoCloseable resource, Throwable failure) {
        try {
            resource.close();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }
}
