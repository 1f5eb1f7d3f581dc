package io.clrheap.dac.fields;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.dac.DacEngine;
import io.clrheap.dac.TestDac;
import io.clrheap.dac.com.Hresult;
import io.clrheap.dac.sos.FieldDescData;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.source.elf.MappedFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Microsoft's 9.0.1 DAC referees the walker's fields on the real 9.0.1 dumps: every MethodTable of the heap and its
 * parents, every FieldDesc the DAC lists as SOS's DisplayFields does, agree with FieldDescReader.
 */
class RealDumpDacFieldsTest {

    private static final Path REAL = Path.of("../golden/real");
    private static final Pattern FAILED_READ = Pattern.compile("at 0x([0-9a-f]+)");

    private static Target open(ElfCore dump) throws Exception {
        return new TargetOpener(ProfileLoader.builtIn()).open(dump, dump.mappedFiles(), Optional.empty());
    }

    private static void print(String folder, FieldCheckReport report) {
        System.err.println(folder + ": " + report.summary());
        report.differences().stream().limit(50).forEach(d -> System.err.println("  " + d));
        report.dacFailures().stream().limit(20).forEach(f -> System.err.println("  DAC: " + f));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"net9-wks", "net9-svr", "net9-withheap"})
    void theDacAndTheWalkerAgreeOnEveryFieldOfEveryMethodTableOfTheHeap(String folder) throws Exception {
        Path core = REAL.resolve(folder).resolve("core.xz");
        Path images = TestDac.images(TestDac.Build.NET_9_0_1);
        try (ElfCore dump = ElfCore.open(core)) {
            Target target = open(dump);

            // net9-wks and net9-svr are trimmed of the module images the DAC reads field signatures from: it finds
            // them in the package the dumped application ran from
            FieldCheckReport report = new DacFieldCheck(DacEngine.open(TestDac.path()), List.of(images)).check(core, target, DacEngine.DEFAULT_TIMEOUT);

            print(folder, report);
            assertThat(report.differences()).as("differences").isEmpty();
            assertThat(report.methodTables()).as("MethodTables compared").isGreaterThan(100);
            assertThat(report.fields()).as("fields compared").isGreaterThan(400);
            assertThat(report.instanceChains()).as("instance-field chains compared").isGreaterThan(report.methodTables() * 9 / 10);
            assertThat(report.unreadable()).as("MethodTables the DAC could not list").hasSizeLessThan(report.methodTables() / 20);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"net9-wks", "net9-svr"})
    void whatTheDacCannotListLiesInAnAssemblyNeitherTheDumpNorTheImageFolderHolds(String folder) throws Exception {
        Path core = REAL.resolve(folder).resolve("core.xz");
        Path images = TestDac.images(TestDac.Build.NET_9_0_1);
        try (ElfCore dump = ElfCore.open(core)) {
            Target target = open(dump);
            DacFieldList dac = new DacFieldList();

            DacEngine.open(TestDac.path()).listFields(core, target, DacFieldCheck.heapMethodTables(target), List.of(images), dac, DacEngine.DEFAULT_TIMEOUT);

            assertThat(dac.failures()).isNotEmpty().allSatisfy(f -> {
                assertThat(f.call()).isEqualTo("GetFieldDescData");
                assertThat(f.hresult()).isEqualTo(Hresult.CORDBG_E_READVIRTUAL_FAILURE);
            });
            assertThat(dac.firstFailedReads()).isNotEmpty().allSatisfy(read -> {
                Matcher m = FAILED_READ.matcher(read);
                assertThat(m.find()).as(read).isTrue();
                long address = Long.parseUnsignedLong(m.group(1), 16);
                MappedFile mapping = dump.mappedFiles().stream()
                        .filter(f -> Long.compareUnsigned(address, f.start()) >= 0 && Long.compareUnsigned(address, f.end()) < 0)
                        .findFirst().orElseThrow(() -> new AssertionError(read + " is in no file mapping"));
                assertThat(mapping.path()).endsWith(".dll");
                assertThat(images.resolve(Path.of(mapping.path()).getFileName())).as(mapping.path()).doesNotExist();
            });
        }
    }

    @Test
    void aDumpWithItsImagesNeedsNoImageFolderAndLeavesNothingUnread() throws Exception {
        Path core = REAL.resolve("net9-withheap").resolve("core.xz");
        try (ElfCore dump = ElfCore.open(core)) {
            Target target = open(dump);

            FieldCheckReport report = new DacFieldCheck(DacEngine.open(TestDac.path())).check(core, target, DacEngine.DEFAULT_TIMEOUT);

            assertThat(report.dacFailures()).isEmpty();
            assertThat(report.unreadable()).isEmpty();
            assertThat(report.differences()).isEmpty();
            assertThat(report.instanceChains()).isEqualTo(report.methodTables());
        }
    }

    @Test
    void anOffsetTheDacGivesOtherwiseIsReportedWithItsMethodTableAndToken() throws Exception {
        Path core = REAL.resolve("net9-withheap").resolve("core.xz");
        try (ElfCore dump = ElfCore.open(core)) {
            Target target = open(dump);
            List<Long> methodTables = DacFieldCheck.heapMethodTables(target);
            DacFieldList real = new DacFieldList();
            DacEngine.open(TestDac.path()).listFields(core, target, methodTables, List.of(), real, DacEngine.DEFAULT_TIMEOUT);
            long chosen = methodTables.stream().filter(mt -> real.listing(mt).orElseThrow().fields().stream().anyMatch(f -> !f.data().isStatic()))
                    .findFirst().orElseThrow();
            DacFieldList.Field moved = real.listing(chosen).orElseThrow().fields().stream().filter(f -> !f.data().isStatic()).findFirst().orElseThrow();
            DacFieldList altered = new DacFieldList();
            for (long mt : methodTables) {
                DacFieldList.Listing l = real.listing(mt).orElseThrow();
                altered.methodTableFields(mt, l.data(), l.counts(), l.parentInstanceFields());
                for (DacFieldList.Field f : l.fields()) {
                    FieldDescData d = f.data();
                    altered.fieldDesc(mt, f.address(), f == moved ? new FieldDescData(d.type(), d.sigType(), d.methodTableOfType(), d.moduleOfType(),
                            d.tokenOfType(), d.token(), d.enclosingClass(), d.offset() + 8, d.isThreadLocal(), d.isContextLocal(), d.isStatic(),
                            d.nextField()) : d);
                }
            }

            FieldCheckReport report = DacFieldCheck.compare(target, methodTables, altered, Duration.ZERO, Duration.ZERO);

            assertThat(report.differences()).extracting(FieldDifference::methodTable, FieldDifference::token, FieldDifference::what)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(chosen, moved.data().token(), "offset"));
        }
    }
}
