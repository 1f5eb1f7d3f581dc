package io.clrheap.cli;

import io.clrheap.walker.Dumps;
import io.clrheap.walker.DumpSession;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.Scenarios;
import io.clrheap.generator.answer.AnswerKeyCheck;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.report.DumpHeapStat;
import io.clrheap.walker.runtime.Target;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * For every built-in scenario × runtime × GC flavour: the files {@code generate} writes, walked by the walker, give
 * exactly the answer key written from the ground truth — its objects, their type names read from the dump's metadata
 * alone, every reference (references.tsv) and the live set (live.tsv), its {@code dumpheap -stat} text, its regions,
 * its handles and its threads' allocation contexts.
 */
class AnswerKeyConformanceTest {

    @TempDir
    Path dir;

    static Stream<Arguments> scenarios() {
        return Scenarios.everyday().stream().flatMap(s -> Stream.of(RuntimeVersion.values())
                .flatMap(v -> Stream.of(GcFlavor.values()).map(gc -> Arguments.of(s.name(), v, gc))));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("scenarios")
    void everyWrittenFileWalksToItsAnswerKey(String name, RuntimeVersion version, GcFlavor gc) throws Exception {
        Scenario scenario = Scenarios.named(name).orElseThrow().on(version, gc);
        // a minidump is a Windows process: only of the builds clrheap has Windows layouts of (not .NET 9)
        boolean minidump = io.clrheap.generator.fixture.FixtureWriter.minidumpRefusal(scenario).isEmpty();
        assertThat(minidump).isEqualTo(version != RuntimeVersion.NET9);
        EnumSet<FixtureFormat> formats = EnumSet.allOf(FixtureFormat.class);
        if (!minidump) {
            formats.remove(FixtureFormat.MINIDUMP);
        }
        List<Path> written = GenerateCommand.generate(scenario, formats, dir, null);
        Path answer = dir.resolve(io.clrheap.generator.fixture.FixtureName.of(scenario) + ".answer");
        String expectedStat = Files.readString(answer.resolve("dumpheap-stat.txt"));
        List<String> expectedRegions = Files.readAllLines(answer.resolve("regions.tsv")).stream().skip(1)
                .map(l -> String.join(" ", l.split("\t")[0], l.split("\t")[1], l.split("\t")[4], l.split("\t")[5])).toList();
        List<String[]> expectedThreads = Files.readAllLines(answer.resolve("threads.tsv")).stream().skip(1).map(l -> l.split("\t")).toList();
        int dumps = 0;
        for (Path file : written) {
            if (Files.isDirectory(file)) {
                continue;
            }
            dumps++;
            try (DumpSession dump = Dumps.open(file)) {
                Target target = dump.target();
                DiscoveredHeap heap = dump.heap();
                AnswerKeyCheck.Result result = AnswerKeyCheck.check(dump, answer);
                assertThat(result.first()).as("%s: differences", file.getFileName()).isEmpty();
                assertThat(result.names()).as("%s: type names from metadata", file.getFileName()).isZero();
                assertThat(result.graph()).as("%s: references and live set", file.getFileName()).isZero();
                assertThat(Files.readAllLines(answer.resolve("references.tsv"))).as("the key has references").hasSizeGreaterThan(1);
                assertThat(result.agrees()).isTrue();

                DumpHeapStat stat = new DumpHeapStat();
                dump.walk(stat);
                StringWriter text = new StringWriter();
                try (PrintWriter out = new PrintWriter(text)) {
                    stat.print(out, dump.typeNames(), heap.freeMethodTable());
                }
                assertThat(text.toString().replace(System.lineSeparator(), "\n")).as("%s: dumpheap -stat", file.getFileName()).isEqualTo(expectedStat);

                // handles: every slot read without a problem
                assertThat(dump.handleTables().problems()).isEmpty();

                // threads: each thread's allocation context, as threads.tsv lists it
                for (String[] t : expectedThreads) {
                    long location = Long.parseUnsignedLong(t[4].substring(2), 16);
                    long pointer = Long.parseUnsignedLong(t[5].substring(2), 16);
                    long limit = Long.parseUnsignedLong(t[6].substring(2), 16);
                    assertThat(heap.contexts()).as("%s: thread %s's context", file.getFileName(), t[0])
                            .anyMatch(c -> c.location() == location && c.pointer() == pointer && c.limit() == limit && c.owner().contains("tid " + t[1]));
                }

                List<String> regions = heap.regionsByAddress().stream()
                        .map(r -> String.format("%d %s 0x%x 0x%x", r.heap(), r.kind().id(), r.mem(), r.end())).toList();
                assertThat(regions).as("%s: regions", file.getFileName()).containsExactlyElementsOf(expectedRegions);
            }
        }
        assertThat(dumps).isEqualTo(formats.size());
    }

    /**
     * One format per report (docs/reports.md): what {@code walk} prints for --stat, --objects, --eeheap and --handles is,
     * byte for byte, the answer key's dumpheap-stat.txt, objects.tsv, eeheap.txt and gchandles.txt.
     */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("scenarios")
    void walkPrintsTheAnswerKeysFiles(String name, RuntimeVersion version, GcFlavor gc) throws Exception {
        Scenario scenario = Scenarios.named(name).orElseThrow().on(version, gc);
        List<Path> written = GenerateCommand.generate(scenario, EnumSet.of(FixtureFormat.BUNDLE), dir, null);
        Path answer = dir.resolve(io.clrheap.generator.fixture.FixtureName.of(scenario) + ".answer");
        Path bundle = written.stream().filter(p -> !Files.isDirectory(p)).findFirst().orElseThrow();
        for (String[] report : new String[][] {{"--stat", "dumpheap-stat.txt"}, {"--objects", "objects.tsv"}, {"--eeheap", "eeheap.txt"},
            {"--handles", "gchandles.txt"}}) {
            ClrheapCommand.Outcome walk = ClrheapCommand.run("walk", bundle.toString(), report[0]);
            assertThat(walk.exitCode()).as("walk %s: %s", report[0], walk.err()).isZero();
            assertThat(walk.out()).as("walk %s = %s", report[0], report[1]).isEqualTo(Files.readString(answer.resolve(report[1])));
        }
    }
}
