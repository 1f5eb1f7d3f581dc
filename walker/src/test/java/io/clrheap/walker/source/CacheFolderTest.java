package io.clrheap.walker.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** $CLRHEAP_CACHE, else $XDG_CACHE_HOME/clrheap, else ~/.cache/clrheap; decompressed cores in cores/ under it. */
class CacheFolderTest {

    private static final String HOME = "/home/someone";

    @Test
    void clrheapCacheWinsOverEverything() {
        assertThat(CacheFolder.of(Map.of("CLRHEAP_CACHE", "/c", "XDG_CACHE_HOME", "/x"), HOME).root()).isEqualTo(Path.of("/c"));
    }

    @Test
    void xdgCacheHomeComesNextWithAClrheapFolder() {
        assertThat(CacheFolder.of(Map.of("XDG_CACHE_HOME", "/x"), HOME).root()).isEqualTo(Path.of("/x", "clrheap"));
    }

    @Test
    void withNeitherItIsTheHomeFoldersDotCache() {
        assertThat(CacheFolder.of(Map.of(), HOME).root()).isEqualTo(Path.of(HOME, ".cache", "clrheap"));
    }

    @Test
    void blankVariablesCountAsUnset() {
        assertThat(CacheFolder.of(Map.of("CLRHEAP_CACHE", "", "XDG_CACHE_HOME", " "), HOME).root())
                .isEqualTo(Path.of(HOME, ".cache", "clrheap"));
    }

    @Test
    void decompressedCoresHaveAFolderOfTheirOwnBesideTheDownloadedRuntimes() {
        CacheFolder folder = CacheFolder.of(Map.of(), HOME);
        assertThat(folder.cores()).isEqualTo(folder.root().resolve("cores")).isNotEqualTo(folder.root().resolve("runtimes"));
    }
}
