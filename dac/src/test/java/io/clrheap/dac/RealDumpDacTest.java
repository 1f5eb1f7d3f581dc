package io.clrheap.dac;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.walk.WalkRules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import io.clrheap.dac.walk.DacWalkKind;

/**
 * Microsoft's 9.0.1 DAC as a third referee on the real 9.0.1 dumps: both of its heap walks find every object of the
 * runtime's own live list (live-objects.txt) and agree, object for object, with clrheap's DAC-less walker.
 */
class RealDumpDacTest {

    private static final Path REAL = Path.of("../golden/real");

    /** address → {mt, size} of the DAC-less walk (free objects included). */
    private static Map<Long, long[]> walkerObjects(Target target) {
        Map<Long, long[]> objects = new TreeMap<>(Long::compareUnsigned);
        new HeapWalker(target.memory(), WalkRules.of(target.layout()), new HeapDiscovery(target).discover(), WalkLimits.DEFAULT)
                .walk((address, mt, size, region) -> objects.put(address, new long[] {mt, size}));
        return objects;
    }

    /** address → {mt, size} of live-objects.txt (address size mt type). */
    private static Map<Long, long[]> liveObjects(Path folder) throws IOException {
        Map<Long, long[]> live = new TreeMap<>(Long::compareUnsigned);
        try (Stream<String> lines = Files.lines(folder.resolve("live-objects.txt"))) {
            lines.filter(l -> l.startsWith("0x")).forEach(l -> {
                String[] t = l.split("\\s+");
                live.put(Long.parseUnsignedLong(t[0].substring(2), 16), new long[] {Long.parseUnsignedLong(t[2].substring(2), 16), Long.parseLong(t[1])});
            });
        }
        return live;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"net9-wks", "net9-svr", "net9-withheap"})
    void theSosPathFindsTheLiveListAndAgreesWithTheWalkerObjectForObject(String folder) throws Exception {
        Path core = REAL.resolve(folder).resolve("core.xz");
        try (ElfCore dump = ElfCore.open(core)) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(dump, dump.mappedFiles(), Optional.empty());
            Map<Long, long[]> fromDac = new TreeMap<>(Long::compareUnsigned);
            DacHeap heap = DacEngine.open(TestDac.path()).walk(core, target, DacWalkKind.SOS,
                    (address, mt, size, region) -> fromDac.put(address, new long[] {mt, size}), DacEngine.DEFAULT_TIMEOUT);

            assertThat(heap.failures()).as("failed DAC calls").isEmpty();
            assertThat(heap.usefulGlobals().freeMethodTable()).isNotZero();
            assertThat(heap.usefulGlobals().arrayMethodTable()).isNotZero();
            Map<Long, long[]> walker = walkerObjects(target);
            assertThat(fromDac.keySet()).as("addresses").containsExactlyElementsOf(walker.keySet());
            walker.forEach((address, row) -> assertThat(fromDac.get(address)).as("0x%x", address).containsExactly(row));
            Map<Long, long[]> live = liveObjects(REAL.resolve(folder));
            assertThat(live).isNotEmpty();
            // the snapshot's MethodTable of an object in the dump is what the DAC reads there (mark bits aside)
            live.forEach((address, row) -> {
                if (fromDac.containsKey(address)) {
                    assertThat(fromDac.get(address)[0]).as("MethodTable of 0x%x", address).isEqualTo(row[0]);
                }
            });
            assertThat(fromDac.keySet()).as("live objects the DAC found").containsAll(liveInGcHeap(live, heap));
        }
    }

    /** The live objects inside the GC heap's regions as the DAC reported them (frozen ones too). */
    private static java.util.List<Long> liveInGcHeap(Map<Long, long[]> live, DacHeap heap) {
        return live.keySet().stream().filter(a -> heap.heaps().stream().flatMap(h -> h.regions().stream()).anyMatch(r -> r.contains(a))).toList();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"net9-wks", "net9-svr", "net9-withheap"})
    void theDacsOwnHeapWalkerAgreesWithTheWalkerOnEveryObjectThatIsNotFree(String folder) throws Exception {
        Path core = REAL.resolve(folder).resolve("core.xz");
        try (ElfCore dump = ElfCore.open(core)) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(dump, dump.mappedFiles(), Optional.empty());
            long free = new HeapDiscovery(target).discover().freeMethodTable();
            Map<Long, long[]> fromDac = new TreeMap<>(Long::compareUnsigned);
            DacHeap heap = DacEngine.open(TestDac.path()).walk(core, target, DacWalkKind.HEAPWALK,
                    (address, mt, size, region) -> fromDac.put(address, new long[] {mt, size}), DacEngine.DEFAULT_TIMEOUT);

            assertThat(heap.failures()).isEmpty();
            Map<Long, long[]> expected = new TreeMap<>(Long::compareUnsigned);
            walkerObjects(target).forEach((address, row) -> {
                if (row[0] != free) {
                    expected.put(address, new long[] {row[0], (row[1] + 7) & -8L});
                }
            });
            assertThat(fromDac.keySet()).containsExactlyElementsOf(expected.keySet());
            expected.forEach((address, row) -> assertThat(fromDac.get(address)).as("0x%x", address).containsExactly(row));
            assertThat(fromDac.keySet()).containsAll(liveObjects(REAL.resolve(folder)).keySet().stream().filter(expected::containsKey).toList());
        }
    }
}
