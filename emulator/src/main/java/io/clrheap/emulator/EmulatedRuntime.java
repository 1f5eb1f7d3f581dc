package io.clrheap.emulator;

import io.clrheap.emulator.calls.EmulatedCalls;
import io.clrheap.emulator.module.EmulatedModule;
import io.clrheap.emulator.module.ModuleMapping;
import io.clrheap.emulator.space.AddressSpace;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.process.NativeCalls;
import java.util.List;
import java.util.Map;
import io.clrheap.emulator.gc.GcStatics;
import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.truth.ObjectGraph;

/**
 * An emulated process: its memory, the runtime module's mappings (what /proc/PID/maps or an ELF core's NT_FILE
 * lists), the ground truth of what was placed, the type names (which real processes keep in metadata) and the
 * runtime module as a dump's module list describes it.
 *
 * @param scenario     what was built
 * @param layout       the profile it was built with
 * @param memory       the process memory
 * @param mappings     the file mappings: the runtime module's first, then the assemblies' images (CoreLib's, the scenario's)
 * @param groundTruth  every object, region and allocation context placed
 * @param typeNames    MethodTable → type name
 * @param module       the runtime module: platform, path, base, size, timestamp, file version
 * @param gcStatics    where the emulated GC's code and statics are, for native calls
 * @param fields       MethodTable → the instance fields of its objects, for the types that declare or inherit fields
 */
public record EmulatedRuntime(Scenario scenario, RuntimeLayout layout, AddressSpace memory, List<ModuleMapping> mappings,
                              GroundTruth groundTruth, Map<Long, String> typeNames, EmulatedModule module,
                              GcStatics gcStatics, Map<Long, List<io.clrheap.emulator.truth.FieldTruth>> fields) {

    /** The operating system the process was built for: Linux ({@code libcoreclr.so}) or Windows ({@code coreclr.dll}). */
    public Platform platform() {
        return module.platform();
    }

    /** The object graph: references, roots and live objects, as the answer key states them ({@link ObjectGraph}). */
    public ObjectGraph objectGraph() {
        return new ObjectGraph(groundTruth, memory, layout.offset("Array", "m_NumComponents"), layout.constant("object.mt_unmask"));
    }

    /**
     * A new session of native calls into this process, as code running in it would make them: the GC's
     * {@code IGCHeap} functions an in-process walker calls through the vtable ({@code DiagDescrGenerations},
     * {@code RegisterFrozenSegment}, {@code UnregisterFrozenSegment}) run as the GC runs them, over the session's
     * memory. The session writes into a copy of the pages it changes: the process stays as built.
     */
    public NativeCalls nativeCalls() {
        return new EmulatedCalls(layout, memory, gcStatics);
    }
}
