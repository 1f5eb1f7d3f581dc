package io.clrheap.golden.dac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.dac.DacEngine;
import io.clrheap.dac.library.DacException;
import io.clrheap.dac.walk.DacWalkKind;
import io.clrheap.dac.TestDac;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.Scenarios;
import io.clrheap.generator.ClrheapVersion;
import io.clrheap.generator.answer.DacAnswerKeyCheck;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.generator.fixture.FixtureProgress;
import io.clrheap.generator.fixture.FixtureWriter;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.source.bundle.Bundle;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Microsoft's real 9.0.1 DAC reads every built-in everyday scenario the emulator builds for .NET 9, server and
 * workstation GC, from the ELF core and from the bundle, exactly as the answer key says: the SOS path (ISOSDacInterface,
 * GetObjectData object by object) lists every object and free object with its MethodTable and size and nothing else;
 * the DAC's own heap walker (IDacDbiInterface::WalkHeap) every object, sizes rounded up to 8; GetUsefulGlobals names
 * all four class MethodTables; no DAC call fails, and GetMethodTableName (which SOS asks of every type) names every
 * MethodTable as the answer key does, from the emulated assemblies' metadata; except {@link #HEAP_WALKER_LIMITS}. (The 5.2 M-object {@code large}
 * scenario is walked by the DAC benchmark.)
 */
@Execution(ExecutionMode.CONCURRENT) // each test mostly waits on the DAC's child processes
class DacScenarioTest {

    /**
     * The scenarios the DAC's own heap walker cannot walk, and how it fails (the SOS path walks them exactly). Each holds
     * an allocation context with nothing allocated in it that starts where the DAC's walker lands: at a region's first
     * object, or right after another context's limit + the minimum object size (contexts the GC hands out are adjacent,
     * gc.cpp adjust_limit_clr; the walker jumps over one context and does not look for another where it lands).
     * Asserted, so that a change in either the emulator or the DAC shows.
     */
    static final Map<String, String> HEAP_WALKER_LIMITS = Map.of(
            "context-at-region-start", "WalkHeap", "chained-contexts", "WalkHeap", "global-context", "WalkHeap", "every-edge", "WalkHeap");

    static Stream<Arguments> everydayScenariosOnNet9() {
        return Scenarios.everyday().stream().flatMap(s -> Stream.of(GcFlavor.SERVER, GcFlavor.WORKSTATION).map(gc -> Arguments.of(s.name(), gc)));
    }

    @ParameterizedTest(name = "{0} net9 {1}")
    @MethodSource("everydayScenariosOnNet9")
    void bothDacWalksOfTheCoreAndTheBundleEqualTheAnswerKey(String name, GcFlavor gc, @TempDir Path dir) throws Exception {
        bothDacWalksEqualTheAnswerKey(Scenarios.named(name).orElseThrow().on(RuntimeVersion.NET9, gc), dir);
    }

    /**
     * The everyday scenarios read on the segments GC besides its own: each kind of heap the layout changes for (the
     * ephemeral segment split by collections and by gen1 placed after gen0, LOH segments holding a huge object, frozen
     * segments, contexts of every kind, typed fields, the object graph, four and one server heaps). The others differ
     * from these in what regions hold alone; {@code generate --check-dac} reads any of them (all 88 were, once).
     */
    static final java.util.List<String> SEGMENTS_SAMPLE = java.util.List.of("default", "collected", "user-types", "type-names", "object-graph",
            "fields", "frozen-segments", "huge-loh", "chained-contexts", "global-context", "exhausted-context", "four-heaps", "datas-one-heap");

    /**
     * Issue 31: the standalone segments GC's processes (libclrgc.so), as the golden corpus holds them (net9-segments-*):
     * its own scenarios and {@link #SEGMENTS_SAMPLE}.
     */
    static Stream<Arguments> segmentsScenariosOnNet9() {
        return Scenarios.corpus().stream().filter(s -> s.gcMode() == io.clrheap.emulator.scenario.GcMode.SEGMENTS || SEGMENTS_SAMPLE.contains(s.name()))
                .flatMap(s -> Stream.of(GcFlavor.SERVER, GcFlavor.WORKSTATION).map(gc -> Arguments.of(s.name(), gc)));
    }

    @org.junit.jupiter.api.Test
    void theSegmentsSampleNamesEverydayScenariosThatRunOnTheSegmentsGc() {
        assertThat(SEGMENTS_SAMPLE).allSatisfy(name -> assertThat(Scenarios.everyday()).as(name)
                .anySatisfy(s -> assertThat(s.name().equals(name) && Scenarios.runsOnSegments(s)).isTrue()));
    }

    @ParameterizedTest(name = "{0} net9 {1} segments")
    @MethodSource("segmentsScenariosOnNet9")
    void bothDacWalksOfASegmentsGcProcessEqualTheAnswerKey(String name, GcFlavor gc, @TempDir Path dir) throws Exception {
        bothDacWalksEqualTheAnswerKey(Scenarios.named(name).orElseThrow().on(RuntimeVersion.NET9, gc).toBuilder()
                .gcMode(io.clrheap.emulator.scenario.GcMode.SEGMENTS).build(), dir);
    }

    private static void bothDacWalksEqualTheAnswerKey(Scenario scenario, Path dir) throws Exception {
        String name = scenario.name();
        FixtureWriter.write(scenario, EnumSet.of(FixtureFormat.ELF, FixtureFormat.BUNDLE), dir, ClrheapVersion.current(), FixtureProgress.NONE);
        Path answer = dir.resolve(name + ".answer");
        DacEngine dac = DacEngine.open(TestDac.path());
        Path core = dir.resolve(name + FixtureFormat.ELF.suffix());
        try (ElfCore dump = ElfCore.open(core)) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(dump, dump.mappedFiles(), Optional.empty());
            check(dac, core, target, answer, "ELF core", name);
        }
        Path bundlePath = dir.resolve(name + FixtureFormat.BUNDLE.suffix());
        try (Bundle bundle = Bundle.open(bundlePath)) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(bundle, bundle.mappedFiles(), Optional.empty());
            check(dac, bundlePath, target, answer, "bundle", name);
        }
    }

    /** MethodTable → type name, as the answer key's objects.tsv names them ({@code Free} for the free-object MethodTable). */
    static Map<Long, String> answerKeyNames(Path answer) throws java.io.IOException {
        Map<Long, String> names = new java.util.HashMap<>();
        try (var lines = java.nio.file.Files.lines(answer.resolve("objects.tsv"))) {
            lines.skip(1).forEach(line -> {
                String[] f = line.split("\t", -1);
                names.putIfAbsent(Long.parseUnsignedLong(f[1].substring(2), 16), f[6]);
            });
        }
        return names;
    }

    private static void check(DacEngine dac, Path dump, Target target, Path answer, String format, String scenario) throws Exception {
        for (DacWalkKind kind : DacWalkKind.values()) {
            if (kind == DacWalkKind.HEAPWALK && HEAP_WALKER_LIMITS.containsKey(scenario)) {
                assertThatThrownBy(() -> DacAnswerKeyCheck.check(dac, dump, target, kind, answer, DacEngine.DEFAULT_TIMEOUT))
                        .as("%s: the DAC's heap walker fails on %s", format, scenario)
                        .isInstanceOf(DacException.class).hasMessageContaining(HEAP_WALKER_LIMITS.get(scenario));
                continue;
            }
            DacAnswerKeyCheck.Outcome o = DacAnswerKeyCheck.check(dac, dump, target, kind, answer, DacEngine.DEFAULT_TIMEOUT);
            assertThat(o.heap().failures()).as("%s %s: failed DAC calls", format, kind).isEmpty();
            // SOS's dumpheap asks every type's name: the DAC reads it from the emulated assemblies' metadata
            assertThat(o.heap().namesCrash()).as("%s %s: GetMethodTableName", format, kind).isEmpty();
            if (kind == DacWalkKind.SOS) {
                assertThat(o.heap().typeNames()).as("%s: GetMethodTableName of every MethodTable", format)
                        .containsExactlyInAnyOrderEntriesOf(answerKeyNames(answer));
            }
            assertThat(o.agrees()).as("%s %s: %s", format, kind, o.result()).isTrue();
            assertThat(o.result().objects()).as("%s %s", format, kind).isPositive();
        }
    }
}
