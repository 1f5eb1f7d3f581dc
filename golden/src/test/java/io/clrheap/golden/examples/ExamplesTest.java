package io.clrheap.golden.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.generator.ExternalTool;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runnable examples of docs/fixtures.md and docs/library.md, each run as a user runs it, with what it prints checked. */
class ExamplesTest {

    private final StringWriter printed = new StringWriter();
    private final PrintWriter out = new PrintWriter(printed, true);

    @Test
    void buildAndWalkFindsEveryObjectBuiltAndPrintsTheStatWithTheUserType() throws Exception {
        assertThat(BuildAndWalk.run(out)).as(printed.toString()).isTrue();
        assertThat(printed.toString()).contains("Shop.Order", "Total ").containsPattern("built ([\\d,]+) objects; the walker found \\1 in");
    }

    @Test
    void writeDumpAndOpenInGdbReadsTheSameMethodTablesInGdb(@TempDir Path dir) throws Exception {
        ExternalTool.GDB.require();
        assertThat(WriteDumpAndOpenInGdb.run(out, dir.resolve("example.core"))).as(printed.toString()).isTrue();
        assertThat(printed.toString()).contains("gdb says:").doesNotContain("NOT what gdb read");
        assertThat(printed.toString().lines().filter(l -> l.endsWith("as gdb read it"))).hasSize(3);
    }

    @Test
    void walkRealDumpPrintsTheBiggestTypesOfARealNet8Process() throws Exception {
        // tests run in the golden module's folder, where the real dumps are
        Path core = Path.of("real", "net8-svr", "core.xz");
        assertThat(WalkRealDump.run(out, core, core.resolveSibling("live-objects.txt"), 5)).as(printed.toString()).isTrue();
        List<String> lines = printed.toString().lines().toList();
        assertThat(lines.get(0)).contains(".NET 8.0.30", "server GC");
        assertThat(lines).anyMatch(l -> l.startsWith("Total ")).contains("0 problems");
        assertThat(printed.toString()).contains("System.Byte[]", "Node");
    }

    @Test
    void insideObjectsPrintsTheLargestStringsTextsAndADictionarysCountAndKeys() throws Exception {
        assertThat(InsideObjects.run(out, Path.of("real", "net8-svr", "core.xz"))).as(printed.toString()).isTrue();
        List<String> lines = printed.toString().lines().toList();
        assertThat(lines.getFirst()).isEqualTo("The ten largest strings:");
        assertThat(lines.subList(1, 11)).allMatch(l -> l.matches(" +[0-9,]+ bytes  .*"));
        assertThat(printed.toString()).containsPattern("Dictionary`2\\[.* at 0x[0-9a-f]+: _count = [0-9]+\n")
                .containsPattern("\n  \\[0\\] key \"[^\"]+\"\n");
    }

    @Test
    void inProcessWalkShowsTheArticlesWalkMissesGen0AndTheCompletePathDoesNot() throws Exception {
        assertThat(InProcessWalk.run(out)).as(printed.toString()).isTrue();
        String text = printed.toString();
        assertThat(text).containsPattern("gc_reserved_1 = GCHeap 0x[0-9a-f]+ -> vtable 0x[0-9a-f]+ -> slot 69 = 0x");
        var article = java.util.regex.Pattern.compile("the article's walk: ([\\d,]+) of the ([\\d,]+) objects built").matcher(text);
        assertThat(article.find()).isTrue();
        assertThat(Long.parseLong(article.group(1).replace(",", ""))).isLessThan(Long.parseLong(article.group(2).replace(",", "")));
        assertThat(text).containsPattern("in-process discovery \\+ the walk \\(Dumps.of with native calls\\): ([\\d,]+) of the \\1 objects built");
    }

    @Test
    void printStatPrintsTheCommittedDumpheapStatOfEveryRealDumpThatHasItsModule() throws Exception {
        // tests run in the golden module's folder; net8-nomodule needs the runtime binary (walk --module), which the example does not take
        for (String name : List.of("net8-svr", "net9-wks", "net9-svr", "net9-withheap", "net10-svr", "net10-compact", "net10-small")) {
            Path folder = Path.of("real", name);
            StringWriter text = new StringWriter();
            PrintStat.run(new PrintWriter(text, true), folder.resolve("core.xz"), folder.resolve("live-objects.txt"));
            assertThat(text.toString().replace(System.lineSeparator(), "\n")).as(name)
                    .isEqualTo(Files.readString(folder.resolve("expected/dumpheap-stat.txt")));
        }
    }

    @Test
    void theReadmesLibrarySectionIsThePrintStatExampleAsWritten() throws Exception {
        String source = Files.readString(Path.of("src/main/java/io/clrheap/golden/examples/PrintStat.java"));
        String readme = Files.readString(Path.of("../docs/library.md"));
        assertThat(readme).as("docs/library.md shows PrintStat.java verbatim").contains("```java\n" + source + "```\n");
    }

    @Test
    void whoRefersToPrintsTheMostReferredToObjectsReferencesAndReferrersAsTheRuntimeListedThem() throws Exception {
        Path folder = Path.of("real", "net8-svr");
        WhoRefersTo.run(out, folder.resolve("core.xz"), 0);
        List<String> lines = printed.toString().lines().toList();
        Matcher header = Pattern.compile("(0x[0-9a-f]+) .*: (\\d+) references, (\\d+) referrers").matcher(lines.getFirst());
        assertThat(header.matches()).as(lines.getFirst()).isTrue();
        String object = header.group(1);
        // the runtime's own edges (GCBulkEdge), "0xSRC: 0xTARGET 0xTARGET …", which the walker's equal (RealDumpReferencesTest)
        List<List<String>> edges = Files.readAllLines(folder.resolve("refs.txt")).stream().filter(l -> l.startsWith("0x"))
                .map(l -> List.of(l.split(":? "))).toList();
        List<String> itsTargets = edges.stream().filter(e -> e.getFirst().equals(object)).flatMap(e -> e.stream().skip(1)).toList();
        Map<String, Long> referredTo = edges.stream().flatMap(e -> e.stream().skip(1)).collect(Collectors.groupingBy(t -> t, Collectors.counting()));

        assertThat(Long.parseLong(header.group(3))).isEqualTo(referredTo.get(object)).isEqualTo(Collections.max(referredTo.values()));
        assertThat(Integer.parseInt(header.group(2))).isEqualTo(itsTargets.size());
        assertThat(lines.stream().filter(l -> l.startsWith("  refers to")).map(l -> l.split(" +")[3])).containsExactlyElementsOf(itsTargets);
        assertThat(lines.stream().filter(l -> l.startsWith("  referred to by")).map(l -> l.split(" +")[4]))
                .hasSize((int) Math.min(10, referredTo.get(object)))
                .allMatch(source -> edges.stream().anyMatch(e -> e.getFirst().equals(source) && e.subList(1, e.size()).contains(object)));
        assertThat(lines).anyMatch(l -> l.startsWith("kept alive by RootPath[Root[kind=") && l.endsWith(object + "]"));
    }

    @Test
    void theLibraryPagesGraphExampleIsWhoRefersToAsWritten() throws Exception {
        String source = Files.readString(Path.of("src/main/java/io/clrheap/golden/examples/WhoRefersTo.java"));
        String readme = Files.readString(Path.of("../docs/library.md"));
        assertThat(readme).as("docs/library.md shows WhoRefersTo.java verbatim").contains("```java\n" + source + "```\n");
    }

    @Test
    void checkYourWalkerPassesTheProjectsOwnWalkerOnTheTrapFixtures(@TempDir Path dir) throws Exception {
        assertThat(CheckYourWalker.run(out, List.of("naive-plain", "trap-frozen", "trap-live-context"), dir)).as(printed.toString()).isTrue();
        assertThat(printed.toString()).contains("PASS naive-plain", "PASS trap-frozen", "3 of 3 fixtures passed");
    }
}
