package io.clrheap.golden.dac;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.dac.DacEngine;
import io.clrheap.dac.DacWalkKind;
import io.clrheap.dac.TestDac;
import io.clrheap.emulator.Scenario;
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
import io.clrheap.walker.target.Target;
import io.clrheap.walker.target.TargetOpener;
import java.nio.file.Path;
import java.util.EnumSet;
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
 * all four class MethodTables; no DAC call fails. (The 5.2 M-object {@code large} scenario is walked by the DAC benchmark.)
 */
@Execution(ExecutionMode.CONCURRENT)
class DacScenarioTest {

    static Stream<Arguments> everydayScenariosOnNet9() {
        return Scenarios.everyday().stream().flatMap(s -> Stream.of(GcFlavor.SERVER, GcFlavor.WORKSTATION).map(gc -> Arguments.of(s.name(), gc)));
    }

    @ParameterizedTest(name = "{0} net9 {1}")
    @MethodSource("everydayScenariosOnNet9")
    void bothDacWalksOfTheCoreAndTheBundleEqualTheAnswerKey(String name, GcFlavor gc, @TempDir Path dir) throws Exception {
        Scenario scenario = Scenarios.named(name).orElseThrow().on(RuntimeVersion.NET9, gc);
        FixtureWriter.write(scenario, EnumSet.of(FixtureFormat.ELF, FixtureFormat.BUNDLE), dir, ClrheapVersion.current(), FixtureProgress.NONE);
        Path answer = dir.resolve(name + ".answer");
        DacEngine dac = DacEngine.open(TestDac.path());
        Path core = dir.resolve(name + FixtureFormat.ELF.suffix());
        try (ElfCore dump = ElfCore.open(core)) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(dump, dump.mappedFiles(), Optional.empty());
            check(dac, core, target, answer, "ELF core");
        }
        Path bundlePath = dir.resolve(name + FixtureFormat.BUNDLE.suffix());
        try (Bundle bundle = Bundle.open(bundlePath)) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(bundle, bundle.mappedFiles(), Optional.empty());
            check(dac, bundlePath, target, answer, "bundle");
        }
    }

    private static void check(DacEngine dac, Path dump, Target target, Path answer, String format) throws Exception {
        for (DacWalkKind kind : DacWalkKind.values()) {
            DacAnswerKeyCheck.Outcome o = DacAnswerKeyCheck.check(dac, dump, target, kind, answer, DacEngine.DEFAULT_TIMEOUT);
            assertThat(o.heap().failures()).as("%s %s: failed DAC calls", format, kind).isEmpty();
            assertThat(o.agrees()).as("%s %s: %s", format, kind, o.result()).isTrue();
            assertThat(o.result().objects()).as("%s %s", format, kind).isPositive();
        }
    }
}
