package io.clrheap.golden.emulated;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.Scenarios;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.walker.metadata.MethodTableNames;
import io.clrheap.walker.metadata.ModuleMetadata;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The emulated assemblies carry real ECMA-335 metadata: the walker's metadata reader, which names the real dumps'
 * types, names every type of every everyday built-in scenario on every runtime and GC from the process's memory
 * alone (MethodTable → Module → image → TypeDef), exactly as the answer key names it. Free objects have no type
 * (the free-object MethodTable has no Module, as in the real dumps): not asked. The large scenarios are left out as
 * everywhere (their types are the default's).
 */
class EmulatedTypeNamesTest {

    static Stream<Arguments> scenarios() {
        return Scenarios.everyday().stream().flatMap(s -> Stream.of(RuntimeVersion.values())
                .flatMap(v -> Stream.of(GcFlavor.values()).map(gc -> Arguments.of(s.name(), v, gc))));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("scenarios")
    void theMetadataReaderNamesEveryTypeAsTheAnswerKeyDoes(String name, RuntimeVersion version, GcFlavor gc) {
        Scenario scenario = Scenarios.named(name).orElseThrow().on(version, gc);
        EmulatedRuntime runtime = new RuntimeBuilder().build(scenario);
        MethodTableNames names = new MethodTableNames(runtime.memory(), runtime.layout());
        Map<Long, String> expected = new LinkedHashMap<>();
        Map<Long, String> actual = new LinkedHashMap<>();
        for (GroundTruth.TypeInfo t : runtime.groundTruth().types()) {
            if (t.kind() == GroundTruth.Kind.OBJECT) {
                expected.put(t.methodTable(), runtime.typeNames().get(t.methodTable()));
                var lookup = names.lookup(t.methodTable());
                actual.put(t.methodTable(), lookup.nameOrNull() != null ? lookup.nameOrNull() : "unnamed: " + lookup);
            }
        }
        assertThat(expected).isNotEmpty();
        assertThat(actual).as("names from metadata, modules %s", names.modules()).containsExactlyEntriesOf(expected);
        assertThat(names.modules()).as("every Module has its metadata").allMatch(m -> m.problem() == null)
                .extracting(ModuleMetadata::module).doesNotHaveDuplicates();
    }
}
