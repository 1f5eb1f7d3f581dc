package io.clrheap.walker.runtime.derive;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeBuild;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.TargetOs;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.memory.MemoryRange;
import io.clrheap.walker.runtime.IdentityReader;
import io.clrheap.walker.runtime.LocatedRuntime;
import io.clrheap.walker.runtime.shape.ContractDescriptorGlobals;
import io.clrheap.walker.runtime.shape.DacEntry;
import io.clrheap.walker.runtime.shape.DacTableDerivation;
import io.clrheap.walker.runtime.shape.DacTableShapes;
import io.clrheap.walker.runtime.shape.GcHeapDerivation;
import io.clrheap.walker.runtime.shape.GcHeapShapes;
import io.clrheap.walker.runtime.shape.ShapeInput;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Derives one process image's build facts: its identity, the index of every {@code g_dacTable} entry of its runtime
 * version's profile ({@link DacTableShapes}), and under server GC its gc_heap offsets ({@link GcHeapShapes}). The
 * structure offsets the shapes read through come from the version's profile; the nearest known build of that version
 * breaks ties and is what {@link DacTableDerivation#driftFrom} compares with.
 */
public final class BuildDeriver {

    private final ProfileLoader profiles;

    public BuildDeriver(ProfileLoader profiles) {
        this.profiles = profiles;
    }

    /** The build could not be derived at all (no identity, no profile for its version, no GcDacVars). */
    public static final class DeriveException extends Exception {
        public DeriveException(String message) {
            super(message);
        }
    }

    /**
     * What one image gave.
     *
     * @param identity   the build's identity
     * @param runtime    its runtime version
     * @param gc         its GC flavour (from g_heap_type)
     * @param reference  the nearest known build of that version
     * @param descriptor whether the contract descriptor's globals were read (and so checked against)
     * @param table      the g_dacTable entries
     * @param heap       the gc_heap offsets, under server GC
     */
    public record DerivedBuild(LocatedRuntime located, IdentityReader.Found identity, RuntimeVersion runtime, GcFlavor gc, Optional<RuntimeBuild> reference,
                               boolean descriptor, DacTableDerivation table, Optional<GcHeapDerivation> heap) {

        /** Every entry and field found. */
        public boolean complete() {
            return table.complete() && heap.map(GcHeapDerivation::complete).orElse(true);
        }
    }

    public DerivedBuild derive(Memory memory, LocatedRuntime runtime) throws DeriveException {
        IdentityReader.Found identity = runtime.identity().orElseThrow(() -> new DeriveException(String.format(
                "cannot tell the build of %s: neither an '@(#)Version' string in its memory nor a readable DotNetRuntimeInfo", runtime.module().fileName())));
        RuntimeVersion version;
        try {
            version = RuntimeVersion.parse(Integer.toString(identity.major()));
        } catch (IllegalArgumentException e) {
            throw new DeriveException(String.format("%s is .NET %s: clrheap has no profile of .NET %d to read its structures with", runtime.module().fileName(),
                    identity.version(), identity.major()));
        }
        TargetOs os = runtime.os();
        if (!profiles.has(version, os)) {
            throw new DeriveException(String.format("%s is a %s runtime, and clrheap has no %s profile of %s (%s) to read its structures with",
                    runtime.module().fileName(), os.displayName(), os.displayName(), version.shortName(), os.profileName(version) + ".json"));
        }
        RuntimeLayout workstation = profiles.load(version, os, GcFlavor.WORKSTATION);
        // the first build of a system clrheap has no build of yet is compared with the same version's Linux builds
        RuntimeLayout references = workstation.builds().isEmpty() ? profiles.load(version, GcFlavor.WORKSTATION) : workstation;
        Optional<RuntimeBuild> reference = nearest(references, identity.version(), runtime.module().dacTableLength());
        Map<String, Long> globals = Map.of();
        boolean descriptor = false;
        Optional<Long> address = runtime.exports().apply("DotNetRuntimeContractDescriptor");
        if (address.isPresent() && workstation.findType("ContractDescriptor").isPresent()) {
            Optional<Map<String, Long>> read = ContractDescriptorGlobals.read(memory, address.get(), workstation);
            descriptor = read.isPresent();
            globals = read.orElse(Map.of());
        }
        ShapeInput input = input(memory, runtime, workstation, globals);
        DacTableDerivation table = new DacTableShapes(input, reference).derive(DacTableShapes.entriesOf(references));
        if (table.indexOf(DacEntry.GC_DAC_GLOBALS).isEmpty()) {
            throw new DeriveException("no g_dacTable entry of " + runtime.module().fileName() + " points at a GcDacVars: "
                    + table.unresolved().get(DacEntry.GC_DAC_GLOBALS));
        }
        long gcDacVars;
        GcFlavor gc;
        try {
            gcDacVars = memory.readPointer(memory.readPointer(runtime.module().dacTable() + 8L * table.indexOf(DacEntry.GC_DAC_GLOBALS).getAsInt()));
            gc = memory.readPointer(gcDacVars + workstation.offset("GcDacVars", "n_heaps")) != 0 ? GcFlavor.SERVER : GcFlavor.WORKSTATION;
        } catch (MissingMemoryException e) {
            throw new DeriveException("cannot read GcDacVars: " + e.getMessage());
        }
        Optional<GcHeapDerivation> heap = Optional.empty();
        if (gc == GcFlavor.SERVER) {
            RuntimeLayout server = profiles.load(version, os, GcFlavor.SERVER);
            heap = Optional.of(new GcHeapShapes(input(memory, runtime, server, globals), gcDacVars).derive());
        }
        return new DerivedBuild(runtime, identity, version, gc, reference, descriptor, table, heap);
    }

    /**
     * The reference build whose table a derivation is compared with: the build itself when known, else the nearest of the
     * same table length ({@link RuntimeLayout#nearestBuild}), else the nearest of any length.
     */
    static Optional<RuntimeBuild> nearest(RuntimeLayout layout, String version, int length) {
        return layout.builds().stream().filter(b -> b.version().equals(version)).findFirst()
                .or(() -> layout.nearestBuild(version, java.util.OptionalInt.of(length)))
                .or(() -> layout.nearestBuild(version, java.util.OptionalInt.empty()));
    }

    /** The shape checks' input for a located runtime module: its mappings are the module's ranges. */
    public static ShapeInput input(Memory memory, LocatedRuntime runtime, RuntimeLayout layout, Map<String, Long> descriptorGlobals) {
        List<MemoryRange> ranges = runtime.mappings().stream()
                .filter(f -> f.end() > f.start())
                .map(f -> new MemoryRange(f.start(), f.end() - f.start())).sorted().toList();
        return new ShapeInput(memory, runtime.module().fileName(), runtime.module().base(), ranges, runtime.module().dacTable(),
                runtime.module().dacTableLength(), layout, descriptorGlobals);
    }
}
