package io.clrheap.emulator;

import io.clrheap.emulator.module.EmulatedModule;
import io.clrheap.emulator.module.ModuleImage;
import io.clrheap.emulator.module.ModuleImageBuilder;
import io.clrheap.emulator.module.ModuleMapping;
import io.clrheap.emulator.space.AddressSpace;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.layout.view.ViewFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.clrheap.emulator.types.TypeSystem;
import io.clrheap.emulator.scenario.TypeDef;
import io.clrheap.emulator.types.AssemblyFile;
import io.clrheap.emulator.gc.HeapBuilder;
import io.clrheap.emulator.gc.Heap;
import io.clrheap.emulator.gc.GcStructureWriter;
import io.clrheap.emulator.gc.GcStatics;
import io.clrheap.emulator.gc.HandleTableBuilder;
import io.clrheap.emulator.threads.StackBuilder;
import io.clrheap.emulator.threads.ThreadBuilder;
import io.clrheap.emulator.scenario.Feature;
import io.clrheap.emulator.truth.DeadObjects;
import io.clrheap.emulator.truth.ObjectGraph;
import io.clrheap.emulator.globals.RuntimeGlobals;
import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.process.BumpAllocator;
import io.clrheap.emulator.process.GcBookkeeping;
import io.clrheap.emulator.process.Process;
import io.clrheap.emulator.process.ProcessLayout;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.scenario.Step;
import io.clrheap.emulator.truth.GroundTruth;

/**
 * Builds an {@link EmulatedRuntime} from a {@link Scenario}: the runtime module with its {@code g_dacTable} and GC
 * DAC globals ({@link RuntimeGlobals}), the heaps with their generation tables, regions and objects
 * ({@link HeapBuilder}), the threads with their allocation contexts ({@link ThreadBuilder}) and stacks ({@link StackBuilder}) — each placed where and
 * as the real build places it (docs/reference/discovery.md), and recorded in the ground truth as it is written.
 */
public final class RuntimeBuilder {

    /** The default memory budget: what a build may write before it is refused (16 GiB). */
    public static final long DEFAULT_MEMORY_BUDGET = 16L << 30;

    /** Mixed into the scenario's seed for the object graph's random stream (an arbitrary odd constant). */
    private static final long OBJECT_GRAPH_SEED = 0x9e3779b97f4a7c15L;
    /** The field values' random stream: its own, so that the object graph stays as it was without fields. */
    private static final long FIELD_VALUES_SEED = 0x5851f42d4c957f2dL;
    /** Mixed into the scenario's seed for the threads' stacks' random stream (an arbitrary odd constant). */
    private static final long STACKS_SEED = 0xc2b2ae3d27d4eb4fL;
    /** Weak handles a {@link Feature#WEAK_ONLY_OBJECTS} scenario adds, half short, half long. */
    private static final int WEAK_ONLY_HANDLES = 8;

    private final ProfileLoader profiles;
    private long memoryBudget = DEFAULT_MEMORY_BUDGET;
    private Platform platform = Platform.LINUX;
    private java.util.function.LongConsumer progress;

    public RuntimeBuilder(ProfileLoader profiles) {
        this.profiles = profiles;
    }

    public RuntimeBuilder() {
        this(ProfileLoader.builtIn());
    }

    /** The most bytes of process memory a build may write; a scenario that needs more is refused with a message. */
    public RuntimeBuilder memoryBudget(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("a memory budget is positive, not " + bytes);
        }
        memoryBudget = bytes;
        return this;
    }

    /**
     * The operating system to build for (default {@link Platform#LINUX}). It decides the runtime module's format and
     * name only: a Windows build is the Linux build of the same scenario with {@code coreclr.dll}, a PE32+ image, in
     * place of {@code libcoreclr.so} — same addresses, same bytes everywhere but the module's header part, the Linux
     * x64 structure layouts.
     */
    public RuntimeBuilder platform(Platform platform) {
        this.platform = java.util.Objects.requireNonNull(platform, "platform");
        return this;
    }

    /**
     * Hears the objects placed so far while {@link #build} runs (every 65,536 objects; the count a collection removes
     * comes off), to show progress against {@link Scenario#declaredObjects()}. None by default.
     */
    public RuntimeBuilder progress(java.util.function.LongConsumer objectsPlaced) {
        this.progress = objectsPlaced;
        return this;
    }

    public EmulatedRuntime build(Scenario scenario) {
        RuntimeLayout layout = scenario.runtimeChoice().layout(profiles, platform.os(), scenario.gc());
        AddressSpace memory = new AddressSpace("emulated " + scenario.name() + " (" + layout.describe() + ")", memoryBudget);
        memory.reserve("native heap", ProcessLayout.NATIVE_HEAP, ProcessLayout.NATIVE_HEAP_SIZE);
        memory.reserve("loader heap", ProcessLayout.LOADER_HEAP, ProcessLayout.LOADER_HEAP_SIZE);
        GcBookkeeping bookkeeping = GcBookkeeping.of(layout);
        memory.reserve("gc bookkeeping", bookkeeping.start(), bookkeeping.size());
        memory.reserve("gc reserve", ProcessLayout.GC_RESERVE, ProcessLayout.GC_RESERVE_SIZE);
        memory.reserve("thread locals", ProcessLayout.THREAD_LOCALS, ProcessLayout.THREAD_LOCALS_SIZE);
        memory.reserve("handle segments", ProcessLayout.HANDLE_SEGMENTS, ProcessLayout.HANDLE_SEGMENTS_SIZE);
        memory.reserve("assembly images", ProcessLayout.ASSEMBLY_IMAGES, ProcessLayout.ASSEMBLY_IMAGES_SIZE);

        // a Windows process takes as much of the malloc heap per structure as the Linux one of the build: the same addresses
        RuntimeLayout sizing = platform == Platform.LINUX ? layout : scenario.runtimeChoice().layout(profiles, scenario.gc());
        Process process = new Process(scenario, layout, sizing, memory, new ViewFactory(layout),
                new GroundTruth(layout.constant("object.alignment"), layout.constant("object.min_size")), new LinkedHashMap<>(),
                new BumpAllocator("native heap", ProcessLayout.NATIVE_HEAP, ProcessLayout.NATIVE_HEAP_SIZE),
                new BumpAllocator("loader heap", ProcessLayout.LOADER_HEAP, ProcessLayout.LOADER_HEAP_SIZE),
                bookkeeping,
                new BumpAllocator("thread locals", ProcessLayout.THREAD_LOCALS, ProcessLayout.THREAD_LOCALS_SIZE),
                new BumpAllocator("handle segments", ProcessLayout.HANDLE_SEGMENTS, ProcessLayout.HANDLE_SEGMENTS_SIZE),
                new ModuleImageBuilder(modulePath(layout, platform), ProcessLayout.MODULE_BASE, platform));
        if (progress != null) {
            process.truth().progress(progress);
        }
        List<String> segmentsOnly = featureNames(scenario, Feature::segmentsOnly);
        if (process.segments() == null && !segmentsOnly.isEmpty()) {
            throw new IllegalArgumentException(String.join(", ", segmentsOnly) + (segmentsOnly.size() == 1 ? " needs" : " need")
                    + " the segments GC (\"gcMode\": \"segments\")");
        }
        if (process.segments() != null) {
            List<String> regionsOnly = featureNames(scenario, Feature::regionsOnly);
            if (!regionsOnly.isEmpty()) {
                throw new IllegalArgumentException(String.join(", ", regionsOnly) + (regionsOnly.size() == 1 ? " places" : " place")
                        + " contexts in regions, which the segments GC (\"gcMode\": \"segments\") has none of");
            }
        }
        // the module first: everything else writes into its variables
        RuntimeGlobals globals = new RuntimeGlobals(process);
        TypeSystem types = new TypeSystem(process, scenario.types(), globals.variable("Module__vtAddr"));
        java.util.Random random = new SequentialRandom(scenario.seed());
        HeapBuilder heaps = new HeapBuilder(process, types, random);
        heaps.createRegions();
        heaps.placeOlderGenerations();
        ThreadBuilder threads = new ThreadBuilder(process, globals, heaps, types);
        threads.allocateGen0(random);
        heaps.startProgram();
        runProgram(scenario, types, heaps, threads, random);
        threads.placeContextEdgeCases();
        // the object graph last, over the objects as they stay: its own random stream, so the layout above stays as it was
        heaps.writeReferences(new SequentialRandom(scenario.seed() ^ OBJECT_GRAPH_SEED));
        heaps.writeFieldValues(new SequentialRandom(scenario.seed() ^ FIELD_VALUES_SEED));
        long heapArray = new GcStructureWriter(process, globals.vtable(), globals.gcStatic("generation_table"), heaps).write();
        threads.writeStructures();
        HandleTableBuilder handles = new HandleTableBuilder(process);
        long handleTableMap = handles.build(heaps.heaps().size(), scenario.handlesPerKind(), random);
        handles.handles().forEach(h -> process.truth().addHandle(new GroundTruth.HandleInfo(h.handle(), h.type(), h.target(), h.secondary())));
        // the stacks after every other root, so that their stack-only objects are the ones nothing else keeps alive
        new StackBuilder(process, new SequentialRandom(scenario.seed() ^ STACKS_SEED)).build();
        if (scenario.has(Feature.WEAK_ONLY_OBJECTS)) {
            addWeakOnly(process, handles);
        }
        globals.writeProcessGlobals(types, heaps.heaps(), heapArray, handleTableMap);
        // the Modules' images, PEAssemblies and PEImages: last in the malloc heap, so that nothing laid out before them moves
        List<ModuleMapping> assemblyMappings = AssemblyFile.layOut(process, types, globals.variable("vtable:PEAssembly"),
                globals.variable(RuntimeGlobals.LOADED_IMAGE_LAYOUT_VTABLE));
        ModuleImage image = globals.image();
        // the runtime module's mappings first (a dump's readers take the first as the runtime's), then the assemblies'
        List<ModuleMapping> mappings = new java.util.ArrayList<>(image.fileMappings());
        // a standalone GC's module next (segments mode), the file its statics lie past, as in the real dumps
        globals.gcImage().ifPresent(gcImage -> mappings.addAll(gcImage.fileMappings()));
        mappings.addAll(assemblyMappings);
        EmulatedModule module = new EmulatedModule(image.platform(), image.path(), image.base(), image.end() - image.base(),
                image.timeDateStamp(), RuntimeGlobals.fileVersion(layout.primaryBuild()));
        GcStatics gc = globals.gcStatics(heaps.heaps().get(0).generationTable());
        process.truth().progress(null);
        return new EmulatedRuntime(scenario, layout, memory, List.copyOf(mappings), process.truth(),
                java.util.Collections.unmodifiableMap(new LinkedHashMap<>(process.names())), module, gc, types.fields());
    }

    /** The scenario's features that {@code which} holds for, as scenario JSON spells them. */
    private static List<String> featureNames(Scenario scenario, java.util.function.Predicate<Feature> which) {
        return scenario.features().stream().filter(which).map(f -> f.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')).toList();
    }

    /** Weak handles to objects that stay dead with every root counted, stacks included: {@link Feature#WEAK_ONLY_OBJECTS}. */
    private static void addWeakOnly(Process process, HandleTableBuilder handles) {
        GroundTruth truth = process.truth();
        long[] live = new ObjectGraph(truth, process.memory(), process.offset("Array", "m_NumComponents"), process.layout().constant("object.mt_unmask")).live();
        java.util.Set<Long> excluded = new java.util.HashSet<>();
        truth.handles().forEach(h -> excluded.add(h.target()));
        truth.stacks().forEach(s -> s.staleSlots().forEach(slot -> excluded.add(process.memory().readLong(slot))));
        long[] targets = DeadObjects.pick(truth, live, excluded, WEAK_ONLY_HANDLES, new SequentialRandom(process.scenario().seed() ^ STACKS_SEED ^ 1)).addresses();
        handles.addWeak(targets).forEach(h -> truth.addHandle(new GroundTruth.HandleInfo(h.handle(), h.type(), h.target(), h.secondary())));
    }

    /** The scenario's allocation program, step by step. */
    private static void runProgram(Scenario scenario, TypeSystem types, HeapBuilder heaps, ThreadBuilder threads, java.util.Random random) {
        for (Step step : scenario.program()) {
            switch (step) {
                case Step.Allocate a -> {
                    TypeDef type = types.named(a.type());
                    if (type.hasComponents() && a.lengths().max() > type.maxComponents()) {
                        throw new IllegalArgumentException(String.format("allocate %s: lengths up to %,d, but a %s holds at most %,d",
                                a.type(), a.lengths().max(), a.type(), type.maxComponents()));
                    }
                    switch (a.where()) {
                        case GEN0 -> threads.allocate(a, random);
                        case FROZEN -> heaps.placeFrozen(type, a.count(), a.lengths(), random);
                        default -> {
                            int generation = switch (a.where()) {
                                case GEN1 -> 1;
                                case GEN2 -> 2;
                                case LOH -> 3;
                                default -> 4;
                            };
                            List<Heap> all = heaps.heaps();
                            TypeSystem.Placed placed = types.placed(type);
                            Step.Lengths.Sampler lengths = a.lengths().sampler(random);
                            for (long i = 0; i < a.count(); i++) {
                                Heap heap = a.heap() >= 0 ? all.get(a.heap()) : all.get((int) (i % all.size()));
                                long count = type.hasComponents() ? lengths.next() : 0;
                                boolean dies = a.dies() > 0 && random.nextDouble() < a.dies();
                                heaps.place(heap, generation, placed, count, dies);
                            }
                        }
                    }
                }
                case Step.Collect c -> {
                    threads.retireAll();
                    heaps.collect(c.generation());
                }
            }
        }
    }

    private static String modulePath(RuntimeLayout layout, Platform platform) {
        String version = layout.primaryBuild().version();
        return switch (platform) {
            case LINUX -> "/usr/share/dotnet/shared/Microsoft.NETCore.App/" + version + "/libcoreclr.so";
            case WINDOWS -> "C:\\Program Files\\dotnet\\shared\\Microsoft.NETCore.App\\" + version + "\\coreclr.dll";
        };
    }
}
