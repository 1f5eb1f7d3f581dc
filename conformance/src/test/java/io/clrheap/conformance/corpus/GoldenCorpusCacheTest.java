package io.clrheap.conformance.corpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.conformance.FixtureGlob;
import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The golden corpus outside a clone: built again into a cache folder, only the fixtures a run takes, each checked against
 * the released corpus.tsv; what the cache holds with the right digest is used as it is, anything else built again.
 */
class GoldenCorpusCacheTest {

    /** A heap of a few dozen objects: quick to build. */
    private static final Scenario TINY = Scenario.builder("tiny").description("a few objects in every generation")
            .runtime(RuntimeVersion.NET8).gc(GcFlavor.SERVER).heaps(2).threads(2).objects(20, 10, 10, 1, 1).frozenStrings(2).handlesPerKind(1).seed(3)
            .build();
    private static final GoldenFixture NET8_TINY = GoldenFixture.of("tiny", RuntimeVersion.NET8, GcFlavor.SERVER);

    /** The corpus.tsv of the "released" corpus: every fixture of TINY, as an update wrote it. */
    private static byte[] released;

    @TempDir
    static Path release;

    @TempDir
    Path cacheRoot;

    @BeforeAll
    static void aReleasedCorpus() throws IOException {
        builder(release).update(FixtureGlob.ALL, CorpusListener.NONE);
        released = Files.readAllBytes(release.resolve(CorpusIndex.NAME));
    }

    private static GoldenCorpus builder(Path folder) {
        return new GoldenCorpus(folder, List.of(TINY), "0.0.0-test", 1);
    }

    private record Ready(String fixture, boolean built) {
    }

    private static List<Ready> prepare(GoldenCorpusCache cache, String glob) throws IOException {
        List<Ready> heard = new ArrayList<>();
        cache.prepare(new FixtureGlob(List.of(glob)), (fixture, built, done, total) -> heard.add(new Ready(fixture, built)));
        return heard;
    }

    @Test
    void onlyTheFixturesTheGlobTakesAreBuiltEachTheReleasedBundleByteForByte() throws IOException {
        GoldenCorpusCache cache = new GoldenCorpusCache(cacheRoot, released, builder(cacheRoot));

        assertThat(prepare(cache, "net8-*/tiny")).containsExactly(new Ready("net8-server/tiny", true), new Ready("net8-windows-server/tiny", true),
                new Ready("net8-windows-workstation/tiny", true), new Ready("net8-workstation/tiny", true));
        assertThat(Files.readAllBytes(NET8_TINY.file(cache.dir()))).isEqualTo(Files.readAllBytes(NET8_TINY.file(release)));
        assertThat(Files.readString(NET8_TINY.expected(cache.dir()).resolve("eeheap.txt")))
                .isEqualTo(Files.readString(NET8_TINY.expected(release).resolve("eeheap.txt")));
        assertThat(GoldenFixture.of("tiny", RuntimeVersion.NET9, GcFlavor.SERVER).file(cache.dir())).doesNotExist();
        assertThat(Files.readAllBytes(cache.dir().resolve(CorpusIndex.NAME))).isEqualTo(released);
    }

    @Test
    void aSecondRunUsesTheCachedFixturesWithoutBuildingThem() throws IOException {
        GoldenCorpusCache cache = new GoldenCorpusCache(cacheRoot, released, builder(cacheRoot));
        prepare(cache, "net8-server/tiny");

        assertThat(prepare(cache, "net8-server/tiny")).containsExactly(new Ready("net8-server/tiny", false));
    }

    @Test
    void aCachedBundleWhoseDigestIsWrongIsBuiltAgain() throws IOException {
        GoldenCorpusCache cache = new GoldenCorpusCache(cacheRoot, released, builder(cacheRoot));
        prepare(cache, "net8-server/tiny");
        Files.write(NET8_TINY.file(cache.dir()), new byte[] {1, 2, 3});

        assertThat(prepare(cache, "net8-server/tiny")).containsExactly(new Ready("net8-server/tiny", true));
        assertThat(Files.readAllBytes(NET8_TINY.file(cache.dir()))).isEqualTo(Files.readAllBytes(NET8_TINY.file(release)));
    }

    @Test
    void aWindowsFixtureIsBuiltWithItsLinuxTwinWhoseBundleHoldsTheirAnswerKey() throws IOException {
        GoldenCorpusCache cache = new GoldenCorpusCache(cacheRoot, released, builder(cacheRoot));
        GoldenFixture windows = GoldenFixture.of("tiny", RuntimeVersion.NET10, Platform.WINDOWS, GcFlavor.WORKSTATION);

        assertThat(prepare(cache, windows.id())).containsExactly(new Ready("net10-windows-workstation/tiny", true), new Ready("net10-workstation/tiny", true));

        assertThat(Files.readAllBytes(windows.file(cache.dir()))).isEqualTo(Files.readAllBytes(windows.file(release)));
        assertThat(windows.linuxTwin().file(cache.dir())).isRegularFile();
    }

    @Test
    void aFixtureBuiltHereThatDiffersFromTheReleasedOneIsAnErrorNamingIt() {
        String text = new String(released, StandardCharsets.UTF_8);
        String line = text.lines().filter(l -> l.startsWith("net8-server/tiny.")).findFirst().orElseThrow();
        String[] f = line.split("\t");
        String lying = String.join("\t", f[0], f[1], f[2], f[3], f[4], String.valueOf(Long.parseLong(f[5]) + 1), f[6], f[7]);
        GoldenCorpusCache cache = new GoldenCorpusCache(cacheRoot, text.replace(line, lying).getBytes(StandardCharsets.UTF_8), builder(cacheRoot));

        assertThatThrownBy(() -> prepare(cache, "net8-server/tiny")).isInstanceOf(IOException.class)
                .hasMessageContaining("net8-server/tiny").hasMessageContaining("differs from the one this clrheap was released with")
                .hasMessageContaining((Long.parseLong(f[5]) + 1) + " objects");
    }

    @Test
    void anotherReleasedCorpusGetsAnotherCacheFolder() {
        byte[] other = new String(released, StandardCharsets.UTF_8).replace("net8-server/tiny", "net8-server/tinx").getBytes(StandardCharsets.UTF_8);

        Path one = new GoldenCorpusCache(cacheRoot, released, builder(cacheRoot)).dir();
        Path two = new GoldenCorpusCache(cacheRoot, other, builder(cacheRoot)).dir();

        assertThat(one).isNotEqualTo(two);
        assertThat(one.getParent()).isEqualTo(cacheRoot);
    }

    @Test
    void aReleasedIndexWithoutItsHeaderIsRefused() {
        GoldenCorpusCache cache = new GoldenCorpusCache(cacheRoot, "path\tnothing\n".getBytes(StandardCharsets.UTF_8), builder(cacheRoot));

        assertThatThrownBy(() -> prepare(cache, "*/*")).isInstanceOf(IOException.class).hasMessageContaining("header");
    }

    @Test
    void theJarCarriesTheCorpusTsvTheProjectCommits() throws IOException {
        Path committed = Path.of("..", "golden", "synthetic", CorpusIndex.NAME);
        assertThat(GoldenCorpusCache.releasedIndex()).hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(readAll(committed)));
    }

    private static byte[] readAll(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new AssertionError(file + " cannot be read", e);
        }
    }
}
