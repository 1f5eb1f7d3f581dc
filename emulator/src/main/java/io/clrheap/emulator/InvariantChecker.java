package io.clrheap.emulator;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Checks what a heap must be to be walkable (clr-layouts.md section 17), on the ground truth and the memory of an
 * emulated process: every region's {@code [mem, end)} is tiled by its objects and the allocation contexts in it;
 * each object's MethodTable word in memory is the recorded one; every LOH object follows a 32-byte padding free
 * object and POH objects do not; every context lies inside a gen0 region.
 */
public final class InvariantChecker {

    private static final int MAX_VIOLATIONS = 100;

    private InvariantChecker() {
    }

    /** The violations found (at most 100), empty when the heap is well formed. */
    public static List<String> check(EmulatedRuntime runtime) {
        GroundTruth truth = runtime.groundTruth();
        Memory memory = runtime.memory();
        RuntimeLayout layout = runtime.layout();
        List<String> violations = new ArrayList<>();
        int[] order = truth.byAddress();
        long[] addresses = Arrays.stream(order).mapToLong(truth::address).toArray();
        long alignment = layout.constant("object.alignment");
        long minimum = layout.constant("object.min_size");
        long reserve = layout.constant("alloc_context.tail_reserve");
        long padSize = layout.constant("loh.pad_size");
        for (GroundTruth.RegionInfo region : truth.regions()) {
            long cursor = region.mem();
            int i = lowerBound(addresses, region.mem());
            boolean afterPadding = false;
            while (Long.compareUnsigned(cursor, region.end()) < 0 && violations.size() < MAX_VIOLATIONS) {
                GroundTruth.ContextInfo context = contextAt(truth, cursor);
                if (context != null) {
                    cursor = context.limit() + reserve;
                    continue;
                }
                if (i >= addresses.length || addresses[i] != cursor) {
                    violations.add(String.format("region 0x%x [0x%x, 0x%x): nothing placed at 0x%x", region.descriptor(), region.mem(), region.end(), cursor));
                    break;
                }
                int o = order[i];
                long mtWord = memory.readLong(cursor) & ~layout.constant("object.mt_unmask");
                if (mtWord != truth.methodTable(o)) {
                    violations.add(String.format("object 0x%x: memory says MethodTable 0x%x, the ground truth 0x%x", cursor, mtWord, truth.methodTable(o)));
                }
                if (region.generation() == 3 && truth.kind(o) == GroundTruth.Kind.OBJECT && !afterPadding) {
                    violations.add(String.format("LOH object 0x%x does not follow a padding free object", cursor));
                }
                if (region.generation() == 4 && truth.kind(o) == GroundTruth.Kind.PADDING) {
                    violations.add(String.format("POH object 0x%x is padding: the POH has none", cursor));
                }
                afterPadding = truth.kind(o) == GroundTruth.Kind.PADDING && truth.size(o) == padSize;
                cursor += Math.max((truth.size(o) + alignment - 1) & -alignment, minimum);
                i++;
            }
            if (cursor != region.end() && violations.size() < MAX_VIOLATIONS) {
                violations.add(String.format("region 0x%x: objects end at 0x%x, the region at 0x%x", region.descriptor(), cursor, region.end()));
            }
        }
        for (GroundTruth.ContextInfo c : truth.contexts()) {
            boolean inside = truth.regions().stream().anyMatch(r -> r.generation() == 0
                    && Long.compareUnsigned(c.pointer(), r.mem()) >= 0 && Long.compareUnsigned(c.limit() + reserve, r.end()) <= 0);
            if (!inside) {
                violations.add(String.format("the allocation context of %s [0x%x, 0x%x) is in no gen0 region", c.owner(), c.pointer(), c.limit()));
            }
        }
        return violations;
    }

    private static GroundTruth.ContextInfo contextAt(GroundTruth truth, long address) {
        for (GroundTruth.ContextInfo c : truth.contexts()) {
            if (c.pointer() == address) {
                return c;
            }
        }
        return null;
    }

    private static int lowerBound(long[] sorted, long key) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(sorted[mid], key) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
