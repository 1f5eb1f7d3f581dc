package io.clrheap.conformance.corpus;

import io.clrheap.walker.DumpSession;
import io.clrheap.walker.graph.HeapGraph;
import io.clrheap.walker.graph.ObjectGraph;
import io.clrheap.walker.graph.Root;
import io.clrheap.walker.graph.RootKind;
import io.clrheap.walker.graph.ThreadScan;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The roots of a real golden folder checked against the runtime's: every object of {@code live-objects.txt} must be
 * live by the walker's roots (handles, finalization queues, the threads' stacks scanned conservatively, thread-static
 * arrays; {@code walk --live}); where the folder has the runtime's root list ({@code roots.txt}: the heap snapshot's
 * GCBulkRootEdge events), every handle root must be a handle the walker found with that target, as weak and as pinning
 * as the runtime says it is (flags 2 and 1), and every object the
 * runtime reported as a Stack root must be the target of one of the walker's thread roots — unless the process ran
 * between its dump and its snapshot ({@code changed-objects.txt}, a busy process {@code clrheap capture} recorded): its
 * threads' stacks then differ, and the stack roots are counted, not held to. The live list holds either way for the old
 * generations: an object live at the snapshot was live at the dump. In gen0 and gen1 of a busy process it need not be:
 * allocation contexts restart at the same addresses after every GC, so an object the process allocated after the dump
 * can lie where the dump holds a dead one of the same type and size (a list's grown array, made again on every run of
 * the same code), and the snapshot agrees with the dump about it. Those are counted ({@code youngNotLiveCount}), not held
 * to. What the walker keeps live beyond the list is counted: the conservative scan's false positives, and dead objects a
 * live one still references.
 *
 * @param listed               the objects of the runtime's live list
 * @param live                 the objects live by the walker's roots
 * @param keptBeyondList       live by the walker's roots, not in the runtime's list
 * @param notLiveCount         listed objects the walker's roots do not keep (must be 0)
 * @param notLive              the first of them
 * @param youngNotLiveCount    of a busy process, listed gen0 and gen1 objects the walker's roots do not keep (counted apart)
 * @param runtimeHandleRoots   the runtime's handle roots (0 without roots.txt)
 * @param handleRootsMissingCount  those the walker did not find, or found with another weakness or pinning (must be 0)
 * @param runtimeStackRoots    the distinct objects the runtime reported as Stack roots
 * @param stackRootsMissingCount   those no thread root of the walker holds (must be 0)
 * @param missingRoots         the first missing handle and stack roots
 * @param threadsScanned       managed threads whose stacks were scanned
 * @param threads              managed threads in the thread store
 * @param hasRootList          whether the folder has roots.txt
 * @param stacksChanged        whether the process ran between dump and snapshot (the stack roots are then not held to)
 */
public record RealRootsCheck(long listed, long live, long keptBeyondList, long notLiveCount, List<String> notLive, long youngNotLiveCount,
                             long runtimeHandleRoots,
                             long handleRootsMissingCount, long runtimeStackRoots, long stackRootsMissingCount, List<String> missingRoots,
                             long threadsScanned, long threads, boolean hasRootList, boolean stacksChanged) {

    public RealRootsCheck {
        notLive = List.copyOf(notLive);
        missingRoots = List.copyOf(missingRoots);
    }

    public boolean passed() {
        return notLiveCount == 0 && handleRootsMissingCount == 0 && (stackRootsMissingCount == 0 || stacksChanged);
    }

    /**
     * Where the runtime's flags (GCBulkRootEdge: pinning 1, weak 2) and the walker's handle kind disagree, what differs;
     * null when they agree.
     */
    static String flagsDiffer(long flags, Root ours) {
        boolean weak = (flags & 2) != 0;
        boolean pinned = (flags & 1) != 0;
        if (weak != ours.weak() || pinned != ours.pinned()) {
            return String.format(Locale.ROOT, "the runtime says%s%s, the walker found a %s handle", weak ? " weak" : " not weak",
                    pinned ? ", pinning" : ", not pinning", ours.kind().id());
        }
        return null;
    }

    /** Checks {@code session}'s roots against {@code live} (the folder's list) and the folder's roots.txt, if any. */
    static RealRootsCheck of(DumpSession session, List<RealGoldenCheck.LiveObject> live, Path folder) throws IOException {
        ObjectGraph g = session.graph();
        HeapGraph graph = g.graph();
        BitSet ours = g.live();
        boolean busy = Files.isRegularFile(folder.resolve("changed-objects.txt"));
        List<Region> young = busy ? session.heap().regionsByAddress().stream().filter(r -> r.kind() == SegmentKind.GEN0 || r.kind() == SegmentKind.GEN1).toList() : List.of();
        List<String> notLive = new ArrayList<>();
        long notLiveCount = 0;
        long youngNotLive = 0;
        Set<Long> listed = new HashSet<>();
        for (RealGoldenCheck.LiveObject o : live) {
            listed.add(o.address());
            if (g.isLive(ours, o.address())) {
                continue;
            }
            if (young.stream().anyMatch(r -> r.contains(o.address()))) {
                youngNotLive++;
            } else if (notLiveCount++ < RealGoldenCheck.SHOWN) {
                notLive.add(String.format(Locale.ROOT, "0x%x %s: listed live by the runtime, not reachable from the walker's roots", o.address(), o.type()));
            }
        }
        long beyond = 0;
        for (int i = ours.nextSetBit(0); i >= 0; i = ours.nextSetBit(i + 1)) {
            if (!listed.contains(graph.address(i))) {
                beyond++;
            }
        }
        long scanned = g.threads().stream().filter(ThreadScan::scanned).count();
        Path rootsFile = folder.resolve("roots.txt");
        if (!Files.isRegularFile(rootsFile)) {
            return new RealRootsCheck(live.size(), ours.cardinality(), beyond, notLiveCount, notLive, youngNotLive, 0, 0, 0, 0, List.of(), scanned,
                    g.threads().size(), false, busy);
        }
        java.util.Map<String, Root> handles = new java.util.HashMap<>();
        Set<Long> threadHeld = new HashSet<>();
        for (Root r : g.roots()) {
            if (r.stack() != null) {
                threadHeld.add(r.target());
            } else if (r.kind() != RootKind.FINALIZER && r.kind() != RootKind.FINALIZABLE) {
                handles.putIfAbsent(r.address() + " " + r.target(), r);
            }
        }
        List<String> missing = new ArrayList<>();
        long handleRoots = 0;
        long handleMissing = 0;
        Set<Long> stackObjects = new HashSet<>();
        long stackMissing = 0;
        for (String line : Files.readAllLines(rootsFile)) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 5 || !f[0].equals("ROOT")) {
                continue;
            }
            long object = Long.decode(f[4]);
            if (f[1].equals("Handle")) {
                handleRoots++;
                long handle = Long.decode(f[3]) & ~1L;
                Root found = handles.get(handle + " " + object);
                String wrong = found == null ? "no such handle found" : flagsDiffer(Long.decode(f[2]), found);
                if (wrong != null && handleMissing++ < RealGoldenCheck.SHOWN) {
                    missing.add(String.format(Locale.ROOT, "handle 0x%x holding 0x%x: %s", handle, object, wrong));
                }
            } else if (f[1].equals("Stack") && object != 0) {
                int holder = graph.objectHolding(object);
                long start = holder < 0 ? object : graph.address(holder);
                if (!stackObjects.add(start) || (holder >= 0 && graph.frozen(holder))) {
                    continue; // counted once; a frozen object is live whatever holds it
                }
                if (!threadHeld.contains(start) && stackMissing++ < RealGoldenCheck.SHOWN) {
                    missing.add(String.format(Locale.ROOT, "stack root 0x%x: held by no stack slot, register or thread-static array the walker scanned", object));
                }
            }
        }
        return new RealRootsCheck(live.size(), ours.cardinality(), beyond, notLiveCount, notLive, youngNotLive, handleRoots, handleMissing,
                stackObjects.size(), stackMissing, missing, scanned, g.threads().size(), true, busy);
    }
}
