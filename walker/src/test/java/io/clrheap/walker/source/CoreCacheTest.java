package io.clrheap.walker.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cache the environment names: its cores folder and its bound, $CLRHEAP_CACHE_MAX with k, m or g. */
class CoreCacheTest {

    @Test
    void theEnvironmentsCacheIsTheCoresFolderOfItsCacheFolder() throws IOException {
        Map<String, String> environment = Map.of("XDG_CACHE_HOME", "/x");
        assertThat(CoreCache.of(environment, "/h").folder()).isEqualTo(CacheFolder.of(environment, "/h").cores());
    }

    @Test
    void theBoundIsTheDefaultWithoutClrheapCacheMax() throws IOException {
        assertThat(CoreCache.of(Map.of(), "/h").maxBytes()).isEqualTo(CoreCache.DEFAULT_MAX_BYTES);
    }

    @Test
    void clrheapCacheMaxTakesBytesOrAKMOrGSuffixOfPowersOf1024() throws IOException {
        assertThat(CoreCache.of(Map.of("CLRHEAP_CACHE_MAX", "1000"), "/h").maxBytes()).isEqualTo(1000);
        assertThat(CoreCache.size("3k")).isEqualTo(3 * 1024);
        assertThat(CoreCache.size("500M")).isEqualTo(500L * 1024 * 1024);
        assertThat(CoreCache.size(" 2g ")).isEqualTo(2L * 1024 * 1024 * 1024);
    }

    @Test
    void aClrheapCacheMaxThatIsNoSizeIsRefusedQuotingIt() {
        assertThatThrownBy(() -> CoreCache.of(Map.of("CLRHEAP_CACHE_MAX", "lots"), "/h"))
                .isInstanceOf(IOException.class).hasMessageContaining("$CLRHEAP_CACHE_MAX is 'lots', not a size");
        assertThatThrownBy(() -> CoreCache.size("-1g")).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> CoreCache.size("99999999999g")).isInstanceOf(IOException.class);
    }

    @Test
    void anExplicitCacheResolvesToItself() throws IOException {
        CoreCache folder = CoreCache.inFolder(Path.of("/somewhere"), 5);
        assertThat(folder.resolved()).isEqualTo(folder);
        assertThat(CoreCache.temporary().resolved()).isEqualTo(CoreCache.temporary());
        assertThat(CoreCache.fromEnvironment().resolved()).isInstanceOf(CoreCache.InFolder.class);
    }
}
