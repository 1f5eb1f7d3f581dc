package io.clrheap.emulator.process;

import io.clrheap.emulator.module.ModuleImageBuilder;
import io.clrheap.emulator.space.AddressSpace;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.view.ViewFactory;
import java.util.Map;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.truth.GroundTruth;

/**
 * What the parts of a build share: the scenario, the profile, the memory and its views, the allocators of the
 * process's native memory, the GC's bookkeeping area (where region descriptors live), the module being laid out,
 * the ground truth and the type names.
 */
public record Process(Scenario scenario, RuntimeLayout layout, AddressSpace memory, ViewFactory views, GroundTruth truth,
               Map<Long, String> names, BumpAllocator nativeHeap, BumpAllocator loaderHeap, GcBookkeeping bookkeeping,
               BumpAllocator threadLocals, BumpAllocator handleSegments, ModuleImageBuilder module) {

    public boolean server() {
        return layout.gc() == io.clrheap.layout.GcFlavor.SERVER;
    }

    public long offset(String type, String field) {
        return layout.offset(type, field);
    }

    /** A zeroed block of the malloc heap for a structure of the profile (its size, or the end of its known fields). */
    public long allocateNative(String type, long minimum) {
        return nativeHeap.allocate(Math.max(layout.type(type).extent(), minimum), 16);
    }
}
