package io.clrheap.emulator.threads;

import io.clrheap.emulator.module.ModuleImageBuilder;
import io.clrheap.emulator.process.Process;
import io.clrheap.emulator.process.ProcessLayout;
import io.clrheap.emulator.space.AddressSpace;
import io.clrheap.emulator.truth.CpuRegister;
import io.clrheap.emulator.truth.DeadObjects;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.truth.ObjectGraph;
import io.clrheap.emulator.truth.StackRoot;
import io.clrheap.emulator.truth.ThreadStack;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Gives every thread of the thread store a stack and a register context, as a thread stopped in managed code has them:
 * a 64 KiB mapping ({@link ProcessLayout#THREAD_STACKS}), and in its live part {@code [rsp, base)} frames of
 * {@code rbp}-chained calls — a return address into the runtime module's {@code .text}, the caller's saved {@code rbp},
 * locals. Some locals hold references: to objects nothing else keeps alive (the stack makes them live), to objects
 * that are live anyway, and one points inside an object (an interior pointer, as to an array element); the other
 * words are small integers, saved {@code rbp} values and return addresses, none of which points into the heap. Thread
 * 0's {@code rbx} holds a reference too. Below {@code rsp} lie stale slots of frames that returned, which still hold
 * references to dead objects: a walker that scans below {@code rsp} takes them for roots.
 *
 * <p>Every reference is recorded in the ground truth ({@link GroundTruth#stackRoots()}) as it is written.
 */
public final class StackBuilder {

    /** Stack roots to objects nothing else keeps alive, per thread (the interior pointer comes on top). */
    private static final int STACK_ONLY = 2;
    /** Stale references below rsp, per thread. */
    private static final int STALE = 2;
    /** Integers on a stack are below this: never an address of the process. */
    private static final int SMALL = 0x1000;

    private final Process process;
    private final Random random;
    private final long textStart = ProcessLayout.MODULE_BASE + ModuleImageBuilder.TEXT;
    private final long textSize = ModuleImageBuilder.DATA - ModuleImageBuilder.TEXT;

    /** @param random the stacks' own random stream: the rest of the process is laid out without it */
    public StackBuilder(Process process, Random random) {
        this.process = process;
        this.random = random;
    }

    /** What one thread's stack holds before it is written: the references its locals and registers keep. */
    private static final class Plan {
        final List<long[]> locals = new ArrayList<>(); // {value, object}
        long[] register; // {value, object} for rbx, or null
    }

    /** Writes the stacks of the ground truth's threads (thread-store order) and records them and their roots. */
    public void build() {
        GroundTruth truth = process.truth();
        List<GroundTruth.ThreadInfo> threads = truth.threads();
        ObjectGraph graph = new ObjectGraph(truth, process.memory(), process.offset("Array", "m_NumComponents"),
                process.layout().constant("object.mt_unmask"));
        long[] live = graph.live();
        Set<Long> excluded = rootedObjects(truth);
        int n = threads.size();
        DeadObjects.Picked dead = DeadObjects.pick(truth, live, excluded, n * (STACK_ONLY + 1) + 1, random);
        List<Plan> plans = new ArrayList<>();
        int next = 0;
        for (int t = 0; t < n; t++) {
            Plan p = new Plan();
            for (int k = 0; k < STACK_ONLY && next < dead.count(); k++, next++) {
                p.locals.add(new long[] {dead.addresses()[next], dead.addresses()[next]});
            }
            if (next < dead.count()) {
                // an interior pointer: to a word inside the object, past its MethodTable word and before its end
                long object = dead.addresses()[next];
                long words = (dead.sizes()[next] - 1) / 8;
                p.locals.add(new long[] {object + 8 * (1 + random.nextLong(words)), object});
                next++;
            }
            if (live.length > 0) {
                long object = live[(int) ((long) t * live.length / n)];
                p.locals.add(new long[] {object, object});
            }
            plans.add(p);
        }
        if (n > 0 && next < dead.count()) {
            plans.get(0).register = new long[] {dead.addresses()[next], dead.addresses()[next]};
        }
        List<long[]> layouts = new ArrayList<>(); // per thread {limit, base, rsp, rbp}
        for (int t = 0; t < n; t++) {
            layouts.add(writeLive(t, threads.get(t).osId(), plans.get(t)));
        }
        // the stale slots' objects must stay dead with the stack roots counted
        long[] liveNow = graph.live();
        truth.stackRoots().forEach(r -> excluded.add(r.object()));
        DeadObjects.Picked stale = DeadObjects.pick(truth, liveNow, excluded, n * STALE, random);
        for (int t = 0; t < n; t++) {
            long[] l = layouts.get(t);
            List<Long> staleSlots = writeStale(l[2], l[0], stale, t * STALE);
            truth.addStack(new ThreadStack(threads.get(t).osId(), l[0], l[1], registers(l[2], l[3], plans.get(t)), staleSlots));
        }
    }

    /** The objects handles and finalization queues hold: a stack's only-reachable objects are picked among the others. */
    private static Set<Long> rootedObjects(GroundTruth truth) {
        Set<Long> rooted = new HashSet<>();
        truth.handles().forEach(h -> {
            rooted.add(h.target());
            rooted.add(h.secondary());
        });
        truth.finalizers().forEach(f -> rooted.add(f.object()));
        return rooted;
    }

    /**
     * Reserves thread {@code t}'s stack and writes its frames from the top down, outermost call first: per frame the
     * return address, the saved {@code rbp} (the caller's frame, 0 for the outermost) and two to five locals. Records
     * the stack roots, slots ascending then the register. Returns {limit, base, rsp, rbp}.
     */
    private long[] writeLive(int t, long osId, Plan plan) {
        AddressSpace memory = process.memory();
        long limit = ProcessLayout.THREAD_STACKS + t * ProcessLayout.THREAD_STACK_STRIDE + ProcessLayout.THREAD_STACK_GUARD;
        long base = limit + ProcessLayout.THREAD_STACK_SIZE;
        memory.reserve("thread stack " + osId, limit, ProcessLayout.THREAD_STACK_SIZE);
        long cursor = base;
        long savedRbp = 0;
        List<Long> locals = new ArrayList<>();
        int frames = 3 + random.nextInt(3);
        for (int f = 0; f < frames; f++) {
            cursor -= 8;
            memory.writeLong(cursor, returnAddress());
            cursor -= 8;
            memory.writeLong(cursor, savedRbp);
            savedRbp = cursor;
            int count = 2 + random.nextInt(4);
            for (int k = 0; k < count; k++) {
                cursor -= 8;
                locals.add(cursor);
            }
        }
        Collections.shuffle(locals, random);
        List<StackRoot> roots = new ArrayList<>();
        for (int k = 0; k < locals.size(); k++) {
            long slot = locals.get(k);
            if (k < plan.locals.size()) {
                long[] r = plan.locals.get(k);
                memory.writeLong(slot, r[0]);
                roots.add(new StackRoot(osId, slot, null, r[0], r[1]));
            } else {
                memory.writeLong(slot, random.nextInt(4) == 0 ? 0 : random.nextInt(SMALL));
            }
        }
        roots.sort(Comparator.comparingLong(StackRoot::slot));
        if (plan.register != null) {
            roots.add(new StackRoot(osId, 0, CpuRegister.RBX, plan.register[0], plan.register[1]));
        }
        roots.forEach(process.truth()::addStackRoot);
        return new long[] {limit, base, cursor, savedRbp};
    }

    /**
     * The words just below {@code rsp}, left by calls that returned: small integers and return addresses, and
     * {@link #STALE} of them references to the dead objects {@code stale} holds from {@code first}. Returns those slots,
     * ascending.
     */
    private List<Long> writeStale(long rsp, long limit, DeadObjects.Picked stale, int first) {
        AddressSpace memory = process.memory();
        int words = 6 + random.nextInt(6);
        List<Long> slots = new ArrayList<>();
        for (int j = 1; j <= words && rsp - 8L * j >= limit; j++) {
            slots.add(rsp - 8L * j);
        }
        Collections.shuffle(slots, random);
        List<Long> references = new ArrayList<>();
        for (int k = 0; k < slots.size(); k++) {
            long slot = slots.get(k);
            int s = first + k;
            if (k < STALE && s < stale.count()) {
                memory.writeLong(slot, stale.addresses()[s]);
                references.add(slot);
            } else {
                memory.writeLong(slot, random.nextBoolean() ? returnAddress() : random.nextInt(SMALL));
            }
        }
        references.sort(null);
        return references;
    }

    /** The thread's context: rsp and rbp as its frames left them, rip in the module's .text, rbx a reference when planned, small integers in the rest. */
    private Map<CpuRegister, Long> registers(long rsp, long rbp, Plan plan) {
        Map<CpuRegister, Long> registers = new EnumMap<>(CpuRegister.class);
        for (CpuRegister r : CpuRegister.values()) {
            registers.put(r, random.nextInt(3) == 0 ? 0L : random.nextInt(SMALL));
        }
        registers.put(CpuRegister.RSP, rsp);
        registers.put(CpuRegister.RBP, rbp);
        registers.put(CpuRegister.RIP, returnAddress());
        if (plan.register != null) {
            registers.put(CpuRegister.RBX, plan.register[0]);
        }
        return registers;
    }

    /** An address in the runtime module's .text: where a call returns to. */
    private long returnAddress() {
        return textStart + random.nextLong(textSize);
    }
}
