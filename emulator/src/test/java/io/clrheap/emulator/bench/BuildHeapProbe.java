package io.clrheap.emulator.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.ref.Reference;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Builds the benchmark heap once, in a JVM of its own started with a small {@code -Xmx}, and prints what the build
 * cost the Java heap as {@code key=value} lines for {@link EmulatorBenchmarkReport}. A JVM of its own, because the
 * figures must not include JMH's or Maven's objects, and because the -Xmx itself is part of the claim: the build
 * finishing under a maximum heap smaller than the heap it builds shows the heap lives off the Java heap.
 *
 * <p>Three figures, since "peak Java heap" has no single honest meaning under a generational collector: the sum of
 * every heap pool's peak (garbage not yet collected included: an upper bound), the largest heap left after any GC
 * during the build (the live data at that moment, give or take), and what the built process keeps after a full GC
 * while it is still reachable (the ground truth and the chunk index).
 */
public final class BuildHeapProbe {

    private BuildHeapProbe() {
    }

    public static void main(String[] args) {
        List<MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).toList();
        AtomicLong largestAfterGc = watchHeapAfterGc(heapPools);
        System.gc();
        heapPools.forEach(MemoryPoolMXBean::resetPeakUsage);
        largestAfterGc.set(0);

        long start = System.nanoTime();
        EmulatedRuntime runtime = new RuntimeBuilder().build(BigHeapScenario.build());
        long buildNanos = System.nanoTime() - start;

        long peakSum = heapPools.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        System.gc();
        long retained = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        BigHeapScenario.checkTargets(runtime.groundTruth());

        System.out.println("maxHeap=" + Runtime.getRuntime().maxMemory());
        System.out.println("buildNanos=" + buildNanos);
        System.out.println("objects=" + runtime.groundTruth().objectCount());
        System.out.println("objectBytes=" + runtime.groundTruth().totalBytes());
        System.out.println("allocatedBytes=" + runtime.memory().allocatedBytes());
        System.out.println("peakPoolSum=" + peakSum);
        System.out.println("largestAfterGc=" + largestAfterGc.get());
        System.out.println("retained=" + retained);
        System.out.println("gc=" + ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(b -> b.getName()).reduce((a, b) -> a + ", " + b).orElse("?"));
        Reference.reachabilityFence(runtime);
    }

    /** The largest sum of heap pools' usage right after a collection, updated by every GC from now on. */
    private static AtomicLong watchHeapAfterGc(List<MemoryPoolMXBean> heapPools) {
        List<String> names = heapPools.stream().map(MemoryPoolMXBean::getName).toList();
        AtomicLong largest = new AtomicLong();
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc).addNotificationListener((notification, handback) -> {
                if (!notification.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                    return;
                }
                Map<String, MemoryUsage> after = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData())
                        .getGcInfo().getMemoryUsageAfterGc();
                long used = names.stream().map(after::get).filter(u -> u != null).mapToLong(MemoryUsage::getUsed).sum();
                largest.accumulateAndGet(used, Math::max);
            }, null, null);
        }
        return largest;
    }
}
