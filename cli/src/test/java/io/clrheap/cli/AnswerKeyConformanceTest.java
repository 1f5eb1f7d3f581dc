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
        List<Path> written = GenerateCommand.generate(scenario, EnumSet.allOf(FixtureFormat.class), dir, null);
        Path answer = dir.resolve(name + ".answer");
        String expectedStat = Files.readString(answer.resolve("dumpheap-stat.txt"));
        List<String> expectedRegions = Files.readAllLines(answer.resolve("regions.tsv")).stream().skip(1)
                .map(l -> String.join(" ", l.split("\t")[0], l.split("\t")[1], l.split("\t")[4], l.split("\t")[5])).toList();
        List<String> expectedHandles = Files.readAllLines(answer.resolve("gchandles.txt")).stream()
                .filter(l -> l.startsWith("0x")).toList();
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

                // handles: every one the walker finds, as gchandles.txt lists them
                var handles = dump.handleTables();
                assertThat(handles.problems()).isEmpty();
                List<String> found = handles.handles().stream()
                        .map(h -> String.format("0x%012x %-10s 0x%012x 0x%x", h.handle(), h.typeName(), h.target(), h.secondary())).toList();
                assertThat(found).as("%s: handles", file.getFileName()).containsExactlyElementsOf(expectedHandles);

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
        assertThat(dumps).isEqualTo(FixtureFormat.values().length);
    }
}
