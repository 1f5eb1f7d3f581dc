package io.clrheap.emulator;

import io.clrheap.emulator.module.ModuleImage;
import io.clrheap.emulator.module.ModuleImageBuilder;
import io.clrheap.emulator.space.AddressSpace;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.layout.view.ViewFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds an {@link EmulatedRuntime} from a {@link Scenario}: the runtime module with its {@code g_dacTable} and GC
 * DAC globals ({@link RuntimeGlobals}), the heaps with their generation tables, regions and objects
 * ({@link HeapBuilder}), the threads with their allocation contexts ({@link ThreadBuilder}) — each placed where and
 * as the real build places it (discovery.md), and recorded in the ground truth as it is written.
 */
public final class RuntimeBuilder {

    private final ProfileLoader profiles;

    public RuntimeBuilder(ProfileLoader profiles) {
        this.profiles = profiles;
    }

    public RuntimeBuilder() {
        this(ProfileLoader.builtIn());
    }

    public EmulatedRuntime build(Scenario scenario) {
        RuntimeLayout layout = profiles.load(scenario.runtime(), scenario.gc());
        AddressSpace memory = new AddressSpace("emulated " + scenario.name() + " (" + layout.describe() + ")");
        memory.reserve("native heap", ProcessLayout.NATIVE_HEAP, ProcessLayout.NATIVE_HEAP_SIZE);
        memory.reserve("loader heap", ProcessLayout.LOADER_HEAP, ProcessLayout.LOADER_HEAP_SIZE);
        memory.reserve("gc bookkeeping", ProcessLayout.BOOKKEEPING, ProcessLayout.BOOKKEEPING_SIZE);
        memory.reserve("gc reserve", ProcessLayout.GC_RESERVE, ProcessLayout.GC_RESERVE_SIZE);
        memory.reserve("frozen heap", ProcessLayout.FROZEN_HEAP, layout.constant("frozen_segment.initial_reserve"));
        memory.reserve("thread locals", ProcessLayout.THREAD_LOCALS, ProcessLayout.THREAD_LOCALS_SIZE);
        memory.reserve("handle segments", ProcessLayout.HANDLE_SEGMENTS, ProcessLayout.HANDLE_SEGMENTS_SIZE);

        Process process = new Process(scenario, layout, memory, new ViewFactory(layout), new GroundTruth(), new LinkedHashMap<>(),
                new BumpAllocator("native heap", ProcessLayout.NATIVE_HEAP, ProcessLayout.NATIVE_HEAP_SIZE),
                new BumpAllocator("loader heap", ProcessLayout.LOADER_HEAP, ProcessLayout.LOADER_HEAP_SIZE),
                new BumpAllocator("gc bookkeeping", ProcessLayout.BOOKKEEPING, ProcessLayout.BOOKKEEPING_SIZE),
                new BumpAllocator("thread locals", ProcessLayout.THREAD_LOCALS, ProcessLayout.THREAD_LOCALS_SIZE),
                new BumpAllocator("handle segments", ProcessLayout.HANDLE_SEGMENTS, ProcessLayout.HANDLE_SEGMENTS_SIZE),
                new ModuleImageBuilder(modulePath(layout), ProcessLayout.MODULE_BASE));
        // the module first: everything else writes into its variables
        RuntimeGlobals globals = new RuntimeGlobals(process);
        TypeSystem types = new TypeSystem(process);
        java.util.Random random = new java.util.Random(scenario.seed());
        HeapBuilder heaps = new HeapBuilder(process, types, globals, random);
        heaps.placeOlderGenerations();
        ThreadBuilder threads = new ThreadBuilder(process, globals, heaps);
        threads.allocateGen0(random);
        threads.placeContextEdgeCases();
        long heapArray = heaps.writeStructures();
        threads.writeStructures();
        HandleTableBuilder handles = new HandleTableBuilder(process);
        long handleTableMap = handles.build(heaps.heaps().size(), scenario.handlesPerKind(), random);
        handles.handles().forEach(h -> process.truth().addHandle(new GroundTruth.HandleInfo(h.handle(), h.type(), h.target(), h.secondary())));
        globals.writeProcessGlobals(types, heaps.heaps(), heapArray, handleTableMap);
        ModuleImage image = globals.image();
        return new EmulatedRuntime(scenario, layout, memory, image.fileMappings(), process.truth(), Map.copyOf(process.names()));
    }

    private static String modulePath(RuntimeLayout layout) {
        return "/usr/share/dotnet/shared/Microsoft.NETCore.App/" + layout.primaryBuild().version() + "/libcoreclr.so";
    }
}
