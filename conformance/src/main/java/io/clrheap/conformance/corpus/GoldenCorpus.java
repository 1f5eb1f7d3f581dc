package io.clrheap.conformance.corpus;

import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.Scenarios;
import io.clrheap.generator.ClrheapVersion;
import io.clrheap.walker.source.FileTrees;
import io.clrheap.walker.source.InProgressFiles;
import io.clrheap.walker.source.PendingFile;
import io.clrheap.conformance.FixtureGlob;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.generator.fixture.FixtureProgress;
import io.clrheap.generator.fixture.FixtureWriter;
import io.clrheap.emulator.scenario.GcMode;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.walker.source.bundle.Bundle;
import io.clrheap.walker.source.bundle.BundleEntry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A golden corpus: every scenario of a list (the built-in ones) on every runtime and GC flavour, as a Linux process and,
 * on the runtimes whose builds have Windows layouts, as the Windows variant of that process, written as a compact
 * fixture and committed, so that any change in what clrheap writes shows up as a reviewable diff. In its folder:
 *
 * <pre>
 * corpus.tsv                                    one line per fixture (see {@link IndexRow})
 * &lt;runtime&gt;-&lt;gc&gt;/NAME.clrheap.tar.xz          the fixture bundle, its full answer key under answer/ (objects.tsv too)
 * &lt;runtime&gt;-windows-&lt;gc&gt;/NAME.dmp.xz           the minidump of the Windows variant, xz-compressed ({@link MinidumpXz})
 * &lt;runtime&gt;-[windows-]&lt;gc&gt;/NAME.expected/     plain copies of the small answer files: {@link #EXPECTED_FILES}
 * </pre>
 *
 * <p>Each fixture is what {@code clrheap generate --scenario NAME --runtime R --gc G --format bundle} (or
 * {@code --format minidump}, then compressed) writes (the scenario's own heaps and seed; the same {@link FixtureWriter}),
 * so it is byte-identical on every build; generate names the file {@code NAME-R-G.clrheap.tar.xz} ({@code NAME-R-G.dmp}),
 * the corpus {@code NAME.clrheap.tar.xz} in its {@code R-G} folder ({@code NAME.dmp.xz} in {@code R-windows-G}). The
 * Windows variant holds its heaps at the Linux process's addresses, so a Windows fixture's answer key is its Linux
 * twin's ({@link GoldenFixture#linuxTwin()}): the same expected files, and the twin's bundle holds its objects.tsv. The
 * corpus owns its fixture folders and {@code corpus.tsv}; anything else in its folder (a README) is left alone.
 * Fixtures are built {@code jobs} at a time; the result does not depend on it.
 *
 * <p>Long because the corpus's three operations (write, check, update) share its index, its folder layout and the
 * comparison of one fixture with its committed files.
 */
public final class GoldenCorpus {

    /** The answer files kept as plain text beside each fixture's file, in this order: small, and worth reading in a diff. */
    public static final List<String> EXPECTED_FILES = List.of("fixture.txt", "dumpheap-stat.txt", "eeheap.txt", "gchandles.txt");
    /** Where the project keeps its corpus, from the project's root. */
    public static final Path PROJECT_LOCATION = Path.of("golden", "synthetic");
    /** Temporary folders of a running update start with this (hidden; an interrupted update's are strays the next one deletes). */
    private static final String STAGING = ".staging-";

    private final Path dir;
    private final List<Scenario> scenarios;
    private final String clrheapVersion;
    private final int jobs;
    /** Whether the regions scenarios that run on the segments GC have a segments variant too (the built-in corpus: yes). */
    private final boolean segmentsVariants;

    /**
     * @param dir            the corpus folder
     * @param scenarios      the scenarios it holds, each built on every runtime and GC flavour (as {@link Scenario#on} gives it)
     * @param clrheapVersion what the bundles' manifests say wrote them ({@link ClrheapVersion#current()} for the command line's bytes)
     * @param jobs           fixtures built at once, at least 1
     */
    public GoldenCorpus(Path dir, List<Scenario> scenarios, String clrheapVersion, int jobs) {
        this(dir, scenarios, clrheapVersion, jobs, false);
    }

    /**
     * A corpus of {@code scenarios}; with {@code segmentsVariants}, every regions scenario that runs on the standalone
     * segments GC also has its .NET 9 segments GC process ({@code net9-segments-<gc>/NAME}), as the built-in corpus does.
     */
    public GoldenCorpus(Path dir, List<Scenario> scenarios, String clrheapVersion, int jobs, boolean segmentsVariants) {
        this.segmentsVariants = segmentsVariants;
        this.dir = Objects.requireNonNull(dir, "dir");
        this.scenarios = List.copyOf(scenarios);
        this.clrheapVersion = Objects.requireNonNull(clrheapVersion, "clrheapVersion");
        if (jobs < 1) {
            throw new IllegalArgumentException("jobs is at least 1, not " + jobs);
        }
        this.jobs = jobs;
        Map<String, Scenario> byName = new LinkedHashMap<>();
        for (Scenario s : this.scenarios) {
            if (byName.putIfAbsent(s.name(), s) != null) {
                throw new IllegalArgumentException("two scenarios named " + s.name());
            }
        }
    }

    /** The corpus in {@code dir} of every built-in scenario but the large ones ({@link Scenarios#corpus()}), written as this clrheap writes it, a fixture per processor at once. */
    public static GoldenCorpus builtIn(Path dir) {
        return new GoldenCorpus(dir, Scenarios.corpus(), ClrheapVersion.current(), Runtime.getRuntime().availableProcessors(), true);
    }

    /** Whether the corpus holds {@code s} as a segments GC process: its own scenarios, and the others that run on it when variants are on. */
    private boolean runsAsSegments(Scenario s) {
        return s.gcMode() == GcMode.SEGMENTS || (segmentsVariants && Scenarios.runsOnSegments(s));
    }

    /** The corpus folder. */
    public Path dir() {
        return dir;
    }

    /**
     * Every fixture the corpus should hold, sorted by id: each scenario on each runtime and GC flavour as a Linux
     * process, and as a Windows one where the runtime's build has Windows layouts (8.0.30 and 10.0.9, not .NET 9:
     * {@link FixtureWriter#minidumpRefusal}).
     */
    public List<GoldenFixture> fixtures() {
        List<GoldenFixture> all = new ArrayList<>();
        for (Scenario s : scenarios) {
            for (GcFlavor gc : GcFlavor.values()) {
                // the standalone segments GC's processes (.NET 9 only): its own scenarios, and every other that runs on it
                if (runsAsSegments(s)) {
                    all.add(GoldenFixture.ofSegments(s.name(), RuntimeVersion.NET9, gc));
                }
            }
            if (s.gcMode() == GcMode.SEGMENTS) {
                continue;
            }
            for (RuntimeVersion v : RuntimeVersion.values()) {
                for (GcFlavor gc : GcFlavor.values()) {
                    all.add(GoldenFixture.of(s.name(), v, gc));
                    if (FixtureWriter.minidumpRefusal(s.on(v, gc)).isEmpty()) {
                        all.add(GoldenFixture.of(s.name(), v, Platform.WINDOWS, gc));
                    }
                }
            }
        }
        return all.stream().sorted().toList();
    }

    /**
     * What {@code fixture} is built from: its scenario on its runtime and GC flavour, with the scenario's heaps and seed
     * for them (as {@code clrheap generate} builds it); empty when the corpus holds no such fixture ({@link #whyNot}).
     */
    public Optional<Scenario> scenario(GoldenFixture fixture) {
        Optional<RuntimeVersion> runtime = fixture.runtime();
        if (runtime.isEmpty()) {
            return Optional.empty();
        }
        Optional<Scenario> named = scenarios.stream().filter(s -> s.name().equals(fixture.name())).findFirst();
        if (fixture.segments()) {
            return named.filter(s -> runtime.get() == RuntimeVersion.NET9 && runsAsSegments(s))
                    .map(s -> s.on(runtime.get(), fixture.gc()).toBuilder().gcMode(GcMode.SEGMENTS).build());
        }
        Optional<Scenario> scenario = named.filter(s -> s.gcMode() == GcMode.REGIONS).map(s -> s.on(runtime.get(), fixture.gc()));
        if (fixture.platform() == Platform.WINDOWS) {
            return scenario.filter(s -> FixtureWriter.minidumpRefusal(s).isEmpty());
        }
        return scenario;
    }

    /** Why the corpus holds no {@code fixture} (when {@link #scenario} is empty): no such runtime, scenario or Windows layout. */
    public String whyNot(GoldenFixture fixture) {
        Optional<RuntimeVersion> runtime = fixture.runtime();
        if (runtime.isEmpty()) {
            return "clrheap builds no runtime " + fixture.folder().substring(0, fixture.folder().indexOf('-'));
        }
        Optional<Scenario> scenario = scenarios.stream().filter(s -> s.name().equals(fixture.name())).findFirst();
        if (scenario.isEmpty()) {
            return "no built-in scenario '" + fixture.name() + "'";
        }
        if (fixture.segments() || scenario.get().gcMode() == GcMode.SEGMENTS) {
            return "the segments GC is emulated for .NET 9 only, and runs no scenario that places contexts in regions; " + scenario.get().name()
                    + " is " + (scenario.get().gcMode() == GcMode.SEGMENTS ? "a segments GC scenario" : "a regions GC scenario");
        }
        Optional<String> refusal = fixture.platform() == Platform.WINDOWS ? FixtureWriter.minidumpRefusal(scenario.get().on(runtime.get(), fixture.gc()))
                : Optional.empty();
        return refusal.map(why -> "no Windows process: " + why).orElseThrow(() -> new IllegalArgumentException(fixture.id() + " is a fixture of this corpus"));
    }

    /** The fixtures the corpus folder holds — a fixture file, a folder of expected outputs or both — sorted by id. */
    public List<GoldenFixture> committed() throws IOException {
        TreeSet<GoldenFixture> found = new TreeSet<>();
        for (Path folder : corpusFolders()) {
            for (Path entry : list(folder)) {
                fixtureOf(folder, entry).ifPresent(found::add);
            }
        }
        return List.copyOf(found);
    }

    /**
     * Entries of the corpus folders that belong to no fixture, relative to the corpus ({@code net8-server/notes.txt}),
     * sorted. The decompressed copy of a minidump that clrheap wrote beside it before decompressed dumps went to the cache
     * folder ({@code NAME.dmp.decompressed}, beside its {@code NAME.dmp.xz}) is no stray: a clone where an older clrheap
     * walked a fixture in place must not fail the corpus's check for it.
     */
    public List<String> strays() throws IOException {
        List<String> strays = new ArrayList<>();
        for (Path folder : corpusFolders()) {
            for (Path entry : list(folder)) {
                if (fixtureOf(folder, entry).isEmpty() && !isWalkersCopy(entry)) {
                    strays.add(folder.getFileName() + "/" + entry.getFileName());
                }
            }
        }
        return strays.stream().sorted().toList();
    }

    /**
     * Builds {@code fixture} and writes it into the corpus folder {@code corpus} (this corpus's or another, e.g. a
     * temporary one) as its file ({@code <runtime>-<gc>/NAME.clrheap.tar.xz}, {@code <runtime>-windows-<gc>/NAME.dmp.xz})
     * and {@code NAME.expected/} beside it, replacing what was there; both are written in a hidden folder beside them
     * first and moved into place, so that an interrupted write leaves the old ones or the new ones. Nothing else is
     * written: not corpus.tsv.
     *
     * @return its corpus.tsv row
     * @throws IllegalArgumentException when the corpus holds no such fixture, or the emulator cannot build it
     */
    public IndexRow write(GoldenFixture fixture, Path corpus) throws IOException {
        Scenario scenario = scenario(fixture).orElseThrow(() -> new IllegalArgumentException(
                fixture.id() + ": no scenario '" + fixture.name() + "' for " + fixture.folder() + " in this corpus"));
        Path folder = Files.createDirectories(corpus.resolve(fixture.folder()));
        Path work = Files.createTempDirectory(folder, STAGING + fixture.name() + ".");
        // a stopped JVM removes it (and says which fixture it was to become)
        InProgressFiles.register(work, folder.resolve(fixture.fileName()) + ", " + folder.resolve(fixture.expectedName()) + "/");
        try {
            Path written = FixtureWriter.write(scenario, EnumSet.of(fixture.format()), work, clrheapVersion, FixtureProgress.NONE).getFirst();
            if (fixture.format() == FixtureFormat.MINIDUMP) {
                MinidumpXz.compress(written, work.resolve(fixture.fileName()));
                Files.delete(written);
            }
            Path answer = work.resolve(scenario.name() + ".answer");
            Path expected = Files.createDirectory(work.resolve(fixture.expectedName()));
            for (String file : EXPECTED_FILES) {
                Files.copy(answer.resolve(file), expected.resolve(file));
            }
            IndexRow row = row(fixture, scenario, work);
            install(fixture, work, folder);
            return row;
        } finally {
            FileTrees.deleteTree(work);
            InProgressFiles.unregister(work);
        }
    }

    /**
     * How the fixture in the corpus folder {@code corpus} compares with the one in {@code fresh}, a corpus folder
     * {@link #write} wrote it into:
     * {@link Added} when the corpus has neither its file nor its expected outputs, else {@link Unchanged} or {@link Changed}.
     */
    public static FixtureOutcome compare(GoldenFixture fixture, Path corpus, Path fresh) throws IOException {
        ObjectTotals after = ObjectTotals.of(fixture.expected(fresh).resolve("dumpheap-stat.txt"));
        Path committedFile = fixture.file(corpus);
        Path committedExpected = fixture.expected(corpus);
        boolean hasFile = Files.exists(committedFile, LinkOption.NOFOLLOW_LINKS);
        boolean hasExpected = Files.exists(committedExpected, LinkOption.NOFOLLOW_LINKS);
        if (!hasFile && !hasExpected) {
            return new Added(fixture, after);
        }
        Optional<? extends DumpDifference> dump = fixture.format() == FixtureFormat.MINIDUMP
                ? MinidumpDifference.of(committedFile, fixture.file(fresh))
                : compareBundles(committedFile, fixture.file(fresh));
        List<FileDifference> files = compareExpected(committedExpected, fixture.expected(fresh));
        if (dump.isEmpty() && files.isEmpty()) {
            return new Unchanged(fixture, after);
        }
        Optional<ObjectTotals> before;
        try {
            before = Optional.of(ObjectTotals.of(committedExpected.resolve("dumpheap-stat.txt")));
        } catch (IOException e) {
            before = Optional.empty(); // missing or broken: the file difference says so
        }
        return new Changed(fixture, dump.map(DumpDifference.class::cast), files, before, after);
    }

    /**
     * Compares the fixtures the glob takes with fresh builds, writing nothing in the corpus: each committed one, each
     * the corpus lacks, each it holds that no scenario writes; with every fixture taken, also the entries that belong to
     * none; and corpus.tsv's lines for the fixtures taken.
     */
    public CorpusReport check(FixtureGlob glob, CorpusListener listener) throws IOException {
        return run(glob, listener, false);
    }

    /**
     * Rewrites the fixtures the glob takes where they differ from fresh builds, writes those the corpus lacks, deletes
     * those no scenario writes (and, with every fixture taken, the entries that belong to none and emptied folders), and
     * rewrites corpus.tsv (keeping the lines of fixtures the glob does not take); reports what it changed.
     */
    public CorpusReport update(FixtureGlob glob, CorpusListener listener) throws IOException {
        return run(glob, listener, true);
    }

    private CorpusReport run(FixtureGlob glob, CorpusListener listener, boolean update) throws IOException {
        TreeSet<GoldenFixture> taken = new TreeSet<>();
        fixtures().stream().filter(f -> glob.matches(f.id())).forEach(taken::add);
        List<GoldenFixture> committed = Files.isDirectory(dir) ? committed() : List.of();
        committed.stream().filter(f -> glob.matches(f.id())).forEach(taken::add);
        List<String> strays = glob.all() && Files.isDirectory(dir) ? strays() : List.of();
        if (update) {
            Files.createDirectories(dir);
        }
        List<GoldenFixture> order = List.copyOf(taken);
        List<Done> done = runAll(order, update, listener);
        List<FixtureOutcome> outcomes = done.stream().map(Done::outcome).toList();
        List<IndexRow> fresh = done.stream().map(Done::row).filter(Objects::nonNull).toList();

        Path indexFile = dir.resolve(CorpusIndex.NAME);
        // corpus.tsv: its lines of the fixtures taken, against the fresh ones
        byte[] before = committedIndex(indexFile, glob);
        byte[] after = CorpusIndex.format(fresh).getBytes(StandardCharsets.UTF_8);
        Optional<FileDifference> index = before == null
                ? Optional.of(LineDiff.onlyIn(CorpusIndex.NAME, Presence.ONLY_IN_BUILD, after))
                : LineDiff.compare(CorpusIndex.NAME, before, after);
        if (update) {
            for (String stray : strays) {
                FileTrees.deleteTree(dir.resolve(stray));
            }
            deleteEmptyFolders();
            List<IndexRow> rows = new ArrayList<>(fresh);
            if (!glob.all() && Files.isRegularFile(indexFile, LinkOption.NOFOLLOW_LINKS)) {
                // the lines of the fixtures this run did not take stay as they are
                try {
                    CorpusIndex.read(indexFile).stream().filter(r -> !glob.matches(idOf(r))).forEach(rows::add);
                } catch (IOException e) {
                    throw new IOException(e.getMessage() + " (an update of every fixture rewrites it)", e);
                }
            }
            byte[] text = CorpusIndex.format(rows).getBytes(StandardCharsets.UTF_8);
            if (!Files.isRegularFile(indexFile, LinkOption.NOFOLLOW_LINKS) || !Arrays.equals(Files.readAllBytes(indexFile), text)) {
                writeAtomically(indexFile, text);
            }
        }
        return new CorpusReport(outcomes, strays, index);
    }

    /** One fixture's outcome and, unless it was removed, its fresh corpus.tsv row. */
    private record Done(FixtureOutcome outcome, IndexRow row) {
    }

    private List<Done> runAll(List<GoldenFixture> order, boolean update, CorpusListener listener) throws IOException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(jobs, Math.max(1, order.size())), r -> {
            Thread t = new Thread(r, "clrheap-golden");
            t.setDaemon(true);
            return t;
        });
        int[] count = {0};
        try {
            List<Future<Done>> futures = new ArrayList<>();
            for (GoldenFixture f : order) {
                futures.add(pool.submit(() -> {
                    Done d = one(f, update);
                    synchronized (count) {
                        listener.finished(d.outcome(), ++count[0], order.size());
                    }
                    return d;
                }));
            }
            List<Done> done = new ArrayList<>();
            for (int i = 0; i < futures.size(); i++) {
                try {
                    done.add(futures.get(i).get());
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    String what = order.get(i).id() + ": " + (cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage());
                    if (cause instanceof IllegalArgumentException) {
                        throw new IllegalArgumentException(what, cause); // a scenario the emulator cannot build
                    }
                    throw new IOException(what, cause);
                }
            }
            return done;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while building the golden corpus", e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Compares one fixture with a fresh build (in the system's temporary folder for a check, beside it for an update) and installs it. */
    private Done one(GoldenFixture fixture, boolean update) throws IOException {
        if (scenario(fixture).isEmpty()) {
            if (update) {
                FileTrees.deleteTree(fixture.file(dir));
                FileTrees.deleteTree(fixture.expected(dir));
            }
            return new Done(new Removed(fixture, whyNot(fixture)), null);
        }
        Path target = dir.resolve(fixture.folder());
        // an update builds beside the fixture, so that installing it is a rename within one file system
        Path fresh = update
                ? Files.createTempDirectory(Files.createDirectories(target), STAGING + fixture.name() + ".")
                : Files.createTempDirectory("clrheap-golden-");
        InProgressFiles.register(fresh, update ? target.resolve(fixture.fileName()) + ", " + target.resolve(fixture.expectedName()) + "/"
                : fresh + "/ (a fresh build of " + fixture.id() + " to compare)");
        try {
            IndexRow row = write(fixture, fresh);
            FixtureOutcome outcome = compare(fixture, dir, fresh);
            if (update && !(outcome instanceof Unchanged)) {
                install(fixture, fresh.resolve(fixture.folder()), target);
            }
            return new Done(outcome, row);
        } finally {
            FileTrees.deleteTree(fresh);
            InProgressFiles.unregister(fresh);
        }
    }

    /** Moves the fixture's file and expected folder from {@code from} into {@code to}, replacing what is there. */
    private static void install(GoldenFixture fixture, Path from, Path to) throws IOException {
        Files.move(from.resolve(fixture.fileName()), to.resolve(fixture.fileName()), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
        Path expected = to.resolve(fixture.expectedName());
        if (Files.exists(expected, LinkOption.NOFOLLOW_LINKS)) {
            // a folder cannot replace a folder in one move: the old one steps aside (within the same folder) first
            Path old = Files.createTempDirectory(to, STAGING + fixture.name() + ".old.");
            Files.move(expected, old.resolve(fixture.expectedName()), StandardCopyOption.ATOMIC_MOVE);
            Files.move(from.resolve(fixture.expectedName()), expected, StandardCopyOption.ATOMIC_MOVE);
            FileTrees.deleteTree(old);
        } else {
            Files.move(from.resolve(fixture.expectedName()), expected, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    private IndexRow row(GoldenFixture fixture, Scenario scenario, Path folder) throws IOException {
        ObjectTotals totals = ObjectTotals.of(folder.resolve(fixture.expectedName()).resolve("dumpheap-stat.txt"));
        return new IndexRow(fixture.path(), scenario.runtime().shortName(), scenario.gc().id(), scenario.heaps(),
                scenario.seed(), totals.objects(), totals.bytes(), sha256(folder.resolve(fixture.fileName())));
    }

    /** {@code net8-server/default} from the row's path {@code net8-server/default.clrheap.tar.xz} (or {@code net8-windows-server/default.dmp.xz}). */
    static String idOf(IndexRow row) {
        return GoldenFixture.ofPath(row.path()).map(GoldenFixture::id).orElse(row.path());
    }

    /** The committed corpus.tsv, or its lines of the fixtures the glob takes; null when there is none. */
    private static byte[] committedIndex(Path file, FixtureGlob glob) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        if (glob.all()) {
            return Files.readAllBytes(file);
        }
        try {
            return CorpusIndex.format(CorpusIndex.read(file).stream().filter(r -> glob.matches(idOf(r))).toList()).getBytes(StandardCharsets.UTF_8);
        } catch (IOException e) {
            return Files.readAllBytes(file); // not in its format: compared whole, it differs, as it should
        }
    }

    /** How the bundles differ: sizes, first byte, and which entries (read with the walker's checking reader). */
    private static Optional<BundleDifference> compareBundles(Path committed, Path fresh) throws IOException {
        if (!Files.isRegularFile(committed, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.of(new BundleDifference(Presence.ONLY_IN_BUILD, -1, Files.size(fresh), -1, List.of()));
        }
        long offset = Files.mismatch(committed, fresh);
        if (offset < 0) {
            return Optional.empty();
        }
        return Optional.of(new BundleDifference(Presence.BOTH, Files.size(committed), Files.size(fresh), offset, changedEntries(committed, fresh)));
    }

    private static List<String> changedEntries(Path committed, Path fresh) throws IOException {
        Map<String, BundleEntry> before;
        try (Bundle b = Bundle.open(committed)) {
            before = entries(b);
        } catch (IOException e) {
            return List.of("the corpus's bundle cannot be read: " + e.getMessage());
        }
        Map<String, BundleEntry> after;
        try (Bundle b = Bundle.open(fresh)) {
            after = entries(b);
        }
        TreeSet<String> names = new TreeSet<>(before.keySet());
        names.addAll(after.keySet());
        List<String> changed = names.stream().filter(n -> !Objects.equals(before.get(n), after.get(n))).toList();
        return changed.isEmpty() ? List.of("manifest.json") : changed; // the same entries: only the manifest's own fields differ
    }

    private static Map<String, BundleEntry> entries(Bundle bundle) {
        Map<String, BundleEntry> entries = new TreeMap<>();
        bundle.manifest().entries().forEach(e -> entries.put(e.name(), e));
        return entries;
    }

    /** The expected files that differ: the ones clrheap writes, then anything else in the committed folder. */
    private static List<FileDifference> compareExpected(Path committed, Path fresh) throws IOException {
        List<String> names = new ArrayList<>(EXPECTED_FILES);
        if (Files.isDirectory(committed, LinkOption.NOFOLLOW_LINKS)) {
            list(committed).stream().map(p -> p.getFileName().toString()).filter(n -> !EXPECTED_FILES.contains(n)).sorted().forEach(names::add);
        }
        List<FileDifference> differences = new ArrayList<>();
        for (String name : names) {
            byte[] a = regularFile(committed.resolve(name));
            byte[] b = regularFile(fresh.resolve(name));
            if (a == null && b != null) {
                differences.add(LineDiff.onlyIn(name, Presence.ONLY_IN_BUILD, b));
            } else if (a != null && b == null) {
                differences.add(LineDiff.onlyIn(name, Presence.ONLY_IN_CORPUS, a));
            } else if (a == null) {
                differences.add(LineDiff.onlyIn(name, Presence.ONLY_IN_CORPUS, new byte[0])); // a link or folder where a file belongs
            } else {
                LineDiff.compare(name, a, b).ifPresent(differences::add);
            }
        }
        return differences;
    }

    /** The bytes of {@code file} when it is a regular file (links are not followed); else null. */
    private static byte[] regularFile(Path file) throws IOException {
        return Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) ? Files.readAllBytes(file) : null;
    }

    /**
     * The fixture an entry of a corpus folder belongs to: its file (a bundle in a Linux folder, a compressed minidump in
     * a Windows one) or {@code NAME.expected} (a folder).
     */
    private static Optional<GoldenFixture> fixtureOf(Path folder, Path entry) {
        String file = entry.getFileName().toString();
        String folderName = folder.getFileName().toString();
        if (file.endsWith(GoldenFixture.EXPECTED_SUFFIX) && Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
            try {
                return Optional.of(new GoldenFixture(folderName, file.substring(0, file.length() - GoldenFixture.EXPECTED_SUFFIX.length())));
            } catch (IllegalArgumentException e) {
                return Optional.empty(); // not a scenario name (e.g. a hidden staging folder): a stray
            }
        }
        if (!Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        return GoldenFixture.ofPath(folderName + "/" + file);
    }

    /** Whether {@code entry} is an older clrheap's decompressed copy of the compressed minidump beside it. */
    private static boolean isWalkersCopy(Path entry) {
        String file = entry.getFileName().toString();
        return file.endsWith(FixtureFormat.MINIDUMP.suffix() + ".decompressed")
                && Files.isRegularFile(entry.resolveSibling(file.substring(0, file.length() - ".decompressed".length()) + ".xz"), LinkOption.NOFOLLOW_LINKS);
    }

    /** The corpus's {@code <runtime>-<gc>} and {@code <runtime>-windows-<gc>} folders, by name. */
    private List<Path> corpusFolders() throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        return list(dir).stream().filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && GoldenFixture.isFolderName(p.getFileName().toString()))
                .toList();
    }

    private void deleteEmptyFolders() throws IOException {
        for (Path folder : corpusFolders()) {
            if (list(folder).isEmpty()) {
                Files.delete(folder);
            }
        }
    }

    /** The entries of a folder, sorted by name. */
    private static List<Path> list(Path folder) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
            List<Path> all = new ArrayList<>();
            entries.forEach(all::add);
            all.sort(Comparator.comparing(p -> p.getFileName().toString()));
            return all;
        }
    }

    /** Writes {@code file} beside itself and moves it over the old one: a reader sees the old bytes or the new ones. */
    static void writeAtomically(Path file, byte[] content) throws IOException {
        PendingFile.write(file, partial -> Files.write(partial, content));
    }

    /** The file's SHA-256, lowercase hex, as corpus.tsv writes it. */
    static String sha256(Path file) throws IOException {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256 (MessageDigest spec)", e);
        }
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                sha.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }
}
