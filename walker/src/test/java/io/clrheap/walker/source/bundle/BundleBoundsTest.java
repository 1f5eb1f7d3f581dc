package io.clrheap.walker.source.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What extracting a bundle may write: no more than the free space allows, and nothing once it fails or is mapped
 * (digest, size and truncation failures: {@link BundleRejectionTest}, which checks the temporary folder after each).
 */
class BundleBoundsTest {

    private static final long HUGE = 1L << 44; // 16 TiB: more than any test machine has free
    private static final String HEAP_ENTRY = TestBundle.memoryName(0x10000000L);

    @TempDir
    Path dir;

    private Path temp() throws IOException {
        return Files.createDirectories(dir.resolve("tmp"));
    }

    private Path write(byte[] bytes) throws IOException {
        return Files.write(dir.resolve("b.clrheap.tar.xz"), bytes);
    }

    private long left(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.count();
        }
    }

    @Test
    void anEntryDeclaredLargerThanTheFreeSpaceIsRefusedBeforeAnythingIsWritten() throws IOException {
        TestBundle bundle = TestBundle.typical().patchManifest(s -> s
                .replace("\"length\": 4096", "\"length\": " + HUGE)
                .replaceFirst("(\"name\": \"" + HEAP_ENTRY + "\", \"size\": )4096", "$1" + HUGE));
        Path file = write(bundle.build());
        BundleLimits roomy = new BundleLimits(100, 1L << 60, 1L << 60, 1 << 20, 1 << 20);
        Path temp = temp();
        assertThatThrownBy(() -> Bundle.open(file, roomy, temp).close())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("cannot extract " + file + " into " + temp)
                .hasMessageMatching("(?s).*it needs \\d+ bytes, .* has \\d+ bytes free.*");
        assertThat(left(temp)).isZero();
    }

    @Test
    void anEntryDeclaringMoreThanAnyBuildWritesIsRefusedFromTheManifestAtOnce() throws IOException {
        // the tester's case: a small bundle whose manifest declares a 63 GiB range, under the old 64 GiB cap
        long declared = 63L << 30;
        TestBundle bundle = TestBundle.typical().patchManifest(s -> s
                .replace("\"length\": 4096", "\"length\": " + declared)
                .replaceFirst("(\"name\": \"" + HEAP_ENTRY + "\", \"size\": )4096", "$1" + declared));
        Path file = write(bundle.build());
        Path temp = temp();
        assertThatThrownBy(() -> Bundle.open(file, BundleLimits.DEFAULT, temp).close())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("declares " + declared + " bytes; the cap is " + (16L << 30) + " (BundleLimits.maxEntryBytes)");
        assertThat(left(temp)).isZero();
        assertThat(left(dir)).as("only the bundle itself").isEqualTo(2); // the bundle and the tmp folder
    }

    @Test
    void anOpenBundleKeepsNoRegisteredTemporaryFile() throws IOException {
        Path file = write(TestBundle.typical().build());
        Path temp = temp();
        try (Bundle bundle = Bundle.open(file, BundleLimits.DEFAULT, temp)) {
            assertThat(bundle.readByte(0x10000000L)).isEqualTo(TestBundle.pattern(0x1000, 2)[0]);
            assertThat(left(temp)).as("unlinked once mapped").isZero();
        }
    }
}
