package io.clrheap.golden.synthetic;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.module.Platform;
import io.clrheap.walker.source.FileTrees;
import io.clrheap.conformance.corpus.DumpDifference;
import io.clrheap.conformance.corpus.Changed;
import io.clrheap.conformance.corpus.CorpusIndex;
import io.clrheap.conformance.corpus.FileDifference;
import io.clrheap.conformance.corpus.FixtureOutcome;
import io.clrheap.conformance.corpus.GoldenCorpus;
import io.clrheap.conformance.corpus.GoldenFixture;
import io.clrheap.conformance.corpus.IndexRow;
import io.clrheap.conformance.corpus.ObjectTotals;
import io.clrheap.conformance.corpus.Removed;
import io.clrheap.conformance.corpus.Unchanged;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The committed synthetic golden corpus, golden/synthetic, is exactly what clrheap writes today: every fixture built
 * again is the committed one byte for byte (a Linux process's bundle, a Windows process's compressed minidump), every
 * built-in scenario on every runtime and GC flavour has one (and a Windows one on the runtimes with Windows layouts) and
 * nothing else is there, a Windows fixture's answer key is its Linux twin's, and corpus.tsv describes the files. When a
 * change is intended: ./clrheap golden --update.
 */
class GoldenCorpusTest {

    /** The module's folder is the working directory of its tests. */
    private static final Path CORPUS = Path.of("synthetic");
    private static final GoldenCorpus corpus = GoldenCorpus.builtIn(CORPUS);
    private static final String UPDATE = "If the change is intended, run ./clrheap golden --update, review the diff and commit golden/synthetic.";
    /** fixture.txt: {@code default on net8 (8.0.30), server GC, 2 heaps, seed 42: ...}. */
    private static final Pattern ABOUT = Pattern.compile("(\\S+) on (net[0-9]+) \\([^)]+\\), (server|workstation) GC, ([0-9]+) heaps?, seed (-?[0-9]+): .*");

    @TestFactory
    Stream<DynamicTest> everyCommittedFixtureIsWhatAFreshBuildWritesByteForByte() throws IOException {
        List<GoldenFixture> committed = corpus.committed();
        assertThat(committed).as("fixtures in %s", CORPUS.toAbsolutePath()).isNotEmpty();
        // the fixtures are built on every processor from the start; each dynamic test waits for its own
        ExecutorService pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(), r -> {
            Thread t = new Thread(r, "golden-corpus-test");
            t.setDaemon(true);
            return t;
        });
        Map<GoldenFixture, Future<FixtureOutcome>> outcomes = new LinkedHashMap<>();
        for (GoldenFixture f : committed) {
            outcomes.put(f, pool.submit(() -> rebuild(f)));
        }
        pool.shutdown();
        return committed.stream().map(f -> DynamicTest.dynamicTest(f.id(), () -> {
            FixtureOutcome outcome = outcomes.get(f).get();
            if (!(outcome instanceof Unchanged)) {
                Assertions.fail(explain(outcome));
            }
        }));
    }

    @Test
    void theLargeScenariosMadeForMeasurementsAreNotInTheCorpus() {
        // large and scale-64 would be hundreds of megabytes to gigabytes per fixture: they are built on demand only
        assertThat(io.clrheap.emulator.Scenarios.all()).extracting(io.clrheap.emulator.scenario.Scenario::name).contains("large", "scale-64");
        assertThat(corpus.fixtures()).extracting(GoldenFixture::name).doesNotContain("large", "scale-64").contains("default");
    }

    @Test
    void everyBuiltInScenarioOnEveryRuntimeAndGcFlavourHasAFixtureAndNothingElseIsThere() throws IOException {
        assertThat(corpus.committed()).as("the fixtures in %s (%s)", CORPUS.toAbsolutePath(), UPDATE).containsExactlyElementsOf(corpus.fixtures());
        assertThat(corpus.strays()).as("entries of %s that belong to no fixture (%s)", CORPUS.toAbsolutePath(), UPDATE).isEmpty();
        for (GoldenFixture f : corpus.fixtures()) {
            try (Stream<Path> files = Files.list(f.expected(CORPUS))) {
                assertThat(files.map(p -> p.getFileName().toString()).sorted()).as(f.id())
                        .containsExactlyElementsOf(GoldenCorpus.EXPECTED_FILES.stream().sorted().toList());
            }
        }
    }

    @Test
    void corpusTsvHasALinePerBundleThatAgreesWithItsFiles() throws Exception {
        Path file = CORPUS.resolve(CorpusIndex.NAME);
        List<IndexRow> rows = CorpusIndex.read(file);
        assertThat(Files.readString(file, StandardCharsets.UTF_8)).as("corpus.tsv is sorted and in its own format").isEqualTo(CorpusIndex.format(rows));
        assertThat(rows).extracting(IndexRow::path).containsExactlyElementsOf(corpus.committed().stream().map(GoldenFixture::path).toList());
        for (IndexRow row : rows) {
            GoldenFixture f = corpus.committed().stream().filter(c -> c.path().equals(row.path())).findFirst().orElseThrow();
            assertThat(row.sha256()).as("%s: sha256 of %s", row.path(), f.file(CORPUS)).isEqualTo(sha256(f.file(CORPUS)));
            assertThat(new ObjectTotals(row.objects(), row.bytes())).as("%s: objects and bytes (dumpheap-stat.txt's total)", row.path())
                    .isEqualTo(ObjectTotals.of(f.expected(CORPUS).resolve("dumpheap-stat.txt")));
            assertThat(List.of(row.runtime(), row.gc())).as("%s: runtime and GC flavour", row.path())
                    .containsExactly(f.runtime().orElseThrow().shortName(), f.gc().id());
            Matcher about = ABOUT.matcher(Files.readAllLines(f.expected(CORPUS).resolve("fixture.txt"), StandardCharsets.UTF_8).getFirst());
            assertThat(about.matches()).as("%s: fixture.txt", f.id()).isTrue();
            assertThat(List.of(about.group(1), about.group(2), about.group(3), about.group(4), about.group(5))).as("%s: fixture.txt says", row.path())
                    .containsExactly(f.name(), row.runtime(), row.gc(), Integer.toString(row.heaps()), Long.toString(row.seed()));
        }
    }

    @Test
    void theWindowsFixturesAreThoseOfTheBuildsWithWindowsLayoutsNet8AndNet10() {
        // .NET 9 has no Windows layout (there is no Windows .NET 9 process to take it from), so no Windows fixture
        assertThat(corpus.fixtures().stream().filter(f -> f.platform() == Platform.WINDOWS).map(GoldenFixture::folder).distinct().sorted())
                .containsExactly("net10-windows-server", "net10-windows-workstation", "net8-windows-server", "net8-windows-workstation");
        assertThat(corpus.fixtures()).filteredOn(f -> f.platform() == Platform.WINDOWS).extracting(GoldenFixture::linuxTwin)
                .allSatisfy(twin -> assertThat(corpus.fixtures()).contains(twin));
    }

    @Test
    void everyWindowsFixtureHasTheAnswerKeyOfItsLinuxTwin() throws IOException {
        // the Windows variant of a process holds its heaps at the Linux one's addresses: one answer key serves both, and
        // conform reads a Windows fixture's objects.tsv from its twin's bundle
        List<GoldenFixture> windows = corpus.committed().stream().filter(f -> f.platform() == Platform.WINDOWS).toList();
        assertThat(windows).as("Windows fixtures in %s", CORPUS.toAbsolutePath()).isNotEmpty();
        for (GoldenFixture f : windows) {
            for (String file : GoldenCorpus.EXPECTED_FILES) {
                assertThat(f.expected(CORPUS).resolve(file)).as("%s/%s", f.id(), file).hasSameBinaryContentAs(f.linuxTwin().expected(CORPUS).resolve(file));
            }
        }
    }

    /** Builds the fixture in a folder of its own and compares it with the committed one. */
    private static FixtureOutcome rebuild(GoldenFixture f) throws IOException {
        if (corpus.scenario(f).isEmpty()) {
            return new Removed(f, corpus.whyNot(f));
        }
        Path fresh = Files.createTempDirectory("golden-corpus-test-");
        try {
            corpus.write(f, fresh);
            return GoldenCorpus.compare(f, CORPUS, fresh);
        } finally {
            FileTrees.deleteTree(fresh);
        }
    }

    /** What differs, file by file, with the first differing byte or line, and what to do about it. */
    private static String explain(FixtureOutcome outcome) {
        StringBuilder s = new StringBuilder(outcome.fixture().id()).append(" in ").append(CORPUS.toAbsolutePath()).append(" is not what clrheap writes now:\n");
        switch (outcome) {
            case Changed c -> {
                c.dump().map(DumpDifference::describe).ifPresent(d -> s.append("  ").append(c.fixture().fileName()).append(": ").append(d).append('\n'));
                for (FileDifference d : c.files()) {
                    s.append("  ").append(c.fixture().expectedName()).append('/').append(d.detail().replace("\n", "\n  ")).append('\n');
                }
            }
            case Removed r -> s.append("  ").append(r.summary()).append('\n');
            default -> s.append("  ").append(outcome.summary()).append('\n');
        }
        return s.append(UPDATE).toString();
    }

    private static String sha256(Path file) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (InputStream in = Files.newInputStream(file)) {
            sha.update(in.readAllBytes());
        }
        return HexFormat.of().formatHex(sha.digest());
    }
}
