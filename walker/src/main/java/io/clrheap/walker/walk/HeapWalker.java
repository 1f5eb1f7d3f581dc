package io.clrheap.walker.walk;

import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.heap.WalkLimits;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Walks the objects of discovered regions (docs/reference/walker-semantics.md section 1, docs/reference/discovery.md section 9):
 * objects tile {@code [mem, end)}; size = BaseSize + ComponentSize × count (count: u32 at +8); the walk steps by
 * max(align8(size), 24); in gen0/1/2 regions every allocation context {@code [alloc_ptr, alloc_limit + 24)} is
 * skipped. A bad object is reported as a {@link Problem} and the walk resumes at the next word that starts a
 * plausible object (a MethodTable already seen valid, fitting in the region) or the end of the next allocation
 * context, whichever comes first; it never loops and allocates nothing per object.
 *
 * <p>Long because the per-object loop, the resynchronisation after a bad object and the skipping of allocation contexts
 * are one hot path: in one class the JIT compiles and inlines them as a unit (BENCHMARKS.md measures it).
 */
public final class HeapWalker {

    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** How far ahead of the object being read the walk touches memory ({@link RegionWalk#touchAhead}). */
    private static final long AHEAD = Long.getLong("clrheap.walk.ahead", 256);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final Memory memory;
    private final WalkRules rules;
    private final DiscoveredHeap heap;
    private final WalkLimits limits;
    private final List<Region> regions;
    /** Where a region walk leaves what its reads ahead read, once per region (nothing uses it). */
    @SuppressWarnings("unused")
    private volatile long touched;
    /** Bytes of the regions walked so far (for progress reports; walks update it per region). */
    private final java.util.concurrent.atomic.AtomicLong walkedBytes = new java.util.concurrent.atomic.AtomicLong();

    /** Starts and ends of the memory's present ranges, sorted: a walk that meets missing memory jumps to the next. */
    private final long[] presentStarts;
    private final long[] presentEnds;

    public HeapWalker(Memory memory, WalkRules rules, DiscoveredHeap heap, WalkLimits limits) {
        this.memory = memory;
        this.rules = rules;
        this.heap = heap;
        this.limits = limits;
        this.regions = heap.regionsByAddress();
        List<io.clrheap.memory.MemoryRange> present = memory.ranges();
        this.presentStarts = new long[present.size()];
        this.presentEnds = new long[present.size()];
        for (int i = 0; i < present.size(); i++) {
            presentStarts[i] = present.get(i).start();
            presentEnds[i] = present.get(i).end();
        }
    }

    /** The first present address at or after {@code address} (8-aligned), or -1 when none follows. */
    private long nextPresent(long address) {
        int lo = 0;
        int hi = presentEnds.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(presentEnds[mid], address) > 0) {
                found = mid;
                hi = mid - 1;
            } else {
                lo = mid + 1;
            }
        }
        if (found < 0) {
            return -1;
        }
        long start = Long.compareUnsigned(presentStarts[found], address) > 0 ? presentStarts[found] : address;
        return rules.align(start);
    }

    private MethodTableCache newCache() {
        return new MethodTableCache(memory, rules, heap.freeMethodTable(), limits.maxMethodTables());
    }

    /** The regions walked, in walk order (address order). */
    public List<Region> regions() {
        return regions;
    }

    /** The object bytes of all regions: what {@link #walkedBytes()} grows to. */
    public long totalBytes() {
        return regions.stream().mapToLong(Region::objectBytes).sum();
    }

    /** The object bytes of the regions walked so far; safe to read from another thread while a walk runs. */
    public long walkedBytes() {
        return walkedBytes.get();
    }

    /** Walks every region in address order on this thread. */
    public WalkSummary walk(ObjectVisitor visitor) {
        MethodTableCache cache = newCache();
        WalkSummary total = WalkSummary.EMPTY;
        for (Region region : regions) {
            total = total.plus(walkRegion(region, visitor, cache));
        }
        return total;
    }

    /**
     * Walks the regions on {@code parallelism} threads, one visitor per region (from {@code perRegion}), and hands
     * each visitor to {@code inRegionOrder} in region address order as soon as it and those before it are done — so
     * that merging gives the same report as a sequential walk, and at most a few visitors per thread are alive.
     * Whether a region's walk can resume after a bad object depends on the dump only (not on which thread walked
     * what before), so the result does not depend on scheduling.
     */
    public <V extends ObjectVisitor> void walkRegions(Supplier<V> perRegion, java.util.function.Consumer<V> inRegionOrder,
                                                      int parallelism) throws InterruptedException {
        int threads = Math.max(1, Math.min(parallelism, regions.size()));
        BlockingQueue<MethodTableCache> caches = new ArrayBlockingQueue<>(threads);
        for (int i = 0; i < threads; i++) {
            caches.add(newCache());
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "clrheap-walk");
            t.setDaemon(true);
            return t;
        });
        int window = threads * 4;
        java.util.ArrayDeque<Future<V>> inFlight = new java.util.ArrayDeque<>(window);
        try {
            for (Region region : regions) {
                if (inFlight.size() == window) {
                    inRegionOrder.accept(inFlight.removeFirst().get());
                }
                inFlight.addLast(pool.submit(() -> {
                    V visitor = perRegion.get();
                    MethodTableCache cache = caches.take();
                    try {
                        walkRegion(region, visitor, cache);
                    } finally {
                        caches.add(cache);
                    }
                    return visitor;
                }));
            }
            while (!inFlight.isEmpty()) {
                inRegionOrder.accept(inFlight.removeFirst().get());
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("a region walk failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** The allocation contexts inside a small-object region, sorted by alloc_ptr: [ptr0, limit0, ptr1, limit1, …]. */
    private long[] contextsIn(Region region) {
        if (!region.kind().smallObjectHeap()) {
            return new long[0];
        }
        List<AllocContextInfo> inside = new ArrayList<>();
        for (AllocContextInfo c : heap.contexts()) {
            if (c.inUse() && Long.compareUnsigned(c.pointer() - region.mem(), region.end() - region.mem()) <= 0) {
                inside.add(c);
            }
        }
        inside.sort((a, b) -> Long.compareUnsigned(a.pointer(), b.pointer()));
        long[] pairs = new long[inside.size() * 2];
        for (int i = 0; i < inside.size(); i++) {
            pairs[2 * i] = inside.get(i).pointer();
            pairs[2 * i + 1] = inside.get(i).limit();
        }
        return pairs;
    }

    private WalkSummary walkRegion(Region region, ObjectVisitor visitor, MethodTableCache cache) {
        WalkSummary summary = new RegionWalk(region, visitor, cache, contextsIn(region)).run();
        if (releaseWalked) {
            release(region);
        }
        walkedBytes.addAndGet(region.objectBytes());
        return summary;
    }

    /**
     * Whether a region's pages are given back after its walk, where the memory is a file mapped into this process
     * ({@link MemorySegment#unload}): they count in the process's resident size otherwise, so that walking a dump maps
     * all of it. Reading them again later is correct (the kernel reads them back from the file), only slower; memory
     * that is not a file mapping is never touched. Off by default: set it for a walk that reads each region once.
     */
    public HeapWalker releaseWalkedMemory(boolean release) {
        this.releaseWalked = release;
        return this;
    }

    private volatile boolean releaseWalked;

    private void release(Region region) {
        long address = region.mem();
        long end = region.end();
        while (Long.compareUnsigned(address, end) < 0) {
            MemorySegment view = memory.contiguous(address);
            if (view == null || view.byteSize() == 0) {
                long next = nextPresent(address + 1);
                if (next < 0 || Long.compareUnsigned(next, address) <= 0) {
                    return;
                }
                address = next;
                continue;
            }
            long length = Math.min(view.byteSize(), end - address);
            if (view.isMapped()) {
                view.asSlice(0, length).unload();
            }
            address += length;
        }
    }

    /** The state of one region's walk. */
    private final class RegionWalk {
        private final Region region;
        private final ObjectVisitor visitor;
        private final MethodTableCache cache;
        private long[] contexts;
        private final long end;
        private final long countOffset = rules.componentCountOffset();
        private final long methodTableMask = rules.methodTableMask();
        private final long alignment = rules.alignment();
        private final long minObjectSize = rules.minObjectSize();
        private int nextContext;
        /** {@code contexts[nextContext]}, or the highest address when no context is left: one compare per object. */
        private long nextContextAt;
        private int problems;
        private ProblemKind pendingKind;
        private String pendingDetail;
        private long objects;
        private long bytes;
        /**
         * The window: a view of the memory from {@code windowStart} on ({@link Memory#contiguous}), and the last address
         * the number of offsets an 8-byte read may start at in it. An object's words are read from the window when they lie in it — no
         * address lookup, no interface call — and the ordinary way otherwise (which also refills the window), so that
         * the walk meets missing memory exactly as before.
         */
        private MemorySegment window;
        private long windowStart;
        private long windowLongs;
        /** The offsets in the window where both an object's MethodTable word and its count lie in it ({@link #fastStep}). */
        private long windowFast;
        /** What {@link #touchAhead} read, kept so that the reads are not optimised away. */
        private long sink;

        RegionWalk(Region region, ObjectVisitor visitor, MethodTableCache cache, long[] contexts) {
            this.region = region;
            this.visitor = visitor;
            this.cache = cache;
            this.contexts = contexts;
            this.end = region.end();
        }

        WalkSummary run() {
            dropContextsOverObjects();
            nextContextAt = contexts.length == 0 ? -1 : contexts[0];
            long address = region.mem();
            while (true) {
                long next = fastStep(address);
                if (next != address) {
                    address = next;
                    continue;
                }
                if (Long.compareUnsigned(address, end) >= 0) {
                    break;
                }
                // everything else, as the walk always did: contexts, reads outside the window, problems
                long skipTo = skipContext(address);
                if (skipTo != address) {
                    address = skipTo;
                    continue;
                }
                next = visit(address);
                if (next >= 0) {
                    address = next;
                    continue;
                }
                if (++problems >= limits.maxProblemsPerRegion()) {
                    report(pendingKind, address, String.format("%s; %d problems in this region, the remaining 0x%x bytes are skipped",
                            pendingDetail, problems, end - address));
                    break;
                }
                long resumed = resync(address + rules.minObjectSize());
                report(pendingKind, address, Long.compareUnsigned(resumed, end) < 0
                        ? String.format("%s; the walk resumes at 0x%x", pendingDetail, resumed)
                        : String.format("%s; no plausible object follows, the rest of the region is skipped", pendingDetail));
                address = resumed;
            }
            touched = sink; // published once per region, so that the reads ahead are kept
            return new WalkSummary(objects, bytes, problems);
        }

        /**
         * The common case of the walk, kept small enough to be inlined into {@link #run}'s loop, which keeps the
         * address in a register: the object at {@code at} lies in the window (so before the region's end), no
         * allocation context starts at or before it, its MethodTable word and count lie in the window, its
         * MethodTable is known valid (or valid once loaded) and it fits in the region. Visits it and answers the next
         * address; in every other case answers {@code at}, having done nothing, and {@link #run} takes the ordinary
         * path, which reads and checks everything again as before — so what is visited and reported is unchanged.
         */
        private long fastStep(long at) {
            long off = at - windowStart;
            if (Long.compareUnsigned(off, windowFast) < 0 && Long.compareUnsigned(at, nextContextAt) < 0) {
                long word = window.get(U64, off);
                long ahead = off + AHEAD;
                if (Long.compareUnsigned(ahead, windowLongs) < 0) {
                    sink ^= window.get(U64, ahead);
                }
                long mt = word & methodTableMask;
                long info = mt == 0 ? MethodTableCache.INVALID : cache.lookup(mt);
                if (info != MethodTableCache.INVALID) {
                    int component = MethodTableCache.componentSize(info);
                    // read whether or not the type has components (no branch on the type); ignored when it has none
                    long count = Integer.toUnsignedLong(window.get(U32, off + countOffset)) & -(long) Integer.signum(component);
                    long size = MethodTableCache.baseSize(info) + count * component;          // rules.size
                    long step = Math.max((size + alignment - 1) & -alignment, minObjectSize); // rules.step
                    if (Long.compareUnsigned(step, end - at) <= 0) {
                        visitor.object(at, mt, size, region);
                        objects++;
                        bytes += size;
                        return at + step;
                    }
                }
            }
            return at;
        }

        /**
         * A live allocation context's memory holds no object yet (the GC hands it out zeroed), so a context whose
         * {@code alloc_ptr} starts two plausible objects in a row is corrupt: skipping it would hide those objects.
         * It is reported and ignored, and its span walked like any other. Runs once per region, before the walk.
         */
        private void dropContextsOverObjects() {
            for (int i = 0; i < contexts.length; i += 2) {
                long pointer = contexts[i];
                long next;
                try {
                    next = Long.compareUnsigned(pointer, end) < 0 ? plausibleObjectEnd(pointer) : -1;
                    if (next < 0 || (Long.compareUnsigned(next, end) < 0 && plausibleObjectEnd(next) < 0)) {
                        continue;
                    }
                } catch (MissingMemoryException e) {
                    continue;
                }
                AllocContextInfo owner = contextAt(pointer);
                report(ProblemKind.BAD_ALLOC_CONTEXT, owner == null ? pointer : owner.location(), String.format(
                        "%s: alloc_ptr 0x%x (alloc_limit 0x%x) lies on an object (MethodTable 0x%x), where a live context holds none; the context is ignored and its span walked",
                        owner == null ? "an allocation context" : owner.owner(), pointer, contexts[i + 1],
                        memory.readLong(pointer) & rules.methodTableMask()));
                contexts[i] = contexts[i + 1] = -1; // dropped: removed below
            }
            long[] kept = new long[contexts.length];
            int n = 0;
            for (int i = 0; i < contexts.length; i += 2) {
                if (contexts[i] != -1 || contexts[i + 1] != -1) {
                    kept[n++] = contexts[i];
                    kept[n++] = contexts[i + 1];
                }
            }
            contexts = java.util.Arrays.copyOf(kept, n);
        }

        private AllocContextInfo contextAt(long pointer) {
            for (AllocContextInfo c : heap.contexts()) {
                if (c.inUse() && c.pointer() == pointer) {
                    return c;
                }
            }
            return null;
        }

        /** If an allocation context starts at {@code address}, the address past it (limit + tail reserve), else {@code address}. */
        private long skipContext(long address) {
            while (nextContext < contexts.length && Long.compareUnsigned(contexts[nextContext], address) < 0) {
                nextContext += 2;
            }
            long skipTo = address;
            if (nextContext < contexts.length && contexts[nextContext] == address) {
                long past = rules.contextEnd(contexts[nextContext + 1]);
                nextContext += 2;
                skipTo = Long.compareUnsigned(past, address) > 0 ? past : address + rules.minObjectSize();
            }
            nextContextAt = nextContext < contexts.length ? contexts[nextContext] : -1;
            return skipTo;
        }

        /** Visits the object at {@code address}; returns the next address, or -1 after reporting a problem. */
        private long visit(long address) {
            long word;
            long info;
            long count = 0;
            try {
                word = readLong(address);
                touchAhead(address);
                long mt = word & rules.methodTableMask();
                if (mt == 0) {
                    return pending(ProblemKind.NULL_METHOD_TABLE, "the MethodTable word is 0x" + Long.toHexString(word));
                }
                info = cache.lookup(mt);
                if (info == MethodTableCache.INVALID) {
                    return pending(ProblemKind.BAD_METHOD_TABLE, String.format(
                            "MethodTable 0x%x is unreadable or has an implausible BaseSize", mt));
                }
                int component = MethodTableCache.componentSize(info);
                long countAt = address + countOffset - windowStart;
                if (Long.compareUnsigned(countAt, windowLongs) < 0) {
                    // read whether or not the type has components (no branch on the type); ignored when it has none
                    count = Integer.toUnsignedLong(window.get(U32, countAt)) & -(long) Integer.signum(component);
                } else if (component != 0) {
                    count = Integer.toUnsignedLong(readInt(address + countOffset));
                }
                long size = rules.size(MethodTableCache.baseSize(info), component, count);
                long step = rules.step(size);
                if (Long.compareUnsigned(step, end - address) > 0) {
                    return pending(ProblemKind.OBJECT_PAST_REGION_END, String.format(
                            "MethodTable 0x%x, size %d: the object would end at 0x%x, past the region end 0x%x",
                            mt, size, address + step, end));
                }
                visitor.object(address, mt, size, region);
                objects++;
                bytes += size;
                return address + step;
            } catch (MissingMemoryException e) {
                return pending(ProblemKind.UNREADABLE_OBJECT, e.getMessage());
            }
        }

        /** The 8 bytes at {@code address}: from the window when it holds them, else from the memory (refilling the window). */
        private long readLong(long address) {
            long at = address - windowStart;
            if (Long.compareUnsigned(at, windowLongs) < 0) {
                return window.get(U64, at);
            }
            return refill(address) ? window.get(U64, 0) : memory.readLong(address);
        }

        /**
         * Reads a word {@link #AHEAD} bytes further on when the window holds it, and keeps it in {@link #sink}:
         * the walk's reads depend on one another (each object's size gives the next address), so the memory they
         * wait for is asked for early by a read that nothing waits for — a prefetch, as Java offers none.
         */
        private void touchAhead(long address) {
            long at = address + AHEAD - windowStart;
            if (Long.compareUnsigned(at, windowLongs) < 0) {
                sink ^= window.get(U64, at);
            }
        }

        /** The 4 bytes at {@code address}, as {@link #readLong} reads them. */
        private int readInt(long address) {
            long at = address - windowStart;
            if (Long.compareUnsigned(at, windowLongs) < 0) {
                return window.get(U32, at);
            }
            return refill(address) ? window.get(U32, 0) : memory.readInt(address);
        }

        /**
         * Moves the window to {@code address} when the memory has a view there at least 8 bytes long (so that both reads
         * can use it at once); else leaves it and answers false. The view is cut at the region's end: the walk reads
         * nothing past it.
         */
        private boolean refill(long address) {
            if (Long.compareUnsigned(address, end) >= 0 || end - address < 8) {
                return false;
            }
            MemorySegment view = memory.contiguous(address);
            if (view == null || view.byteSize() < 8) {
                return false;
            }
            long size = Math.min(view.byteSize(), end - address);
            window = view.asSlice(0, size);
            windowStart = address;
            windowLongs = size - 7;
            windowFast = Math.max(0, windowLongs - countOffset);
            return true;
        }

        /**
         * The first address at or after {@code from} that starts a plausible object: a MethodTable already seen
         * valid whose object fits, or the end of an allocation context. Unreadable pages are stepped over whole.
         */
        private long resync(long from) {
            long address = from;
            while (Long.compareUnsigned(address, end) < 0) {
                long skipTo = skipContext(address);
                if (skipTo != address) {
                    return skipTo;
                }
                try {
                    long next = plausibleObjectEnd(address);
                    // two plausible objects in a row (or one that ends the region or meets a context)
                    if (next > 0 && (Long.compareUnsigned(next, end) >= 0 || skipContext(next) != next || plausibleObjectEnd(next) > 0)) {
                        return address;
                    }
                    address += rules.alignment();
                } catch (MissingMemoryException e) {
                    long present = nextPresent(address + rules.alignment());
                    address = present < 0 ? end : present;
                }
            }
            return end;
        }

        /** The end of the object at {@code address} if it has a valid MethodTable and fits in the region, else -1. */
        private long plausibleObjectEnd(long address) {
            long mt = memory.readLong(address) & rules.methodTableMask();
            if (mt == 0) {
                return -1;
            }
            long info = cache.lookup(mt);
            if (info == MethodTableCache.INVALID) {
                return -1;
            }
            int component = MethodTableCache.componentSize(info);
            long count = component == 0 ? 0
                    : Integer.toUnsignedLong(memory.readInt(address + rules.componentCountOffset()));
            long step = rules.step(rules.size(MethodTableCache.baseSize(info), component, count));
            return Long.compareUnsigned(step, end - address) <= 0 ? address + step : -1;
        }

        private long pending(ProblemKind kind, String detail) {
            pendingKind = kind;
            pendingDetail = detail;
            return -1;
        }

        private void report(ProblemKind kind, long address, String detail) {
            visitor.problem(new Problem(kind, address, region.toString(), detail));
        }
    }
}
