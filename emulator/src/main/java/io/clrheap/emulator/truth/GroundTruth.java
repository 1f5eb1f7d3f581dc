package io.clrheap.emulator.truth;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the emulator placed, written as it places it (never read back from memory): every object, the regions, the
 * allocation contexts, the handles, the threads' stacks and the references they hold.
 *
 * <p>Objects are kept compactly, never one Java object per heap object: as <em>runs</em>, each a stretch of objects
 * laid one after the other from a start address (a region filled by a GC, or one allocation context). An object in
 * a run costs two or three bytes: its type's index (with a bit saying whether it dies at the next collection) and,
 * for arrays, strings and free objects, its component count, both as variable-length integers; its address follows
 * from the one before it. A 20-million-object heap fits in some 60 MiB of Java heap.
 *
 * <p>Long because it is the one record of everything placed: the compact object runs with their encoder and readers,
 * and the small facts beside them (regions, contexts, handles, finalizers, threads, stacks), each a few lines.
 */
public final class GroundTruth {

    /** What a placed object is. */
    public enum Kind {
        OBJECT, FREE, PADDING;

        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** A region as built: heap, generation (0-4, or -1 for frozen), descriptor, bounds, committed end, its heap's gc_heap (0: workstation). */
    public record RegionInfo(int heap, int generation, boolean frozen, long descriptor, long start, long mem, long end, long reserved, long flags,
                             long committed, long gcHeap) {
    }

    /** An allocation context as left: owner, where the gc_alloc_context is, pointer and limit. */
    public record ContextInfo(String owner, long location, long pointer, long limit) {
    }

    /** A GC handle as placed: its slot address, kind (strong, weak_short, weak_long, pinned, dependent), target, dependent secondary. */
    public record HandleInfo(long handle, String type, long target, long secondary) {
    }

    /**
     * A runtime thread as written: its managed id, Linux thread id, {@code Thread} object, the heap it allocates on
     * (its {@code gc_reserved_1} under server GC; 0 under workstation GC), where its {@code gc_alloc_context} is, and the
     * bytes of the allocation contexts it was handed ({@code alloc_bytes}).
     */
    public record ThreadInfo(int managedId, long osId, long thread, int heap, long allocContext, long allocBytes) {
    }

    /**
     * An entry of a heap's finalization queue: the heap, the slot's address, the object, and whether it is ready for
     * finalization (in the f-reachable segment: a root) or only registered (in its generation's segment).
     */
    public record FinalizerInfo(int heap, long slot, long object, boolean ready) {
    }

    /** A type objects are placed with: its MethodTable, the size formula's terms and the kind of its objects. */
    public record TypeInfo(long methodTable, long baseSize, long componentSize, Kind kind) {
    }

    /** Receives the objects of a walk over the ground truth, in address order. */
    @FunctionalInterface
    public interface ObjectVisitor {
        /**
         * @param size       unaligned, as walkers report it
         * @param generation 0, 1, 2, 3 (LOH), 4 (POH), or -1 (frozen)
         */
        void object(long address, long methodTable, long size, int generation, int heap, Kind kind);
    }

    /** A stretch of objects laid one after the other from {@code start}; see the class comment. */
    public static final class Run {
        public final long start;
        final int heap;
        public int generation;
        /** Where the next object of this run goes. */
        public long end;
        int count;
        /** Objects of kind OBJECT that do not die. */
        int live;
        /** Objects that die at the next collection. */
        public int dying;
        byte[] data = new byte[32];
        int length;

        Run(long start, int heap, int generation) {
            this.start = start;
            this.end = start;
            this.heap = heap;
            this.generation = generation;
        }

        void putVarLong(long v) {
            if (length + 10 > data.length) {
                data = Arrays.copyOf(data, Math.max(data.length * 2, length + 10));
            }
            while ((v & ~0x7fL) != 0) {
                data[length++] = (byte) ((v & 0x7f) | 0x80);
                v >>>= 7;
            }
            data[length++] = (byte) v;
        }
    }

    /** Reads a run's objects one by one. */
    public final class RunCursor {
        private final Run run;
        private int position;
        private int index;
        public long address;
        public int type;
        public long components;
        public boolean dies;
        public long size;
        private long nextAddress;

        RunCursor(Run run) {
            this.run = run;
            this.nextAddress = run.start;
        }

        public boolean next() {
            if (index == run.count) {
                return false;
            }
            long word = readVarLong();
            type = (int) (word >>> 1);
            dies = (word & 1) != 0;
            TypeInfo t = types.get(type);
            components = t.componentSize() == 0 ? 0 : readVarLong();
            size = t.baseSize() + components * t.componentSize();
            address = nextAddress;
            nextAddress += step(size);
            index++;
            return true;
        }

        private long readVarLong() {
            long v = 0;
            int shift = 0;
            byte b;
            do {
                b = run.data[position++];
                v |= (long) (b & 0x7f) << shift;
                shift += 7;
            } while (b < 0);
            return v;
        }
    }

    private final long alignment;
    private final long minimumSize;
    private final List<TypeInfo> types = new ArrayList<>();
    /** Per type index, what {@link #append} needs of each object's type: read from arrays, not from a list of records. */
    private long[] baseSizes = new long[16];
    private long[] componentSizes = new long[16];
    private boolean[] counted = new boolean[16];
    private final java.util.Map<TypeInfo, Integer> typeIndexes = new java.util.HashMap<>();
    private final List<Run> runs = new ArrayList<>();
    private Run[] sorted;
    private long objectCount;
    private long liveObjects;
    /** Hears the objects recorded so far, every {@link #PROGRESS_EVERY} of them (build progress); may be null. */
    private java.util.function.LongConsumer progress;
    private static final long PROGRESS_EVERY = 1 << 16;
    private final List<RegionInfo> regions = new ArrayList<>();
    /** A segments GC's generation starts per heap (gen0, gen1, gen2, LOH, POH allocation_start); empty under regions. */
    private final java.util.Map<Integer, long[]> generationStarts = new java.util.TreeMap<>();
    private final List<ContextInfo> contexts = new ArrayList<>();
    private final List<HandleInfo> handles = new ArrayList<>();
    private final List<ThreadInfo> threads = new ArrayList<>();
    private final List<FinalizerInfo> finalizers = new ArrayList<>();
    private final List<ThreadStack> stacks = new ArrayList<>();
    private final List<StackRoot> stackRoots = new ArrayList<>();
    private final java.util.Map<Long, ReferenceLayout> referenceLayouts = new java.util.HashMap<>();

    /** @param alignment object alignment (8 on x64); @param minimumSize the smallest step (24 on x64) */
    public GroundTruth(long alignment, long minimumSize) {
        this.alignment = alignment;
        this.minimumSize = minimumSize;
    }

    /** Builds report the objects recorded so far to {@code listener}, every 65,536 objects. */
    public void progress(java.util.function.LongConsumer listener) {
        this.progress = listener;
    }

    /** How far the next object is: the size aligned up, at least the minimum object size. */
    public long step(long size) {
        return Math.max((size + alignment - 1) & -alignment, minimumSize);
    }

    public int typeIndex(long methodTable, long baseSize, long componentSize, Kind kind) {
        TypeInfo t = new TypeInfo(methodTable, baseSize, componentSize, kind);
        Integer index = typeIndexes.get(t);
        if (index == null) {
            index = types.size();
            types.add(t);
            typeIndexes.put(t, index);
            if (index == baseSizes.length) {
                baseSizes = Arrays.copyOf(baseSizes, 2 * index);
                componentSizes = Arrays.copyOf(componentSizes, 2 * index);
                counted = Arrays.copyOf(counted, 2 * index);
            }
            baseSizes[index] = baseSize;
            componentSizes[index] = componentSize;
            counted[index] = kind == Kind.OBJECT;
        }
        return index;
    }

    public TypeInfo type(int index) {
        return types.get(index);
    }

    public Run startRun(long start, int heap, int generation) {
        Run r = new Run(start, heap, generation);
        runs.add(r);
        sorted = null;
        return r;
    }

    /** Records an object of type {@code type} at {@code run.end} and moves the run past it; returns its address. */
    public long append(Run run, int type, long components, boolean dies) {
        long componentSize = componentSizes[type];
        run.putVarLong(((long) type << 1) | (dies ? 1 : 0));
        if (componentSize != 0) {
            run.putVarLong(components);
        } else if (components != 0) {
            throw new IllegalArgumentException("a component count for a type without components: " + types.get(type));
        }
        long at = run.end;
        run.end += step(baseSizes[type] + components * componentSize);
        run.count++;
        objectCount++;
        if (progress != null && (objectCount & (PROGRESS_EVERY - 1)) == 0) {
            progress.accept(objectCount);
        }
        if (counted[type] && !dies) {
            run.live++;
            liveObjects++;
        }
        if (dies) {
            run.dying++;
        }
        return at;
    }

    /** Drops runs (a collection rewrites their regions as new runs). */
    public void removeRuns(java.util.Collection<Run> gone) {
        java.util.Set<Run> set = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        set.addAll(gone);
        runs.removeIf(r -> {
            if (set.contains(r)) {
                objectCount -= r.count;
                liveObjects -= r.live;
                return true;
            }
            return false;
        });
        sorted = null;
    }

    public RunCursor cursor(Run run) {
        return new RunCursor(run);
    }

    /** Records a segments GC heap's generation starts (each generation's allocation_start: gen0, gen1, gen2, LOH, POH). */
    public void addGenerationStarts(int heap, long[] starts) {
        generationStarts.put(heap, starts.clone());
    }

    /** A segments GC heap's generation starts, or null under regions. */
    public long[] generationStarts(int heap) {
        long[] starts = generationStarts.get(heap);
        return starts == null ? null : starts.clone();
    }

    public void addRegion(RegionInfo region) {
        regions.add(region);
    }

    public void addContext(ContextInfo context) {
        contexts.add(context);
    }

    public void addHandle(HandleInfo handle) {
        handles.add(handle);
    }

    public void addFinalizer(FinalizerInfo entry) {
        finalizers.add(entry);
    }

    /** The finalization queues' entries, heap by heap, in slot order. */
    public List<FinalizerInfo> finalizers() {
        return List.copyOf(finalizers);
    }

    /** Records where the objects of the type at {@code methodTable} hold references (its GC descriptor). */
    public void referenceLayout(long methodTable, ReferenceLayout layout) {
        referenceLayouts.put(methodTable, layout);
    }

    /** Where the objects of the type at {@code methodTable} hold references, or null when they hold none. */
    public ReferenceLayout referenceLayout(long methodTable) {
        return referenceLayouts.get(methodTable);
    }

    public void addThread(ThreadInfo thread) {
        threads.add(thread);
    }

    public void addStack(ThreadStack stack) {
        stacks.add(stack);
    }

    /** The threads' stacks and registers, in thread-store order. */
    public List<ThreadStack> stacks() {
        return List.copyOf(stacks);
    }

    public void addStackRoot(StackRoot root) {
        stackRoots.add(root);
    }

    /** The stack roots: thread by thread in thread-store order, slots ascending, then the registers in {@link CpuRegister} order. */
    public List<StackRoot> stackRoots() {
        return List.copyOf(stackRoots);
    }

    /** The threads in thread-store order. */
    public List<ThreadInfo> threads() {
        return List.copyOf(threads);
    }

    public List<HandleInfo> handles() {
        return List.copyOf(handles);
    }

    /** Objects placed, free and padding objects included. */
    public long objectCount() {
        return objectCount;
    }

    /** The types objects were placed with (free and padding objects have their own entries). */
    public List<TypeInfo> types() {
        return List.copyOf(types);
    }

    /** Visits every object in address order: the order a walk finds them in. */
    public void forEachObject(ObjectVisitor visitor) {
        for (Run run : sortedRuns()) {
            RunCursor c = new RunCursor(run);
            while (c.next()) {
                TypeInfo t = types.get(c.type);
                visitor.object(c.address, t.methodTable(), c.size, run.generation, run.heap, t.kind());
            }
        }
    }

    /** Objects and bytes (unaligned sizes summed) per MethodTable, free objects included: what {@code dumpheap -stat} counts. */
    public java.util.Map<Long, long[]> statistics() {
        java.util.Map<Long, long[]> stat = new java.util.TreeMap<>(Long::compareUnsigned);
        forEachObject((address, mt, size, generation, heap, kind) -> {
            long[] row = stat.computeIfAbsent(mt, k -> new long[2]);
            row[0]++;
            row[1] += size;
        });
        return stat;
    }

    /** Bytes of every object placed (unaligned sizes summed, free objects included): the Total line of {@code dumpheap -stat}. */
    public long totalBytes() {
        long[] total = new long[1];
        forEachObject((address, mt, size, generation, heap, kind) -> total[0] += size);
        return total[0];
    }

    /**
     * Up to {@code max} objects that live (no free objects, none that dies), spread over the heap: the first live
     * objects of runs taken evenly in address order, as many from each as it takes. Only those runs' first objects
     * are decoded, so sampling a heap of millions of objects costs next to nothing.
     */
    public long[] sampleObjects(int max, java.util.Random random) {
        Run[] withLive = Arrays.stream(sortedRuns()).filter(r -> r.live > 0).toArray(Run[]::new);
        int n = (int) Math.min(max, liveObjects);
        if (n == 0 || withLive.length == 0) {
            return new long[0];
        }
        int runs = Math.min(n, withLive.length);
        int perRun = (n + runs - 1) / runs;
        int offset = random.nextInt(withLive.length / runs);
        long[] sample = new long[n];
        int taken = 0;
        for (int k = 0; k < runs && taken < n; k++) {
            Run run = withLive[offset + (int) ((long) k * withLive.length / runs)];
            RunCursor c = new RunCursor(run);
            int fromThis = 0;
            while (fromThis < perRun && taken < n && c.next()) {
                if (types.get(c.type).kind() == Kind.OBJECT && !c.dies) {
                    sample[taken++] = c.address;
                    fromThis++;
                }
            }
        }
        return Arrays.copyOf(sample, taken);
    }

    private Run[] sortedRuns() {
        Run[] s = sorted;
        if (s == null) {
            s = runs.stream().filter(r -> r.count > 0).toArray(Run[]::new);
            Arrays.sort(s, (a, b) -> Long.compareUnsigned(a.start, b.start));
            sorted = s;
        }
        return s;
    }

    /** The runs in address order (empty ones left out). */
    List<Run> runsByAddress() {
        return List.of(sortedRuns());
    }

    public List<RegionInfo> regions() {
        return List.copyOf(regions);
    }

    public List<ContextInfo> contexts() {
        return List.copyOf(contexts);
    }
}
