package io.clrheap.walker.discovery;

import io.clrheap.layout.DacTable;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.heap.FieldRead;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.runtime.Target;
import java.util.ArrayList;
import java.util.List;

/**
 * One run of discovery: every memory read it makes goes through {@link #read}, which tells the listener; every
 * problem through {@link #problem}. With {@link DiscoveryListener#NONE} a read is the memory access alone: no event,
 * no allocation.
 */
final class Chase {

    /** The source of an offset read from a GcDacVars offset array. */
    static final String PUBLISHED = "published by the GC";

    final Target target;
    final Memory memory;
    final RuntimeLayout layout;
    final WalkLimits limits;
    private final DiscoveryListener listener;
    private final boolean listening;
    private final List<Problem> problems = new ArrayList<>();
    /** The last read that found its memory missing: what a problem raised for it names. */
    private FieldSpec failed;
    private boolean chainBroken;
    private long failedBase;

    Chase(Target target, WalkLimits limits, DiscoveryListener listener) {
        this.target = target;
        this.memory = target.memory();
        this.layout = target.layout();
        this.limits = limits;
        this.listener = listener;
        this.listening = listener != DiscoveryListener.NONE;
    }

    DiscoveryListener listener() {
        return listener;
    }

    /** Whether anyone listens: callers build structural events only then. */
    boolean listening() {
        return listening;
    }

    void emit(DiscoveryEvent event) {
        listener.event(event);
    }

    FieldSpec field(String type, String field) {
        return FieldSpec.profile(type, layout.field(type, field));
    }

    /** {@code heap_segment.heap}, the region's owning gc_heap: server GC builds only (null elsewhere). */
    FieldSpec regionOwner() {
        return layout.gc() == GcFlavor.SERVER && layout.type("heap_segment").findField("heap").isPresent() ? field("heap_segment", "heap") : null;
    }

    /**
     * Reads {@code f} of the structure at {@code base}.
     *
     * @throws MissingMemoryException when the memory is not there (the read is then {@link #failedRead()})
     */
    long read(FieldSpec f, long base) {
        long address = base + f.offset();
        long value;
        try {
            value = switch (f.size()) {
                case 1 -> f.signed() ? memory.readByte(address) : memory.readU8(address);
                case 2 -> f.signed() ? memory.readShort(address) : memory.readU16(address);
                case 4 -> f.signed() ? memory.readInt(address) : memory.readU32(address);
                default -> memory.readLong(address);
            };
        } catch (MissingMemoryException e) {
            failed = f;
            failedBase = base;
            if (listening) {
                listener.event(new Read(f.at(base), f.type(), f.size(), 0, e.getMessage()));
            }
            throw e;
        }
        if (listening) {
            listener.event(new Read(f.at(base), f.type(), f.size(), value, ""));
        }
        return value;
    }

    /** The last read that found its memory missing (null before any). */
    FieldRead failedRead() {
        return failed == null ? null : failed.at(failedBase);
    }

    /** The {@code g_dacTable} entry of runtime global {@code name}: the global's address (docs/reference/discovery.md section 4). */
    long global(String name) {
        return read(entry(name), target.module().dacTable());
    }

    /** The pointer runtime global {@code name} holds, read through its {@code g_dacTable} entry. */
    long globalPointer(String name) {
        return read(FieldSpec.variable(name, "pointer", 8, false, "g_dacTable"), global(name));
    }

    private FieldSpec entry(String name) {
        DacTable table = target.build().dacTable();
        int index = table.indexOf(name).orElseThrow(() -> new IllegalStateException(
                "the " + target.version() + " profile has no g_dacTable index for " + name));
        String source = "g_dacTable index, " + table.entries().get(name).provenance().certainty().id() + ": "
                + table.entries().get(name).provenance().sourceKey();
        return new FieldSpec("g_dacTable", "[" + index + "] " + name, 8L * index, "pointer", 8, false, source);
    }

    /**
     * Whether a problem raised so far means a list may hide regions (a cut chain, an unreadable descriptor, a
     * generation or heap without regions, a heap listed twice): then the region map is searched for the rest.
     */
    boolean chainBroken() {
        return chainBroken;
    }

    void problem(ProblemKind kind, long address, String region, String detail, FieldRead cause) {
        chainBroken |= switch (kind) {
            case SEGMENT_CYCLE, UNREADABLE_STRUCTURE, BAD_REGION_BOUNDS, MISSING_GENERATION_START, HEAP_WITHOUT_REGIONS, DUPLICATE_HEAP,
                 REGION_LISTED_TWICE, FOREIGN_REGION, EPHEMERAL_NOT_LISTED, BAD_HEAP_COUNT -> true;
            default -> false;
        };
        Problem p = new Problem(kind, address, region, detail, cause);
        problems.add(p);
        if (listening) {
            listener.event(new ProblemRaised(p));
        }
    }

    List<Problem> problems() {
        return problems;
    }
}
