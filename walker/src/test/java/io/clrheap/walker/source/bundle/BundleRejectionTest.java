package io.clrheap.walker.source.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.walker.source.DumpFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Hostile and broken bundles, each made by hand: every one is refused with a {@link DumpFormatException} naming the
 * bundle and what is wrong, and no temporary file is left behind.
 */
class BundleRejectionTest {

    private static final String HEAP_ENTRY = TestBundle.memoryName(0x10000000L);

    @TempDir
    Path dir;

    private Path write(byte[] bytes) throws IOException {
        return Files.write(dir.resolve("bad.clrheap.tar.xz"), bytes);
    }

    private void assertRefused(TestBundle bundle, String... fragments) throws IOException {
        assertRefused(write(bundle.build()), BundleLimits.DEFAULT, fragments);
    }

    private void assertRefused(Path file, BundleLimits limits, String... fragments) throws IOException {
        Path temp = Files.createDirectories(dir.resolve("tmp"));
        assertThatThrownBy(() -> Bundle.open(file, limits, temp).close())
                .isInstanceOf(DumpFormatException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContainingAll(fragments);
        try (var files = Files.list(temp)) {
            assertThat(files).as("temporary files left behind").isEmpty();
        }
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    // ---- names ----

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "../x|'../x' is an entry name with a '..' component (a path escape)",
        "answer/../../etc/x|a '..' component",
        "/etc/x|'/etc/x' is an absolute entry name",
        "answer\\x|an entry name with a backslash",
        "answer//x|an empty or '.' component",
        "answer/./x|an empty or '.' component",
        "C:/x|a ':'",
    })
    void refusesAnEntryWhoseNameCouldEscapeTheDirectory(String name, String message) throws IOException {
        assertRefused(TestBundle.typical().extra(tar -> tar.file(name, text("escape"))), message, "tar header at offset");
    }

    @Test
    void refusesAnEntryNameWithANulCharacter() throws IOException {
        assertRefused(TestBundle.typical().extra(tar -> tar.extended(Map.of("path", "answer/a\0b")).file("answer/a", text("x"))),
                "a NUL character");
    }

    @Test
    void refusesAManifestThatListsAnEscapingName() throws IOException {
        assertRefused(TestBundle.typical().entry("answer/../x", text("x")),
                "manifest.json", "entries[4]", "a '..' component (a path escape)");
    }

    // ---- entry types ----

    @ParameterizedTest(name = "type {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "2|a symbolic link (type '2')",
        "1|a hard link (type '1')",
        "3|a character device (type '3')",
        "4|a block device (type '4')",
        "5|a directory (type '5')",
        "6|a FIFO (type '6')",
        "g|a global extended header (type 'g')",
        "L|a GNU long name or link header (type 'L')",
        "S|a GNU sparse file (type 'S')",
    })
    void refusesEveryEntryThatIsNotARegularFile(char type, String message) throws IOException {
        assertRefused(TestBundle.typical().extra(tar -> tar.entry("answer/link", type, new byte[0], 0)),
                "entry 'answer/link' is " + message, "a bundle holds regular files only");
    }

    // ---- what the manifest lists ----

    @Test
    void refusesAnEntryWhoseDigestDiffersFromTheManifest() throws IOException {
        byte[] tampered = TestBundle.pattern(0x1000, 2);
        tampered[100] ^= 1;
        assertRefused(TestBundle.typical().tarBytes(HEAP_ENTRY, tampered),
                "entry " + HEAP_ENTRY, "the SHA-256 of its 4096 bytes is " + TestBundle.sha256(tampered),
                "the manifest records " + TestBundle.sha256(TestBundle.pattern(0x1000, 2)));
    }

    @Test
    void refusesAnEntryTheManifestDoesNotList() throws IOException {
        assertRefused(TestBundle.typical().extra(tar -> tar.file("answer/unlisted.txt", text("x"))),
                "entry answer/unlisted.txt is not listed in the manifest");
    }

    @Test
    void refusesAnEntryThatAppearsTwice() throws IOException {
        assertRefused(TestBundle.typical().extra(tar -> tar.file("type-names.txt", text("0x1 A\n"))),
                "entry type-names.txt appears twice in the archive");
    }

    @Test
    void refusesASecondManifest() throws IOException {
        assertRefused(TestBundle.typical().extra(tar -> tar.file("manifest.json", text("{}"))),
                "entry manifest.json appears twice in the archive");
    }

    @Test
    void refusesAListedEntryThatIsMissing() throws IOException {
        assertRefused(TestBundle.typical().omit("answer/objects.tsv"),
                "entry answer/objects.tsv is listed in the manifest but is not in the archive");
    }

    @Test
    void refusesAnArchiveWhoseFirstEntryIsNotTheManifest() throws IOException {
        assertRefused(TestBundle.typical().first(tar -> tar.file("answer/early.txt", text("x"))),
                "the first entry is 'answer/early.txt'; it must be manifest.json");
    }

    @Test
    void refusesAnUnknownFormatVersion() throws IOException {
        assertRefused(TestBundle.typical().formatVersion(2), "formatVersion 2 is not supported");
    }

    @Test
    void refusesAManifestThatIsNotJson() throws IOException {
        assertRefused(TestBundle.typical().patchManifest(s -> s.replace("\"format\":", "format:")), "manifest.json: not valid JSON");
    }

    @Test
    void refusesAManifestWithADuplicateKey() throws IOException {
        assertRefused(TestBundle.typical().patchManifest(s -> s.replace("\"seed\": 7,", "\"seed\": 7, \"seed\": 8,")),
                "manifest.json: not valid JSON", "Duplicate field 'seed'");
    }

    @Test
    void refusesAnEntryOutsideTheFormat() throws IOException {
        assertRefused(TestBundle.typical().entry("notes.txt", text("x")), "'notes.txt' is not an entry a format-1 bundle holds");
    }

    @Test
    void refusesAMalformedAddress() throws IOException {
        assertRefused(TestBundle.typical().patchManifest(s -> s.replace("\"start\": \"0x10000000\"", "\"start\": \"0x1000000g\"")),
                "memory[1].start: '0x1000000g' is not 0x + 1 to 16 lowercase hex digits");
    }

    // ---- memory ranges ----

    @Test
    void refusesOverlappingMemoryRanges() throws IOException {
        assertRefused(TestBundle.typical().memory(0x10000800L, TestBundle.pattern(0x1000, 5)),
                "memory ranges [0x10000000, 0x10001000) (" + HEAP_ENTRY + ") and [0x10000800, 0x10001800)", "overlap");
    }

    @Test
    void refusesAMemoryRangeWhoseEntryHasAnotherLength() throws IOException {
        assertRefused(TestBundle.typical().patchManifest(s -> s.replace("\"length\": 4096", "\"length\": 8192")),
                "memory[1]: the range is 8192 bytes long but its entry " + HEAP_ENTRY + " is 4096 bytes");
    }

    @Test
    void refusesAMemoryEntryNoRangeUses() throws IOException {
        assertRefused(TestBundle.typical().entry("memory/spare.bin", new byte[16]),
                "entry memory/spare.bin is listed but no memory range uses it");
    }

    @Test
    void refusesAnEntryWhoseTarHeaderSizeDiffersFromTheManifest() throws IOException {
        assertRefused(TestBundle.typical().tarSize(HEAP_ENTRY, 1L << 40),
                "entry " + HEAP_ENTRY + ": its tar header says 1099511627776 bytes, the manifest 4096");
    }

    // ---- sizes and caps ----

    @Test
    void refusesAMemoryEntryThatClaimsAHugeSizeBeforeExtractingAnything() throws IOException {
        long huge = 1L << 40;
        TestBundle bundle = TestBundle.typical().patchManifest(s -> s
                .replace("\"length\": 4096", "\"length\": " + huge)
                .replace("\"name\": \"" + HEAP_ENTRY + "\", \"size\": 4096", "\"name\": \"" + HEAP_ENTRY + "\", \"size\": " + huge));
        assertRefused(bundle, "entry " + HEAP_ENTRY + " declares 1099511627776 bytes; the cap is 17179869184 (BundleLimits.maxEntryBytes)");
    }

    @Test
    void refusesABundleLargerThanTheTotalCap() throws IOException {
        Path file = write(TestBundle.typical().memory(0x20000000L, new byte[1 << 20]).build());
        BundleLimits small = new BundleLimits(100, 1 << 20, 512 << 10, 1 << 20, 1 << 20);
        assertRefused(file, small, "above the cap of 524288 (BundleLimits.maxTotalBytes)");
    }

    @Test
    void refusesTooManyEntries() throws IOException {
        Path file = write(TestBundle.typical().build());
        assertRefused(file, new BundleLimits(2, 1 << 20, 1 << 20, 1 << 20, 1 << 20),
                "entries: 4 items; the cap is 2 (BundleLimits.maxEntries)");
    }

    @Test
    void refusesAManifestLargerThanItsCap() throws IOException {
        Path file = write(TestBundle.typical().build());
        assertRefused(file, new BundleLimits(100, 1 << 20, 1 << 20, 100, 1 << 20),
                "entry manifest.json is", "the cap is 100 (BundleLimits.maxManifestBytes)");
    }

    @Test
    void stopsDecompressingAnArchiveThatRunsOnPastItsEnd() throws IOException {
        // 64 MiB of zeros after the end of the archive compress to a few KiB: the reader stops after 64 KiB of them
        byte[] bomb = TestBundle.typical().trailing(new byte[64 << 20]).build();
        assertThat(bomb.length).isLessThan(64 << 10);
        long started = System.nanoTime();
        assertRefused(write(bomb), BundleLimits.DEFAULT, "more than 65536 bytes of padding after the end-of-archive marker");
        assertThat(System.nanoTime() - started).as("nanoseconds to refuse").isLessThan(5_000_000_000L);
    }

    @Test
    void refusesDataAfterTheEndOfTheArchive() throws IOException {
        assertRefused(TestBundle.typical().trailing(text("hidden")), "data after the end-of-archive marker");
    }

    @Test
    void theDecompressionCapStopsAStreamThatRunsPastIt() throws IOException {
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                return 0;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                Arrays.fill(b, off, off + len, (byte) 0);
                return len;
            }
        };
        CappedInputStream capped = new CappedInputStream(endless, "bomb.clrheap.tar.xz", 1 << 20);
        assertThat(capped.readNBytes(1 << 20)).hasSize(1 << 20);
        assertThatThrownBy(() -> capped.read(new byte[10], 0, 10)).isInstanceOf(DumpFormatException.class)
                .hasMessageContaining("bomb.clrheap.tar.xz: the archive decompresses past 1048576 bytes, more than its manifest declares");
    }

    // ---- the xz and tar layers ----

    @Test
    void refusesATruncatedXzStream() throws IOException {
        byte[] whole = TestBundle.typical().build();
        assertRefused(write(Arrays.copyOf(whole, whole.length / 2)), BundleLimits.DEFAULT, "corrupt or truncated xz data in entry");
    }

    @Test
    void refusesCorruptXzData() throws IOException {
        byte[] bytes = TestBundle.typical().build();
        bytes[bytes.length / 2] ^= 0x55;
        assertRefused(write(bytes), BundleLimits.DEFAULT, "corrupt or truncated xz data");
    }

    @Test
    void refusesAFileThatIsNotXz() throws IOException {
        assertRefused(write(TestBundle.typical().tar()), BundleLimits.DEFAULT, "not an xz file");
    }

    @Test
    void refusesAnArchiveWithoutAnEndMarker() throws IOException {
        TestTar tar = new TestTar();
        TestBundle b = new TestBundle();
        tar.file("manifest.json", text(b.manifest()));
        assertRefused(write(TestTar.xz(tar.unfinished())), BundleLimits.DEFAULT, "without an end-of-archive marker (truncated)");
    }

    @Test
    void refusesAnArchiveThatEndsInsideAnEntry() throws IOException {
        TestBundle typical = TestBundle.typical();
        byte[] tar = typical.tar();
        int cut = 512 + 2048 + 512 + 100; // the manifest (under 2 KiB), the next header, 100 bytes of its data
        assertRefused(write(TestTar.xz(Arrays.copyOf(tar, cut))), BundleLimits.DEFAULT, "truncated");
    }

    @Test
    void refusesATarHeaderWithABadChecksum() throws IOException {
        byte[] tar = TestBundle.typical().tar();
        tar[5] ^= 1; // in the manifest's name field
        assertRefused(write(TestTar.xz(tar)), BundleLimits.DEFAULT, "tar header checksum is", "at offset 0x0");
    }

    @Test
    void refusesTypeNamesThatAreNotMtTypeLines() throws IOException {
        assertRefused(TestBundle.typical().entry("type-names.txt", text("0x10 A\nnot a line\n")),
                "entry type-names.txt line 2: expected '0x<MethodTable> <type name>', found 'not a line'");
    }
}
