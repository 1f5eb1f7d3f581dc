package io.clrheap.dac.fields;

import io.clrheap.dac.DacEngine;
import io.clrheap.dac.com.Hresult;
import io.clrheap.dac.library.DacException;
import io.clrheap.dac.sos.FieldDescData;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.value.ElementType;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.fields.FieldDesc;
import io.clrheap.walker.fields.FieldDescReader;
import io.clrheap.walker.fields.FieldLayoutException;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.walk.WalkRules;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Microsoft's DAC as the referee of the walker's fields: for every MethodTable given (by default every one of the
 * heap's objects and their parent chains), the fields the DAC lists as SOS's DisplayFields does
 * ({@code GetMethodTableFieldData}, {@code GetFieldDescData}; {@link io.clrheap.dac.walk.SosFieldWalk}) against {@link FieldDescReader}'s:
 * parent, the three counts, then FieldDesc by FieldDesc the address, token, offset, element type, static-ness,
 * thread-static-ness and enclosing class; and each MethodTable's whole instance-field list, base-most first, against
 * {@link FieldDescReader#instanceFields}. Works on any dump the DAC reads (a real core, an emulated fixture).
 */
public final class DacFieldCheck {

    /** Differences kept in a report (all are counted). */
    public static final int MAX_DIFFERENCES = 10_000;
    /** A heap with more distinct MethodTables than this is not a runtime's (a damaged walk): the rest are not listed. */
    public static final int MAX_METHOD_TABLES = 1 << 20;

    private final DacEngine engine;
    private final List<Path> imageFolders;

    /** A check by {@code engine} of dumps that hold their modules' images (a full dump, {@code --withheap}). */
    public DacFieldCheck(DacEngine engine) {
        this(engine, List.of());
    }

    /**
     * A check by {@code engine} that lets the DAC read module images the dump lacks from the files in {@code imageFolders}
     * (see {@link DacEngine#listFields}).
     */
    public DacFieldCheck(DacEngine engine, List<Path> imageFolders) {
        this.engine = engine;
        this.imageFolders = List.copyOf(imageFolders);
    }

    /** Checks every MethodTable of {@code target}'s heap ({@link #heapMethodTables}) in {@code dump}. */
    public FieldCheckReport check(Path dump, Target target, Duration timeout) throws DacException, IOException, InterruptedException {
        long start = System.nanoTime();
        List<Long> methodTables = heapMethodTables(target);
        Duration walk = Duration.ofNanos(System.nanoTime() - start);
        return check(dump, target, methodTables, timeout, walk);
    }

    /** Checks {@code methodTables} of {@code dump}, whose runtime {@code target} found. */
    public FieldCheckReport check(Path dump, Target target, List<Long> methodTables, Duration timeout)
            throws DacException, IOException, InterruptedException {
        return check(dump, target, methodTables, timeout, Duration.ZERO);
    }

    private FieldCheckReport check(Path dump, Target target, List<Long> methodTables, Duration timeout, Duration walkerSoFar)
            throws DacException, IOException, InterruptedException {
        long start = System.nanoTime();
        DacFieldList dac = new DacFieldList();
        engine.listFields(dump, target, methodTables, imageFolders, dac, timeout);
        Duration dacTime = Duration.ofNanos(System.nanoTime() - start);
        return compare(target, methodTables, dac, dacTime, walkerSoFar);
    }

    /**
     * The distinct MethodTables of the objects the walker finds in {@code target}'s heap, each followed by its parent
     * chain, in the order met; at most {@link #MAX_METHOD_TABLES}. Not the free-space MethodTable: it has no class
     * (the 9.0.1 DAC's GetMethodTableFieldData answers E_UNEXPECTED for it).
     */
    public static List<Long> heapMethodTables(Target target) {
        Set<Long> objects = new LinkedHashSet<>();
        DiscoveredHeap heap = new HeapDiscovery(target).discover();
        new HeapWalker(target.memory(), WalkRules.of(target.layout()), heap, WalkLimits.DEFAULT)
                .walk((address, mt, size, region) -> {
                    if (mt != heap.freeMethodTable() && objects.size() < MAX_METHOD_TABLES) {
                        objects.add(mt);
                    }
                });
        FieldDescReader reader = new FieldDescReader(target.memory(), target.layout());
        Set<Long> all = new LinkedHashSet<>();
        for (long mt : objects) {
            long t = mt;
            for (int depth = 0; t != 0 && all.size() < MAX_METHOD_TABLES && depth < 256 && all.add(t); depth++) {
                try {
                    t = reader.parent(t);
                } catch (MissingMemoryException e) {
                    break; // the DAC is asked about it anyway; the comparison names what the walker cannot read
                }
            }
        }
        return List.copyOf(all);
    }

    /** Compares what the DAC listed with what the walker reads in {@code target}, MethodTable by MethodTable. */
    public static FieldCheckReport compare(Target target, List<Long> methodTables, DacFieldList dac, Duration dacTime, Duration walkerSoFar) {
        long start = System.nanoTime();
        FieldDescReader reader = new FieldDescReader(target.memory(), target.layout());
        Differences out = new Differences();
        Set<Long> unreadableFieldDescs = new java.util.HashSet<>();
        for (var f : dac.failures()) {
            if (f.call().equals("GetFieldDescData") && f.hresult() == Hresult.CORDBG_E_READVIRTUAL_FAILURE) {
                unreadableFieldDescs.add(f.argument());
            }
        }
        Set<Long> unreadable = new LinkedHashSet<>();
        int compared = 0;
        long fields = 0;
        int chains = 0;
        for (long mt : methodTables) {
            Optional<DacFieldList.Listing> listing = dac.listing(mt);
            if (listing.isEmpty()) {
                out.add(mt, 0, "listing", "none (a DAC call failed)", "-");
                continue;
            }
            DacFieldList.Listing d = listing.get();
            List<FieldDesc> own;
            long parent;
            FieldDescReader.Counts counts;
            try {
                parent = reader.parent(mt);
                counts = reader.counts(reader.eeClass(mt));
                own = reader.introduced(mt);
            } catch (FieldLayoutException | MissingMemoryException e) {
                out.add(mt, 0, "listing", d.fields().size() + " fields", "cannot read: " + e.getMessage());
                continue;
            }
            compared++;
            // the DAC's list ended at a FieldDesc whose module's metadata it could not read: compared as far as it went
            boolean cut = d.fields().size() < own.size() && unreadableFieldDescs.contains(own.get(d.fields().size()).address());
            if (cut) {
                unreadable.add(mt);
            }
            out.compare(mt, 0, "parent", hex(d.data().parent()), hex(parent));
            out.compare(mt, 0, "instance fields (inherited included)", d.counts().numInstanceFields(), counts.instance());
            out.compare(mt, 0, "static fields", d.counts().numStaticFields(), counts.statics());
            out.compare(mt, 0, "thread-static fields", d.counts().numThreadStaticFields(), counts.threadStatics());
            if (!cut) {
                out.compare(mt, 0, "fields of its own", d.fields().size(), own.size());
            }
            for (int i = 0; i < Math.min(d.fields().size(), own.size()); i++) {
                fields++;
                compareField(out, mt, d.fields().get(i), own.get(i));
            }
        }
        for (long mt : methodTables) {
            if (dac.listing(mt).isPresent() && compareInstanceChain(out, mt, dac, reader, unreadable)) {
                chains++;
            }
        }
        Duration walker = walkerSoFar.plusNanos(System.nanoTime() - start);
        return new FieldCheckReport(compared, fields, chains, List.copyOf(unreadable), out.kept, out.count, dac.failures(), dacTime, walker);
    }

    private static void compareField(Differences out, long mt, DacFieldList.Field dacField, FieldDesc mine) {
        FieldDescData d = dacField.data();
        int token = d.token() != 0 ? d.token() : mine.token();
        out.compare(mt, token, "FieldDesc address", hex(dacField.address()), hex(mine.address()));
        out.compare(mt, token, "token", hex(d.token()), hex(mine.token()));
        out.compare(mt, token, "offset", hex(d.offset()), hex(mine.offset()));
        out.compare(mt, token, "element type", typeName(d.type()), typeName(mine.elementType()));
        out.compare(mt, token, "static", d.isStatic(), mine.isStatic());
        out.compare(mt, token, "thread-static", d.isThreadLocal(), mine.isThreadStatic());
        out.compare(mt, token, "enclosing class", hex(d.enclosingClass()), hex(mine.enclosingClass()));
    }

    /**
     * The DAC's whole instance-field list of {@code mt} (DisplayFields' recursion: the parent's first, each class's
     * non-static fields) against the walker's; false when a class of the chain has no DAC listing or an unreadable one.
     */
    private static boolean compareInstanceChain(Differences out, long mt, DacFieldList dac, FieldDescReader reader, Set<Long> unreadable) {
        List<Long> chain = new ArrayList<>();
        for (long t = mt; t != 0; ) {
            Optional<DacFieldList.Listing> l = dac.listing(t);
            if (l.isEmpty() || unreadable.contains(t) || chain.size() >= 256) {
                return false;
            }
            chain.add(t);
            t = l.get().data().parent();
        }
        List<Long> fromDac = new ArrayList<>();
        for (int i = chain.size() - 1; i >= 0; i--) {
            for (DacFieldList.Field f : dac.listing(chain.get(i)).orElseThrow().fields()) {
                if (!f.data().isStatic()) {
                    fromDac.add(f.address());
                }
            }
        }
        List<Long> mine;
        try {
            mine = reader.instanceFields(mt).stream().map(FieldDesc::address).toList();
        } catch (FieldLayoutException | MissingMemoryException e) {
            out.add(mt, 0, "instance fields, base-most first", fromDac.size() + " fields", "cannot read: " + e.getMessage());
            return true;
        }
        if (!fromDac.equals(mine)) {
            out.add(mt, 0, "instance fields, base-most first", addresses(fromDac), addresses(mine));
        }
        return true;
    }

    private static String addresses(List<Long> list) {
        return list.stream().map(DacFieldCheck::hex).toList().toString();
    }

    private static String typeName(int type) {
        return ElementType.name(type);
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    /** The differences found, the first {@link #MAX_DIFFERENCES} kept. */
    private static final class Differences {
        private final List<FieldDifference> kept = new ArrayList<>();
        private long count;

        void compare(long mt, int token, String what, Object dac, Object walker) {
            if (!dac.equals(walker)) {
                add(mt, token, what, String.valueOf(dac), String.valueOf(walker));
            }
        }

        void add(long mt, int token, String what, String dac, String walker) {
            count++;
            if (kept.size() < MAX_DIFFERENCES) {
                kept.add(new FieldDifference(mt, token, what, dac, walker));
            }
        }
    }
}
