package io.clrheap.golden.dac;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.dac.DacEngine;
import io.clrheap.dac.TestDac;
import io.clrheap.dac.fields.DacFieldCheck;
import io.clrheap.dac.fields.FieldCheckReport;
import io.clrheap.emulator.Scenarios;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.generator.ClrheapVersion;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.generator.fixture.FixtureProgress;
import io.clrheap.generator.fixture.FixtureWriter;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.source.elf.ElfCore;
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
 * Microsoft's 9.0.1 DAC reads the emulated EEClasses and FieldDescs as the walker does: on the field scenarios of
 * .NET 9, server and workstation GC, GetMethodTableFieldData and GetFieldDescData agree with the walker on every field
 * (token, offset, element type, static-ness, enclosing class) of every MethodTable of the heap, whole instance-field
 * lists included, with no DAC call failing: the emulated metadata (Field rows, FIELD signatures) is what the DAC parses.
 */
@Execution(ExecutionMode.CONCURRENT) // each test mostly waits on the DAC's child process
class DacFieldsScenarioTest {

    static Stream<Arguments> fieldScenariosOnNet9() {
        return Stream.of("fields", "trap-base-fields", "trap-struct-field", "trap-packed-offset")
                .flatMap(s -> Stream.of(GcFlavor.SERVER, GcFlavor.WORKSTATION).map(gc -> Arguments.of(s, gc)));
    }

    @ParameterizedTest(name = "{0} net9 {1}")
    @MethodSource("fieldScenariosOnNet9")
    void theDacReadsEveryEmulatedFieldAsTheWalkerDoes(String name, GcFlavor gc, @TempDir Path dir) throws Exception {
        Scenario scenario = Scenarios.named(name).orElseThrow().on(RuntimeVersion.NET9, gc);
        FixtureWriter.write(scenario, EnumSet.of(FixtureFormat.ELF), dir, ClrheapVersion.current(), FixtureProgress.NONE);
        Path core = dir.resolve(name + FixtureFormat.ELF.suffix());
        try (ElfCore dump = ElfCore.open(core)) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(dump, dump.mappedFiles(), Optional.empty());
            FieldCheckReport report = new DacFieldCheck(DacEngine.open(TestDac.path())).check(core, target, DacEngine.DEFAULT_TIMEOUT);
            assertThat(report.dacFailures()).as(report.summary()).isEmpty();
            assertThat(report.unreadable()).as(report.summary()).isEmpty();
            assertThat(report.differences()).as(report.summary()).isEmpty();
            assertThat(report.fields()).as(report.summary()).isGreaterThan(5);
            assertThat(report.instanceChains()).as(report.summary()).isEqualTo(report.methodTables());
        }
    }
}
