package io.clrheap.golden.examples;

import io.clrheap.walker.OpenOptions;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.DumpSession;
import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.view.AllocContext;
import io.clrheap.layout.view.GcHeap;
import io.clrheap.layout.view.GcHeapVtable;
import io.clrheap.layout.view.MethodTable;
import io.clrheap.layout.view.NativeThread;
import io.clrheap.layout.view.ThreadStore;
import io.clrheap.layout.view.ViewFactory;
import io.clrheap.memory.Memory;
import io.clrheap.process.NativeCalls;
import io.clrheap.walker.source.elf.MappedFile;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.walk.WalkRules;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Example 4: the source article's in-process walk, step by step, over an emulated .NET 8 server-GC process whose GC
 * functions can be called: a thread's allocation context → {@code gc_reserved_1} → {@code GCHeap} → vtable slot 69
 * {@code DiagDescrGenerations}, whose callback gets every region; each region walked object by object.
 * Run it: {@code ./clrheap example InProcessWalk}.
 */
public final class InProcessWalk {

    private InProcessWalk() {
    }

    public static void main(String[] args) throws Exception {
        PrintWriter out = new PrintWriter(System.out, true);
        System.exit(run(out) ? 0 : 1);
    }

    /** A range DiagDescrGenerations reported. */
    private record Range(long generation, long start, long end) {
    }

    /** Prints each step and both counts; true when the complete in-process walk finds every object built. */
    public static boolean run(PrintWriter out) throws Exception {
        EmulatedRuntime process = new RuntimeBuilder().build(Scenario.defaultScenario(RuntimeVersion.NET8, GcFlavor.SERVER));
        // A session of native calls: the GC's vtable functions run over the process memory, as if called from inside.
        NativeCalls calls = process.nativeCalls();
        Memory memory = calls.memory();
        RuntimeLayout layout = process.layout();
        ViewFactory views = new ViewFactory(layout);

        // 1. A thread. In-process code starts from Thread.CurrentThread; here, the first thread of the thread store.
        List<MappedFile> files = process.mappings().stream().map(m -> new MappedFile(m.start(), m.end(), m.fileOffset(), m.path())).toList();
        DumpSession dump = Dumps.of(memory, files, "emulated process", "default", process.typeNames(), OpenOptions.DEFAULT.withNativeCalls(calls));
        Target target = dump.target();
        ThreadStore store = views.view(ThreadStore.class, memory, target.globalPointer("ThreadStore::s_pThreadStore"));
        NativeThread thread = views.view(NativeThread.class, memory, store.firstThreadLink() - layout.offset("Thread", "LinkNext"));
        // 2. Its allocation context: inline in the Thread on .NET 8 (m_alloc_context).
        AllocContext context = thread.inlineAllocContext();
        // 3. gc_reserved_1: the GCHeap this thread allocates on (server GC only; workstation GC leaves it 0).
        long gcHeap = context.gcReserved1();
        // 4. Word 0 of the GCHeap is the IGCHeap vtable; slot 69 is DiagDescrGenerations.
        long vtable = views.view(GcHeap.class, memory, gcHeap).vtable();
        long descrGenerations = views.view(GcHeapVtable.class, memory, vtable).diagDescrGenerations();
        out.printf("thread %d: allocation context 0x%x -> gc_reserved_1 = GCHeap 0x%x -> vtable 0x%x -> slot 69 = 0x%x%n",
                thread.id(), context.address(), gcHeap, vtable, descrGenerations);

        // 5. Call it with a callback: fn(context, generation, range_start, range_end, range_reserved) per region.
        List<Range> ranges = new ArrayList<>();
        long callback = calls.callback(args -> {
            ranges.add(new Range(args[1], args[2], args[3]));
            return 0;
        });
        calls.call(descrGenerations, gcHeap, callback, 0);
        out.printf("DiagDescrGenerations called back %d times%n", ranges.size());

        // 6. The article's walk of each range: objects tile [start, end); size = BaseSize + count x ComponentSize,
        //    stepped by its 8-aligned size (at least 24); it stops at a null MethodTable (an allocation context).
        WalkRules rules = WalkRules.of(layout);
        long objects = 0;
        for (Range r : ranges) {
            long address = r.start();
            while (address < r.end()) {
                long mt = memory.readLong(address) & rules.methodTableMask();
                if (mt == 0) {
                    break;
                }
                MethodTable type = views.view(MethodTable.class, memory, mt);
                long size = type.baseSize();
                if ((type.flags() & rules.hasComponentSize()) != 0) {
                    size += (type.flags() & rules.componentSizeMask()) * Integer.toUnsignedLong(memory.readInt(address + rules.componentCountOffset()));
                }
                address += Math.max((size + 7) & -8, rules.minObjectSize());
                objects++;
            }
        }
        long built = process.groundTruth().objectCount();
        out.printf("the article's walk: %,d of the %,d objects built%n", objects, built);
        out.println("  (DiagDescrGenerations reports heap_segment.allocated, which stays at mem on the ephemeral region while gen0");
        out.println("  grows, and skips the frozen segments: the article forces a GC first and registers a dummy frozen segment)");

        // 7. The complete in-process path adds what the article gets by other means: each heap's alloc_allocated,
        //    every allocation context to skip, and the frozen segment list (RegisterFrozenSegment, slot 73).
        //    The front door does all of it when given the native calls: its heap() is found in-process.
        long[] all = {0};
        dump.walk((address, mt, size, region) -> all[0]++);
        out.printf("in-process discovery + the walk (Dumps.of with native calls): %,d of the %,d objects built%n", all[0], built);
        return all[0] == built;
    }
}
