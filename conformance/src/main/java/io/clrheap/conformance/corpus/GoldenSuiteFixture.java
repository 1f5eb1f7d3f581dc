package io.clrheap.conformance.corpus;

import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.generator.ClrheapVersion;
import io.clrheap.conformance.Fixture;
import io.clrheap.conformance.SuiteFixture;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.generator.fixture.FixtureProgress;
import io.clrheap.generator.fixture.FixtureWriter;
import io.clrheap.walker.source.bundle.Bundle;
import io.clrheap.walker.source.bundle.BundleManifest;
import io.clrheap.walker.source.elf.XzCache;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A fixture of a golden corpus as a conformance suite fixture ({@code clrheap conform --suite golden}). Its answer key
 * is the committed one: the files of {@code NAME.expected/} and {@code objects.tsv} (with references.tsv, roots.tsv,
 * live.tsv and regions.tsv when it holds them) taken from the bundle's
 * {@code answer/} through the walker's checking bundle reader — for a Windows fixture, from its Linux twin's bundle,
 * which holds the same answer key ({@link GoldenFixture#linuxTwin()}). The walker is given a Linux fixture's committed
 * bundle, or, for an ELF core or a minidump, one written into the work folder from the same scenario, runtime, GC
 * flavour and seed (the corpus test proves a fresh build is the committed heap byte for byte); a Windows fixture's
 * committed minidump, decompressed into the work folder, whatever {@code format} says: it is the only file a Windows
 * fixture has.
 *
 * @param fixture the fixture
 * @param corpus  the corpus: where the fixture is, and what it is built from (for ELF cores and minidumps)
 * @param format  the file the walker reads of a Linux fixture
 * @param about   its fixture.txt line (empty when it has none)
 */
public record GoldenSuiteFixture(GoldenFixture fixture, GoldenCorpus corpus, FixtureFormat format, String about) implements SuiteFixture {

    public GoldenSuiteFixture {
        Objects.requireNonNull(fixture, "fixture");
        Objects.requireNonNull(corpus, "corpus");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(about, "about");
    }

    /**
     * Every fixture {@code corpus} holds with both its file and its expected outputs, sorted by id, each Linux one given
     * to the walker as {@code format}, each Windows one as its minidump.
     */
    public static List<GoldenSuiteFixture> inCorpus(GoldenCorpus corpus, FixtureFormat format) throws IOException {
        List<GoldenSuiteFixture> fixtures = new ArrayList<>();
        for (GoldenFixture f : corpus.committed()) {
            Path expected = f.expected(corpus.dir());
            if (Files.isRegularFile(f.file(corpus.dir()), LinkOption.NOFOLLOW_LINKS) && Files.isDirectory(expected, LinkOption.NOFOLLOW_LINKS)) {
                fixtures.add(new GoldenSuiteFixture(f, corpus, format, firstLine(expected.resolve("fixture.txt"))));
            }
        }
        return fixtures;
    }

    /**
     * The answer files taken from the bundle beside objects.tsv, when it holds them: the object graph's, and regions.tsv,
     * which places every object a difference names in its heap, generation and region.
     */
    static final List<String> GRAPH_FILES = List.of("references.tsv", "roots.tsv", "live.tsv", "regions.tsv");

    @Override
    public String name() {
        return fixture.id();
    }

    @Override
    public Fixture prepare(Path work) throws IOException {
        Path bundle = fixture.linuxTwin().file(corpus.dir());
        if (fixture.platform() == Platform.WINDOWS && !Files.isRegularFile(bundle, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(fixture.id() + ": its answer key's objects.tsv is in the bundle of its Linux twin, " + fixture.linuxTwin().id()
                    + ", which the corpus lacks (" + bundle + ")");
        }
        Path answer = Files.createDirectory(work.resolve("answer"));
        for (String file : GoldenCorpus.EXPECTED_FILES) {
            Path committed = fixture.expected(corpus.dir()).resolve(file);
            if (Files.isRegularFile(committed, LinkOption.NOFOLLOW_LINKS)) {
                Files.copy(committed, answer.resolve(file));
            }
        }
        BundleManifest manifest;
        try (Bundle b = Bundle.open(bundle)) {
            manifest = b.manifest();
            if (!b.answerNames().contains("objects.tsv")) {
                throw new IOException(bundle + ": the bundle holds no answer/objects.tsv (its answer files: " + b.answerNames() + ")");
            }
            // the name is ours, never one from the archive
            try (InputStream in = b.openAnswer("objects.tsv")) {
                Files.copy(in, answer.resolve("objects.tsv"));
            }
            // the object graph's files, in the bundles written since (conform --expect refs or live says so when they are not)
            for (String graph : GRAPH_FILES) {
                if (b.answerNames().contains(graph)) {
                    try (InputStream in = b.openAnswer(graph)) {
                        Files.copy(in, answer.resolve(graph));
                    }
                }
            }
        }
        if (fixture.platform() == Platform.WINDOWS) {
            // {dump} is a plain NAME.dmp, as generate writes it: a Windows walker needs no xz
            Path dump = Files.createDirectory(work.resolve("dump")).resolve(fixture.name() + FixtureFormat.MINIDUMP.suffix());
            XzCache.decompressTo(fixture.file(corpus.dir()), dump);
            return new Fixture(name(), about, dump, answer);
        }
        if (format == FixtureFormat.BUNDLE) {
            return new Fixture(name(), about, bundle, answer);
        }
        Scenario scenario = scenarioOf(manifest, bundle);
        List<Path> written = FixtureWriter.write(scenario, EnumSet.of(format), work.resolve("dump"), ClrheapVersion.current(), FixtureProgress.NONE);
        return new Fixture(name(), about, written.getFirst(), answer);
    }

    /** The scenario the bundle was built from: the corpus's for this fixture, with the seed the manifest records. */
    private Scenario scenarioOf(BundleManifest manifest, Path bundle) throws IOException {
        Optional<Scenario> known = corpus.scenario(fixture);
        if (known.isEmpty()) {
            throw new IOException(fixture.id() + ": no built-in scenario '" + fixture.name() + "' for " + fixture.folder()
                    + ", so no " + format.id() + " file can be written for it; use --format bundle");
        }
        Scenario s = known.get();
        if (!manifest.scenario().equals(s.name()) || !manifest.runtime().equals(s.runtime().shortName()) || !manifest.gc().equals(s.gc().id())) {
            throw new IOException(String.format(Locale.ROOT, "%s: the bundle says it is %s on %s, %s GC; its place in the corpus says %s on %s, %s GC",
                    bundle, manifest.scenario(), manifest.runtime(), manifest.gc(), s.name(), s.runtime().shortName(), s.gc().id()));
        }
        return manifest.seed() == s.seed() ? s : s.toBuilder().seed(manifest.seed()).build();
    }

    private static String firstLine(Path file) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return "";
        }
        return Fixture.firstLine(file);
    }
}
