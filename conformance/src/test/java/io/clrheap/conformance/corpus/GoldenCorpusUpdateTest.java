package io.clrheap.conformance.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.Scenarios;
import io.clrheap.conformance.FixtureGlob;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.generator.fixture.FixtureProgress;
import io.clrheap.generator.fixture.FixtureWriter;
import io.clrheap.walker.source.FileTrees;
import java.util.EnumSet;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A golden corpus compared with fresh builds and updated: what is reported for a changed expected file, a changed
 * bundle or minidump, a new and a gone scenario, a missing Windows fixture, stray files, and a run limited by a glob.
 * Each test works on a copy of one small corpus (two scenarios × 3 runtimes × 2 GC flavours as Linux processes, and
 * × 2 runtimes × 2 GC flavours as Windows ones: 20 fixtures), written once.
 */
class GoldenCorpusUpdateTest {

    /** A heap of a few dozen objects: quick to build, still every generation, a handle of each kind. */
    private static final Scenario TINY = Scenario.builder("tiny").description("a few objects in every generation")
            .runtime(RuntimeVersion.NET8).gc(GcFlavor.SERVER).heaps(2).threads(2).objects(20, 10, 10, 1, 1).frozenStrings(2).handlesPerKind(1).seed(3)
            .build();
    private static final Scenario MIN_OBJECT = Scenarios.named("min-object").orElseThrow();
    private static final GoldenFixture NET8_TINY = GoldenFixture.of("tiny", RuntimeVersion.NET8, GcFlavor.SERVER);
    private static final GoldenFixture NET8_WINDOWS_TINY = GoldenFixture.of("tiny", RuntimeVersion.NET8, Platform.WINDOWS, GcFlavor.SERVER);

    @TempDir
    static Path base;

    @TempDir
    Path dir;

    @BeforeAll
    static void aCorpusOfTwoScenarios() throws IOException {
        CorpusReport written = corpus(base, TINY, MIN_OBJECT).update(FixtureGlob.ALL, CorpusListener.NONE);
        assertThat(written.of(Added.class)).hasSize(20);
    }

    /** A corpus of {@code scenarios} in {@code folder}, written as clrheap 0.0.0-test, two fixtures at once. */
    private static GoldenCorpus corpus(Path folder, Scenario... scenarios) {
        return new GoldenCorpus(folder, List.of(scenarios), "0.0.0-test", 2);
    }

    /** This test's own copy of the corpus. */
    private Path copy() throws IOException {
        Path target = dir.resolve("corpus");
        try (Stream<Path> walk = Files.walk(base)) {
            for (Path p : walk.toList()) {
                Path to = target.resolve(base.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
        return target;
    }

    @Test
    void anUpdateWritesABundleAndTheExpectedFilesPerFixtureAndALineEachInCorpusTsv() throws IOException {
        assertThat(Files.readAllBytes(NET8_TINY.file(base))).startsWith(new byte[] {(byte) 0xfd, '7', 'z', 'X', 'Z', 0});
        try (Stream<Path> files = Files.list(NET8_TINY.expected(base))) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted()).containsExactly("dumpheap-stat.txt", "eeheap.txt", "fixture.txt", "gchandles.txt");
        }
        List<IndexRow> rows = CorpusIndex.read(base.resolve(CorpusIndex.NAME));
        assertThat(rows).extracting(IndexRow::path).hasSize(20).isSorted().contains("net8-server/tiny.clrheap.tar.xz", "net10-workstation/min-object.clrheap.tar.xz",
                "net8-windows-server/tiny.dmp.xz", "net10-windows-workstation/min-object.dmp.xz").noneMatch(p -> p.startsWith("net9-windows"));
        IndexRow tiny = rows.stream().filter(r -> r.path().equals("net8-server/tiny.clrheap.tar.xz")).findFirst().orElseThrow();
        assertThat(List.of(tiny.runtime(), tiny.gc(), tiny.heaps(), tiny.seed())).containsExactly("net8", "server", 2, 3L);
        assertThat(new ObjectTotals(tiny.objects(), tiny.bytes())).isEqualTo(ObjectTotals.of(NET8_TINY.expected(base).resolve("dumpheap-stat.txt")));
    }

    @Test
    void aCorpusJustWrittenEqualsFreshBuilds() throws IOException {
        CorpusReport report = corpus(copy(), TINY, MIN_OBJECT).check(FixtureGlob.ALL, CorpusListener.NONE);
        assertThat(report.upToDate()).isTrue();
        assertThat(report.counts()).isEqualTo("0 changed, 0 added, 0 removed, 20 unchanged");
    }

    @Test
    void theSameFixtureWrittenTwiceIsTheSameBytes() throws IOException {
        GoldenCorpus corpus = corpus(base, TINY, MIN_OBJECT);
        corpus.write(NET8_TINY, dir.resolve("again"));
        assertThat(GoldenCorpus.compare(NET8_TINY, base, dir.resolve("again"))).isInstanceOf(Unchanged.class);
    }

    @Test
    void aChangedExpectedFileIsReportedWithItsLineCountsAndFirstDifference() throws IOException {
        Path corpus = copy();
        Path eeheap = NET8_TINY.expected(corpus).resolve("eeheap.txt");
        List<String> lines = Files.readAllLines(eeheap, StandardCharsets.UTF_8);
        lines.set(6, lines.get(6).replace("generation 0:", "generation X:"));
        Files.write(eeheap, lines, StandardCharsets.UTF_8);

        CorpusReport report = corpus(corpus, TINY, MIN_OBJECT).check(FixtureGlob.ALL, CorpusListener.NONE);

        assertThat(report.of(Changed.class)).singleElement().satisfies(c -> {
            assertThat(c.fixture()).isEqualTo(NET8_TINY);
            assertThat(c.dump()).isEmpty();
            assertThat(c.files()).singleElement().satisfies(f -> {
                assertThat(List.of(f.file(), f.presence(), f.removed(), f.added(), f.firstLine())).containsExactly("eeheap.txt", Presence.BOTH, 1, 1, 7L);
                assertThat(f.committedLine()).contains("generation X:");
                assertThat(f.freshLine()).contains("generation 0:");
            });
            assertThat(c.before()).contains(c.after());
            assertThat(c.summary()).isEqualTo("eeheap.txt: 1 line removed, 1 added, first at line 7");
        });
        assertThat(report.counts()).isEqualTo("1 changed, 0 added, 0 removed, 19 unchanged");
        assertThat(report.upToDate()).isFalse();
    }

    @Test
    void aHeapThatChangedIsReportedWithTheBundleEntriesAndTheObjectsBeforeAndAfter() throws IOException {
        Scenario oneMore = TINY.toBuilder().objects(20, 10, 11, 1, 1).build();

        CorpusReport report = corpus(copy(), oneMore, MIN_OBJECT).check(FixtureGlob.ALL, CorpusListener.NONE);

        Changed c = report.of(Changed.class).stream().filter(o -> o.fixture().equals(NET8_TINY)).findFirst().orElseThrow();
        BundleDifference bundle = (BundleDifference) c.dump().orElseThrow();
        assertThat(bundle.presence()).isEqualTo(Presence.BOTH);
        assertThat(bundle.firstOffset()).isPositive().isLessThan(Math.min(bundle.committedSize(), bundle.freshSize()));
        assertThat(bundle.changedEntries()).contains("answer/objects.tsv", "answer/dumpheap-stat.txt").anyMatch(e -> e.startsWith("memory/"));
        assertThat(c.files()).extracting(FileDifference::file).contains("dumpheap-stat.txt");
        assertThat(c.after().objects()).isGreaterThan(c.before().orElseThrow().objects());
        assertThat(c.summary()).contains(String.format(java.util.Locale.ROOT, "%,d -> %,d objects", c.before().orElseThrow().objects(), c.after().objects()));
        assertThat(report.index()).as("tiny's lines, Linux and Windows").hasValueSatisfying(d -> assertThat(d.removed()).isEqualTo(10));
    }

    @Test
    void aCorruptBundleIsReportedAtItsFirstDifferingByte() throws IOException {
        Path corpus = copy();
        byte[] bytes = Files.readAllBytes(NET8_TINY.file(corpus));
        bytes[1000] ^= 0x55;
        Files.write(NET8_TINY.file(corpus), bytes);

        Changed c = corpus(corpus, TINY, MIN_OBJECT).check(FixtureGlob.ALL, CorpusListener.NONE).of(Changed.class).getFirst();

        assertThat(c.dump()).containsInstanceOf(BundleDifference.class).hasValueSatisfying(d -> {
            BundleDifference b = (BundleDifference) d;
            assertThat(b.firstOffset()).isEqualTo(1000);
            assertThat(b.changedEntries()).singleElement().asString().startsWith("the corpus's bundle cannot be read: ");
        });
        assertThat(c.files()).isEmpty();
    }

    @Test
    void aNewScenarioIsAddedAndOneThatNoLongerExistsIsRemoved() throws IOException {
        Path corpus = copy();
        Scenario renamed = TINY.toBuilder().name("tiny2").build();
        GoldenCorpus changed = corpus(corpus, renamed, MIN_OBJECT);

        CorpusReport check = changed.check(FixtureGlob.ALL, CorpusListener.NONE);
        assertThat(check.counts()).isEqualTo("0 changed, 10 added, 10 removed, 10 unchanged");
        assertThat(check.of(Removed.class)).first().satisfies(r -> assertThat(r.summary()).isEqualTo("no built-in scenario 'tiny'"));
        assertThat(Files.exists(NET8_TINY.file(corpus))).as("a check writes nothing").isTrue();

        CorpusReport update = changed.update(FixtureGlob.ALL, CorpusListener.NONE);
        assertThat(update.counts()).isEqualTo("0 changed, 10 added, 10 removed, 10 unchanged");
        assertThat(NET8_TINY.file(corpus)).doesNotExist();
        assertThat(NET8_TINY.expected(corpus)).doesNotExist();
        assertThat(NET8_WINDOWS_TINY.file(corpus)).doesNotExist();
        assertThat(GoldenFixture.of("tiny2", RuntimeVersion.NET8, GcFlavor.SERVER).file(corpus)).isRegularFile();
        assertThat(GoldenFixture.of("tiny2", RuntimeVersion.NET8, Platform.WINDOWS, GcFlavor.SERVER).file(corpus)).isRegularFile();
        assertThat(CorpusIndex.read(corpus.resolve(CorpusIndex.NAME))).extracting(IndexRow::path).hasSize(20).noneMatch(p -> p.contains("/tiny."));
        assertThat(changed.check(FixtureGlob.ALL, CorpusListener.NONE).upToDate()).isTrue();
    }

    @Test
    void anEditedFixtureIsRewrittenByAnUpdateAndTheNextCheckFindsItEqual() throws IOException {
        Path corpus = copy();
        Files.writeString(NET8_TINY.expected(corpus).resolve("gchandles.txt"), "edited\n");
        GoldenCorpus golden = corpus(corpus, TINY, MIN_OBJECT);

        CorpusReport update = golden.update(FixtureGlob.ALL, CorpusListener.NONE);

        assertThat(update.counts()).isEqualTo("1 changed, 0 added, 0 removed, 19 unchanged");
        assertThat(Files.readString(NET8_TINY.expected(corpus).resolve("gchandles.txt"))).isEqualTo(Files.readString(NET8_TINY.expected(base).resolve("gchandles.txt")));
        assertThat(golden.check(FixtureGlob.ALL, CorpusListener.NONE).upToDate()).isTrue();
        try (Stream<Path> left = Files.list(corpus.resolve("net8-server"))) {
            assertThat(left.map(p -> p.getFileName().toString())).as("no staging folder is left").noneMatch(n -> n.startsWith("."));
        }
    }

    @Test
    void strayEntriesAreReportedByACheckAndDeletedByAnUpdate() throws IOException {
        Path corpus = copy();
        Files.writeString(corpus.resolve("net9-server/notes.txt"), "mine\n");
        Files.createDirectories(corpus.resolve("net9-server/.staging-tiny.123/net9-server"));
        Files.writeString(corpus.resolve("README.md"), "the corpus\n");
        GoldenCorpus golden = corpus(corpus, TINY, MIN_OBJECT);

        CorpusReport check = golden.check(FixtureGlob.ALL, CorpusListener.NONE);
        assertThat(check.strays()).containsExactly("net9-server/.staging-tiny.123", "net9-server/notes.txt");
        assertThat(check.upToDate()).isFalse();

        golden.update(FixtureGlob.ALL, CorpusListener.NONE);
        assertThat(corpus.resolve("net9-server/notes.txt")).doesNotExist();
        assertThat(corpus.resolve("README.md")).as("outside the runtime-gc folders nothing is touched").hasContent("the corpus");
        assertThat(golden.check(FixtureGlob.ALL, CorpusListener.NONE).upToDate()).isTrue();
    }

    @Test
    void aGlobLimitsARunToItsFixturesAndAnUpdateKeepsTheOtherLinesOfCorpusTsv() throws IOException {
        Path corpus = copy();
        Scenario oneMore = TINY.toBuilder().objects(20, 10, 11, 1, 1).build();
        GoldenCorpus changed = corpus(corpus, oneMore, MIN_OBJECT);
        List<String> before = Files.readAllLines(corpus.resolve(CorpusIndex.NAME));

        CorpusReport update = changed.update(new FixtureGlob(List.of("net8-server/*")), CorpusListener.NONE);

        assertThat(update.outcomes()).extracting(o -> o.fixture().id()).containsExactly("net8-server/min-object", "net8-server/tiny");
        assertThat(update.counts()).isEqualTo("1 changed, 0 added, 0 removed, 1 unchanged");
        List<String> after = Files.readAllLines(corpus.resolve(CorpusIndex.NAME));
        assertThat(after).hasSameSizeAs(before);
        assertThat(after.stream().filter(l -> !before.contains(l))).singleElement().asString().startsWith("net8-server/tiny.clrheap.tar.xz\t");
        assertThat(changed.check(new FixtureGlob(List.of("net8-server/*")), CorpusListener.NONE).upToDate()).isTrue();
        assertThat(changed.check(new FixtureGlob(List.of("net9-server/tiny")), CorpusListener.NONE).of(Changed.class)).hasSize(1);
    }

    @Test
    void everyFixtureIsHeardOfOnceWithTheCountsSoFar() throws IOException {
        List<Integer> done = new java.util.concurrent.CopyOnWriteArrayList<>();
        corpus(copy(), TINY, MIN_OBJECT).check(FixtureGlob.ALL, (outcome, n, total) -> {
            assertThat(total).isEqualTo(20);
            done.add(n);
        });
        assertThat(done).containsExactlyElementsOf(java.util.stream.IntStream.rangeClosed(1, 20).boxed().toList());
    }

    @Test
    void aWindowsFixtureIsTheMinidumpGenerateWritesCompressedWithTheAnswerFilesOfItsLinuxTwin() throws IOException {
        Path generated = dir.resolve("generated");
        Path dump = FixtureWriter.write(TINY, EnumSet.of(FixtureFormat.MINIDUMP), generated, "0.0.0-test", FixtureProgress.NONE).getFirst();

        assertThat(NET8_WINDOWS_TINY.file(base).getFileName()).hasToString("tiny.dmp.xz");
        assertThat(decompressed(NET8_WINDOWS_TINY.file(base))).as("the committed file decompressed").isEqualTo(Files.readAllBytes(dump));
        for (String file : GoldenCorpus.EXPECTED_FILES) {
            assertThat(NET8_WINDOWS_TINY.expected(base).resolve(file)).as(file).hasSameBinaryContentAs(NET8_TINY.expected(base).resolve(file));
        }
        IndexRow row = CorpusIndex.read(base.resolve(CorpusIndex.NAME)).stream().filter(r -> r.path().equals("net8-windows-server/tiny.dmp.xz")).findFirst()
                .orElseThrow();
        assertThat(List.of(row.runtime(), row.gc(), row.heaps(), row.seed())).containsExactly("net8", "server", 2, 3L);
        assertThat(base.resolve("net9-windows-server")).as("no Windows layout of .NET 9").doesNotExist();
    }

    @Test
    void aChangedMinidumpByteIsReportedWithTheFileItsFirstDifferingByteAndWhatItBelongsTo() throws IOException {
        Path corpus = copy();
        byte[] dump = decompressed(NET8_WINDOWS_TINY.file(corpus));
        int last = dump.length - 1; // memory is written after the other streams: the last byte is the last range's
        dump[last] ^= 0x55;
        Path edited = dir.resolve("edited.dmp");
        Files.write(edited, dump);
        MinidumpXz.compress(edited, NET8_WINDOWS_TINY.file(corpus));

        CorpusReport report = corpus(corpus, TINY, MIN_OBJECT).check(new FixtureGlob(List.of("net8-windows-server/*")), CorpusListener.NONE);

        assertThat(report.of(Changed.class)).singleElement().satisfies(c -> {
            assertThat(c.fixture()).isEqualTo(NET8_WINDOWS_TINY);
            assertThat(c.files()).isEmpty();
            MinidumpDifference d = (MinidumpDifference) c.dump().orElseThrow();
            assertThat(List.of(d.presence(), d.committedDumpSize(), d.freshDumpSize(), d.firstDumpOffset()))
                    .containsExactly(Presence.BOTH, (long) dump.length, (long) dump.length, (long) last);
            assertThat(d.where()).matches("in memory at 0x[0-9a-f]+ \\(memory range ([0-9,]+) of \\1\\)");
            assertThat(c.summary()).startsWith("minidump ").contains(String.format(java.util.Locale.ROOT, "first difference at byte %,d (0x%x): in memory at 0x",
                    last, last));
        });
    }

    @Test
    void aMissingWindowsFixtureIsReportedAndAnUpdateWritesIt() throws IOException {
        Path corpus = copy();
        GoldenFixture net10 = GoldenFixture.of("min-object", RuntimeVersion.NET10, Platform.WINDOWS, GcFlavor.WORKSTATION);
        Files.delete(net10.file(corpus));
        FileTrees.deleteTree(net10.expected(corpus));
        Files.delete(NET8_WINDOWS_TINY.file(corpus));
        GoldenCorpus golden = corpus(corpus, TINY, MIN_OBJECT);
        FixtureGlob windows = new FixtureGlob(List.of("net*-windows-*/*"));

        CorpusReport check = golden.check(windows, CorpusListener.NONE);

        assertThat(check.of(Added.class)).extracting(FixtureOutcome::fixture).containsExactly(net10);
        assertThat(check.of(Changed.class)).singleElement().satisfies(c -> assertThat(c.summary()).isEqualTo("minidump: missing from the corpus"));
        assertThat(golden.update(windows, CorpusListener.NONE).counts()).isEqualTo("1 changed, 1 added, 0 removed, 6 unchanged");
        assertThat(golden.check(windows, CorpusListener.NONE).upToDate()).isTrue();
    }

    @Test
    void aWindowsFixtureOfARuntimeWithoutWindowsLayoutsIsRemoved() throws IOException {
        Path corpus = copy();
        GoldenFixture net9 = GoldenFixture.of("tiny", RuntimeVersion.NET9, Platform.WINDOWS, GcFlavor.SERVER);
        Files.createDirectories(net9.expected(corpus));
        Files.copy(NET8_WINDOWS_TINY.file(corpus), net9.file(corpus));

        CorpusReport check = corpus(corpus, TINY, MIN_OBJECT).check(new FixtureGlob(List.of("net9-windows-*/*")), CorpusListener.NONE);

        assertThat(check.outcomes()).singleElement().isInstanceOf(Removed.class);
        assertThat(check.of(Removed.class)).singleElement().satisfies(r -> {
            assertThat(r.fixture()).isEqualTo(net9);
            assertThat(r.summary()).startsWith("no Windows process: ");
        });
    }

    @Test
    void anOlderClrheapsDecompressedCopyOfAMinidumpIsNoStrayButAnyOtherFileIs() throws IOException {
        Path corpus = copy();
        Files.writeString(corpus.resolve("net8-windows-server/tiny.dmp.decompressed"), "an older clrheap's copy");
        Files.writeString(corpus.resolve("net8-windows-server/gone.dmp.decompressed"), "no xz beside it");
        Files.writeString(corpus.resolve("net8-windows-server/tiny.clrheap.tar.xz"), "a bundle in a Windows folder");

        CorpusReport check = corpus(corpus, TINY, MIN_OBJECT).check(FixtureGlob.ALL, CorpusListener.NONE);

        assertThat(check.strays()).containsExactly("net8-windows-server/gone.dmp.decompressed", "net8-windows-server/tiny.clrheap.tar.xz");
    }

    /** The minidump a compressed one holds. */
    private static byte[] decompressed(Path xz) throws IOException {
        try (java.io.InputStream in = MinidumpXz.open(xz)) {
            return in.readAllBytes();
        }
    }
}
