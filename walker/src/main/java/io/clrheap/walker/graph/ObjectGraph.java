package io.clrheap.walker.graph;

import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.ThreadStoreList;
import io.clrheap.walker.source.OsThread;
import io.clrheap.walker.report.HandleTableWalker;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.runtime.Target;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * A heap's object graph with its roots — handles, finalization queues, and the managed threads' stacks and registers
 * scanned conservatively ({@link StackRootScanner}): what {@code gcroot}, {@code objsize} and {@code --live} ask. Built
 * once per session ({@code DumpSession.graph()}).
 *
 * @param graph    the objects and their references
 * @param roots    the roots: handles and finalization queue entries first, then the stack roots thread by thread
 * @param threads  what the stack scan did with each managed thread (empty when the threads were not scanned)
 * @param problems what building it met: bad GC descriptors, references to no object, unreadable roots
 */
public record ObjectGraph(HeapGraph graph, List<Root> roots, List<ThreadScan> threads, List<Problem> problems) {

    public ObjectGraph {
        roots = List.copyOf(roots);
        threads = List.copyOf(threads);
        problems = List.copyOf(problems);
    }

    /** A graph whose roots were given, without stacks scanned. */
    public ObjectGraph(HeapGraph graph, List<Root> roots, List<Problem> problems) {
        this(graph, roots, List.of(), problems);
    }

    /** Walks the heap once, reads every handle and finalization queue root, and scans the stacks of {@code threads}. */
    public static ObjectGraph build(Target target, DiscoveredHeap heap, HeapWalker walker, HandleTableWalker handles, ThreadStoreList threads,
                                    List<OsThread> osThreads) {
        List<Problem> problems = new ArrayList<>();
        HeapGraph graph = HeapGraph.build(walker, new ObjectReferences(target.memory(), target.layout()), heap.freeMethodTable(), problems::add);
        RootScanner scanner = new RootScanner(target.memory(), target.layout());
        List<Root> roots = new ArrayList<>(scanner.roots(heap, handles));
        problems.addAll(scanner.problems());
        problems.addAll(threads.problems());
        StackRootScanner.Result stacks = new StackRootScanner(target.memory(), graph).scan(threads.threads(), osThreads);
        roots.addAll(stacks.roots());
        problems.addAll(stacks.problems());
        return new ObjectGraph(graph, roots, stacks.threads(), problems);
    }


    /** The live objects (indexes into {@link #graph}): reachable from the roots that keep objects alive and from frozen segments. */
    public BitSet live() {
        return Reachability.live(graph, roots);
    }

    /** Whether the object at {@code address} is live; false for an address that is no object. */
    public boolean isLive(BitSet live, long address) {
        int i = graph.indexOf(address);
        return i >= 0 && live.get(i);
    }

    /** gcroot: the roots that keep {@code address} alive, each with its shortest path, shortest first. */
    public List<RootPath> pathsTo(long address, int maxPaths) {
        return GcRoots.paths(graph, roots, address, maxPaths);
    }

    /**
     * gcroot: the paths from the roots that keep {@code address} alive and, apart, from those that reach it but keep
     * nothing alive (weak handles, registered finalizers), from one search.
     */
    public GcRoots.Found rootsOf(long address, int maxPaths) {
        return GcRoots.search(graph, roots, address, maxPaths);
    }

    /** objsize: the object and everything it reaches; null when {@code address} is no object. */
    public ObjectSize sizeOf(long address) {
        return ObjectSize.of(graph, address);
    }
}
