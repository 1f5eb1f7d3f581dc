package io.clrheap.conformance.corpus;

import io.clrheap.conformance.FixtureGlob;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Locale;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The golden corpus outside a clone of the project: the fixtures are not shipped, they are built again — the emulator
 * and writers are deterministic, so a build is byte for byte the committed corpus — into a cache folder, and each is
 * checked against the {@code corpus.tsv} this clrheap was built with (its SHA-256, objects and bytes). Only the fixtures
 * a run takes are built; those already in the cache with the right digest are used as they are.
 *
 * <p>The cache folder is named for the released index's digest, so a clrheap with another corpus never reads this one.
 */
public final class GoldenCorpusCache {

    /** Where the jar keeps the corpus.tsv it was built with (copied from golden/synthetic by the build). */
    public static final String RELEASED_INDEX = "/io/clrheap/conformance/corpus/corpus.tsv";

    private final Path cacheRoot;
    private final byte[] releasedIndex;
    private final GoldenCorpus builder;

    /**
     * @param cacheRoot     the user's clrheap cache folder ({@code CacheFolder}); the corpus goes in a folder of its own under it
     * @param releasedIndex the corpus.tsv the fixtures must match
     * @param builder       builds fixtures (its own folder is not used)
     */
    public GoldenCorpusCache(Path cacheRoot, byte[] releasedIndex, GoldenCorpus builder) {
        this.cacheRoot = Objects.requireNonNull(cacheRoot, "cacheRoot");
        this.releasedIndex = releasedIndex.clone();
        this.builder = Objects.requireNonNull(builder, "builder");
    }

    /** The corpus.tsv packaged with this clrheap, when it was built with one. */
    public static Optional<byte[]> releasedIndex() throws IOException {
        try (InputStream in = GoldenCorpusCache.class.getResourceAsStream(RELEASED_INDEX)) {
            return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
        }
    }

    /** The corpus folder in the cache: {@code golden-synthetic-} and the first 16 hex digits of the released index's SHA-256. */
    public Path dir() {
        return cacheRoot.resolve("golden-synthetic-" + HexFormat.of().formatHex(digest(releasedIndex)).substring(0, 16));
    }

    /** Hears of each fixture as it is found in the cache or built. */
    @FunctionalInterface
    public interface Listener {

        /** Hears nothing. */
        Listener NONE = (fixture, built, done, total) -> { };

        /**
         * @param fixture the fixture's id, {@code net8-server/default}
         * @param built   whether it was built now (else found in the cache)
         * @param done    fixtures done so far, this one included
         * @param total   fixtures the run takes
         */
        void ready(String fixture, boolean built, int done, int total);
    }

    /**
     * Makes sure the cache holds every fixture of the released index the glob takes, each with the digest the index
     * gives, and a copy of the index; returns the corpus folder. A Windows fixture brings its Linux twin, whose bundle
     * holds the answer key's objects.tsv ({@link GoldenSuiteFixture}).
     *
     * @throws IOException when the released index cannot be read, the cache cannot be written, or a fixture built here
     *                     differs from the released one (the message names the fixture and what differs)
     */
    public Path prepare(FixtureGlob glob, Listener listener) throws IOException {
        Path dir = dir();
        List<IndexRow> rows = CorpusIndex.parse(new String(releasedIndex, StandardCharsets.UTF_8).lines().toList(),
                "the released corpus.tsv (" + RELEASED_INDEX + ")");
        Set<String> ids = new HashSet<>();
        for (IndexRow row : rows) {
            if (glob.matches(GoldenCorpus.idOf(row))) {
                ids.add(GoldenCorpus.idOf(row));
                ids.add(fixtureOf(row).linuxTwin().id());
            }
        }
        List<IndexRow> taken = new ArrayList<>();
        for (IndexRow row : rows) {
            if (ids.contains(GoldenCorpus.idOf(row))) {
                taken.add(row);
            }
        }
        Files.createDirectories(dir);
        int done = 0;
        for (IndexRow row : taken) {
            GoldenFixture fixture = fixtureOf(row);
            boolean built = !isCached(fixture, dir, row);
            if (built) {
                IndexRow fresh = builder.write(fixture, dir);
                if (!fresh.equals(row)) {
                    throw new IOException(fixture.id() + ": the fixture built here differs from the one this clrheap was released with ("
                            + difference(row, fresh) + "); the cache " + dir + " is not usable");
                }
            }
            listener.ready(fixture.id(), built, ++done, taken.size());
        }
        Path index = dir.resolve(CorpusIndex.NAME);
        if (!Files.isRegularFile(index, LinkOption.NOFOLLOW_LINKS) || !Arrays.equals(Files.readAllBytes(index), releasedIndex)) {
            GoldenCorpus.writeAtomically(index, releasedIndex);
        }
        return dir;
    }

    /** Whether the cache holds the fixture's file with the index's digest and its folder of expected outputs. */
    private static boolean isCached(GoldenFixture fixture, Path dir, IndexRow row) throws IOException {
        Path file = fixture.file(dir);
        return Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && Files.isDirectory(fixture.expected(dir), LinkOption.NOFOLLOW_LINKS)
                && GoldenCorpus.EXPECTED_FILES.stream().allMatch(f -> Files.isRegularFile(fixture.expected(dir).resolve(f), LinkOption.NOFOLLOW_LINKS))
                && GoldenCorpus.sha256(file).equals(row.sha256());
    }

    private static String difference(IndexRow released, IndexRow fresh) {
        if (released.objects() != fresh.objects() || released.bytes() != fresh.bytes()) {
            return String.format(Locale.ROOT, "%d objects, %d bytes released; %d objects, %d bytes built",
                    released.objects(), released.bytes(), fresh.objects(), fresh.bytes());
        }
        return "SHA-256 " + released.sha256() + " released, " + fresh.sha256() + " built";
    }

    private static GoldenFixture fixtureOf(IndexRow row) throws IOException {
        return GoldenFixture.ofPath(row.path()).orElseThrow(() -> new IOException("the released corpus.tsv names '" + row.path()
                + "', which is no <runtime>-<gc>/NAME.clrheap.tar.xz nor <runtime>-windows-<gc>/NAME.dmp.xz"));
    }

    private static byte[] digest(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256 (MessageDigest spec)", e);
        }
    }
}
