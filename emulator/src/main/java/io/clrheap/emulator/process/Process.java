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
 *
 * @param sizing the layout native structures are also sized by: the Linux layout of the same build when this is a
 *               Windows process, so that each structure takes as much of the malloc heap on both systems and every
 *               address after it is the same (one answer key serves the ELF core and the minidump); else {@code layout}
 */
public record Process(Scenario scenario, RuntimeLayout layout, RuntimeLayout sizing, AddressSpace memory, ViewFactory views, GroundTruth truth,
               Map<Long, String> names, BumpAllocator nativeHeap, BumpAllocator loaderHeap, GcBookkeeping bookkeeping,
               BumpAllocator threadLocals, BumpAllocator handleSegments, ModuleImageBuilder module) {

    public boolean server() {
        return layout.gc() == io.clrheap.layout.GcFlavor.SERVER;
    }

    /**
     * The standalone segments GC's layout when the scenario runs on it ({@link io.clrheap.emulator.scenario.GcMode#SEGMENTS}),
     * else null (the runtime's own regions GC).
     *
     * @throws IllegalArgumentException when the emulated build is not one whose packages ship it, read on real dumps
     */
    public io.clrheap.layout.SegmentsGcLayout segments() {
        if (scenario.gcMode() != io.clrheap.emulator.scenario.GcMode.SEGMENTS) {
            return null;
        }
        String build = layout.primaryBuild().version();
        if (!layout.os().equals("linux")) {
            throw new IllegalArgumentException("the segments GC (libclrgc.so) is emulated on Linux only, where real dumps of it were read");
        }
        return io.clrheap.layout.SegmentsGcLayout.forBuild(build).orElseThrow(() -> new IllegalArgumentException(
                "the segments GC (libclrgc.so) is emulated for the builds whose classic packages ship it and whose real dumps were read ("
                        + String.join(", ", io.clrheap.layout.SegmentsGcLayout.libclrgc().builds()) + "), not " + build));
    }

    public long offset(String type, String field) {
        return layout.offset(type, field);
    }

    /**
     * A zeroed block of the malloc heap for a structure of the profile (its size, or the end of its known fields, in
     * this layout and in {@link #sizing()}: the larger).
     */
    public long allocateNative(String type, long minimum) {
        long extent = Math.max(layout.type(type).extent(), sizing.findType(type).map(t -> t.extent()).orElse(0L));
        return nativeHeap.allocate(Math.max(extent, minimum), 16);
    }
}
