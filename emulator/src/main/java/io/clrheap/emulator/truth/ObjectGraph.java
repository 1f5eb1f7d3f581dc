package io.clrheap.emulator.truth;

import io.clrheap.memory.Memory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The object graph of an emulated process, as the answer key states it (docs/answer-key.md): each object's references
 * at the offsets its type's GC descriptor names ({@link GroundTruth#referenceLayout}, the emulator's own record, not a
 * decoding of the descriptor's bytes), the roots the process holds (handles, the finalization queues), and the objects
 * reachable from the roots that keep objects alive. The fields' values are read from the memory the emulator wrote them
 * into, at objects the ground truth places. The threads' stack roots ({@link GroundTruth#stackRoots()}: references in
 * their live stacks and registers, some pointing inside an object) keep the objects they point at or into alive.
 */
public final class ObjectGraph {

    /** Root kinds that keep their target alive: handles by name (strong ones, pinning ones) and f-reachable objects. */
    public static final Set<String> KEEPS_ALIVE = Set.of("strong", "pinned", "async-pinned", "sized-ref", "refcounted", "variable", "finalizer");

    /** A root: its kind, where it is (a handle's slot, a finalization queue slot) and the object it holds. */
    public record Root(String kind, long address, long target) {
    }

    /** Receives references in address order of their source, offsets ascending. */
    @FunctionalInterface
    public interface ReferenceVisitor {
        void reference(long from, long offset, long to);
    }

    private final GroundTruth truth;
    private final Memory memory;
    private final long lengthOffset;
    private final long unmask;

    /**
     * @param lengthOffset where an array's or string's component count is (8 on x64)
     * @param unmask       the MethodTable word's mark bits (object.mt_unmask)
     */
    public ObjectGraph(GroundTruth truth, Memory memory, long lengthOffset, long unmask) {
        this.truth = truth;
        this.memory = memory;
        this.lengthOffset = lengthOffset;
        this.unmask = unmask;
    }

    /** Every non-null reference, by source address then offset. */
    public void forEachReference(ReferenceVisitor visitor) {
        truth.forEachObject((address, mt, size, generation, heap, kind) -> {
            if (kind != GroundTruth.Kind.OBJECT) {
                return;
            }
            ReferenceLayout layout = truth.referenceLayout(mt);
            if (layout != null) {
                layout.forEachOffset(size, offset -> {
                    long to = memory.readPointer(address + offset);
                    if (to != 0) {
                        visitor.reference(address, offset, to);
                    }
                });
            }
        });
    }

    /** The roots with a target: handles (a dependent handle by its primary), finalization queue entries; by address. */
    public List<Root> roots() {
        List<Root> roots = new ArrayList<>();
        for (GroundTruth.HandleInfo h : truth.handles()) {
            if (h.target() != 0) {
                roots.add(new Root(h.type().replace('_', '-'), h.handle(), h.target()));
            }
        }
        for (GroundTruth.FinalizerInfo f : truth.finalizers()) {
            roots.add(new Root(f.ready() ? "finalizer" : "finalizable", f.slot(), f.object()));
        }
        roots.sort(Comparator.comparing(Root::address, Long::compareUnsigned));
        return roots;
    }

    /**
     * The objects reachable from the roots that keep objects alive ({@link #KEEPS_ALIVE}), from the stack roots and from
     * every object of a frozen segment (never collected), a dependent handle's secondary when its primary is reachable;
     * then the objects registered for finalization still unreached, with what they reach (the next GC keeps them for
     * their finalizers); by address.
     */
    public long[] live() {
        return live(true);
    }

    /** What the handles, finalization queues and frozen segments keep alive without the threads' stacks: {@link #live()} less what only stacks reach. */
    public long[] liveWithoutStacks() {
        return live(false);
    }

    private long[] live(boolean stacks) {
        Map<Long, long[]> sizes = new HashMap<>(); // MethodTable -> {baseSize, componentSize}
        for (GroundTruth.TypeInfo t : truth.types()) {
            if (t.kind() == GroundTruth.Kind.OBJECT) {
                sizes.put(t.methodTable(), new long[] {t.baseSize(), t.componentSize()});
            }
        }
        AddressSet marked = new AddressSet();
        LongStack pending = new LongStack();
        for (Root r : roots()) {
            if (KEEPS_ALIVE.contains(r.kind()) && marked.add(r.target())) {
                pending.push(r.target());
            }
        }
        // a conservative scan keeps alive the object a stack word points at or into: dotnet/runtime
        // src/coreclr/vm/gcenv.ee.cpp ScanStackRoots (FEATURE_CONSERVATIVE_GC) reports every such word GC_CALL_INTERIOR,
        // and the GC promotes the object containing it
        for (StackRoot r : stacks ? truth.stackRoots() : List.<StackRoot>of()) {
            if (marked.add(r.object())) {
                pending.push(r.object());
            }
        }
        // frozen segments are never collected: their objects are alive whatever refers to them (the runtime's own heap
        // snapshot lists every frozen string of the real dumps as live; docs/reference/object-graph.md)
        truth.forEachObject((address, mt, size, generation, heap, kind) -> {
            if (generation == -1 && kind == GroundTruth.Kind.OBJECT && marked.add(address)) {
                pending.push(address);
            }
        });
        List<GroundTruth.HandleInfo> dependents = truth.handles().stream().filter(h -> h.secondary() != 0).toList();
        mark(marked, pending, sizes, dependents);
        // then, as the GC's mark phase does (gc.cpp CFinalize::ScanForFinalization), the objects registered for
        // finalization that are still unreached move to the f-reachable queue: kept, with what they reach, until their
        // finalizer runs (the runtime's own heap snapshot lists them as live; docs/reference/object-graph.md)
        for (Root r : roots()) {
            if (r.kind().equals("finalizable") && marked.add(r.target())) {
                pending.push(r.target());
            }
        }
        mark(marked, pending, sizes, dependents);
        return marked.sorted();
    }

    /** Marks from {@code pending} over references and dependent handles to a fixed point. */
    private void mark(AddressSet marked, LongStack pending, Map<Long, long[]> sizes, List<GroundTruth.HandleInfo> dependents) {
        boolean more = true;
        while (more) {
            while (pending.size() > 0) {
                long object = pending.pop();
                long mt = memory.readPointer(object) & ~unmask;
                ReferenceLayout layout = truth.referenceLayout(mt);
                if (layout == null) {
                    continue;
                }
                long[] size = sizes.get(mt);
                long objectSize = size[0] + (size[1] == 0 ? 0 : size[1] * memory.readU32(object + lengthOffset));
                layout.forEachOffset(objectSize, offset -> {
                    long to = memory.readPointer(object + offset);
                    if (to != 0 && marked.add(to)) {
                        pending.push(to);
                    }
                });
            }
            more = false;
            for (GroundTruth.HandleInfo h : dependents) {
                if (marked.contains(h.target()) && marked.add(h.secondary())) {
                    pending.push(h.secondary());
                    more = true;
                }
            }
        }
    }

    /** A stack of addresses without boxing. */
    private static final class LongStack {
        private long[] items = new long[1024];
        private int size;

        void push(long v) {
            if (size == items.length) {
                items = Arrays.copyOf(items, 2 * size);
            }
            items[size++] = v;
        }

        long pop() {
            return items[--size];
        }

        int size() {
            return size;
        }
    }
}
