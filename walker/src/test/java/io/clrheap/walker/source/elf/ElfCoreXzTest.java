package io.clrheap.walker.source.elf;

import io.clrheap.walker.source.CoreCache;
import io.clrheap.walker.source.DumpFormatException;
import io.clrheap.walker.source.InProgressFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/** An xz core is decompressed into the cache folder, keyed by its bytes and bounded, or to a temporary file; never beside it. */
class ElfCoreXzTest {

    private static final long A = 0x7f0000010000L;
    private static final long MIB = 1L << 20;

    @TempDir
    Path dir;

    private final List<String> notes = new ArrayList<>();

    private Path cacheFolder() {
        return dir.resolve("cache");
    }

    private CoreCache cache(long maxBytes) {
        return CoreCache.inFolder(cacheFolder(), maxBytes);
    }

    private static byte[] core(int seed) {
        return new TestCoreWriter().prstatus(77, 0x1234, 0x5678).load(A, TestCoreWriter.pattern(0x3000, seed)).build();
    }

    private Path compressed(Path xz, byte[] core) throws IOException {
        Files.createDirectories(xz.getParent());
        try (OutputStream out = new XZOutputStream(Files.newOutputStream(xz), new LZMA2Options())) {
            out.write(core);
        }
        return xz;
    }

    private Path compressedCore(String name) throws IOException {
        return compressed(dir.resolve("in").resolve(name), core(5));
    }

    private ElfCore open(Path xz, CoreCache cache) throws IOException {
        return ElfCore.open(xz, notes::add, ElfCoreLimits.DEFAULT, cache);
    }

    private static List<String> names(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static String sha256(Path file) throws IOException, NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    @Test
    void anXzCoreIsDecompressedIntoTheCacheFolderUnderTheSha256OfItsBytesAndRead() throws Exception {
        Path xz = compressedCore("core.xz");
        Path entry = cacheFolder().resolve(sha256(xz) + ".core");
        try (ElfCore core = open(xz, cache(MIB))) {
            assertThat(core.path()).isEqualTo(entry);
            assertThat(core.describe()).isEqualTo("core.xz");
            assertThat(core.readLong(A + 0x2000)).isEqualTo(0x0c0b0a0908070605L);
            assertThat(core.threads()).extracting(CoreThread::tid, CoreThread::rip, CoreThread::rsp).containsExactly(tuple(77, 0x1234L, 0x5678L));
        }
        assertThat(notes).containsExactly("decompressing " + xz + " to " + entry + " (once)");
        assertThat(names(xz.getParent())).as("nothing beside the input").containsExactly("core.xz");
    }

    @Test
    void anXzInAReadOnlyFolderIsWalkedAndNothingIsWrittenThere() throws IOException {
        Path xz = compressedCore("core.xz");
        Path folder = xz.getParent();
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("r-xr-xr-x"));
        try (ElfCore core = open(xz, cache(MIB))) {
            assertThat(core.readByte(A + 1)).isEqualTo((byte) 6);
            assertThat(core.path().getParent()).isEqualTo(cacheFolder());
        } finally {
            Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        assertThat(names(folder)).containsExactly("core.xz");
    }

    @Test
    void theSecondOpenReusesTheEntryWithoutDecompressing() throws IOException {
        Path xz = compressedCore("core.xz");
        open(xz, cache(MIB)).close();
        try (ElfCore core = open(xz, cache(MIB))) {
            assertThat(core.readByte(A)).isEqualTo((byte) 5);
        }
        assertThat(notes).hasSize(1);
        assertThat(names(cacheFolder())).hasSize(1);
    }

    @Test
    void twoCopiesOfTheSameBytesUnderTwoNamesAreDecompressedOnce() throws IOException {
        Path one = compressedCore("core.xz");
        Path two = Files.copy(one, Files.createDirectories(dir.resolve("elsewhere")).resolve("other-name.xz"));
        Path first;
        try (ElfCore core = open(one, cache(MIB))) {
            first = core.path();
        }
        try (ElfCore core = open(two, cache(MIB))) {
            assertThat(core.path()).isEqualTo(first);
            assertThat(core.describe()).isEqualTo("other-name.xz");
        }
        assertThat(notes).hasSize(1);
    }

    @Test
    void aChangedXzGetsAnEntryOfItsOwnNotTheStaleOne() throws IOException {
        Path xz = compressedCore("core.xz");
        Path before;
        try (ElfCore core = open(xz, cache(MIB))) {
            before = core.path();
        }
        compressed(xz, core(9));
        Files.setLastModifiedTime(xz, FileTime.from(Instant.parse("2001-01-01T00:00:00Z"))); // older than the entry: still not reused
        try (ElfCore core = open(xz, cache(MIB))) {
            assertThat(core.path()).isNotEqualTo(before);
            assertThat(core.readByte(A)).isEqualTo((byte) 9);
        }
        assertThat(notes).hasSize(2);
    }

    @Test
    void anIncompleteEntryIsDecompressedAgain() throws Exception {
        Path xz = compressedCore("core.xz");
        Path entry = Files.createDirectories(cacheFolder()).resolve(sha256(xz) + ".core");
        Files.write(entry, new byte[100]); // e.g. left by a copy that was cut short
        try (ElfCore core = open(xz, cache(MIB))) {
            assertThat(core.readByte(A + 1)).isEqualTo((byte) 6);
        }
        assertThat(notes).hasSize(1);
        assertThat(Files.size(entry)).isEqualTo(core(5).length);
    }

    @Test
    void reusingAnEntryMarksItAsJustUsed() throws IOException {
        Path xz = compressedCore("core.xz");
        Path entry;
        try (ElfCore core = open(xz, cache(MIB))) {
            entry = core.path();
        }
        FileTime old = FileTime.from(Instant.parse("2001-01-01T00:00:00Z"));
        Files.setLastModifiedTime(entry, old);
        open(xz, cache(MIB)).close();
        assertThat(Files.getLastModifiedTime(entry)).isGreaterThan(old);
    }

    @Test
    void addingPastTheBoundEvictsTheLeastRecentlyUsedEntry() throws IOException {
        long size = core(1).length;
        CoreCache twoFit = cache(2 * size + size / 2);
        Path a = compressed(dir.resolve("in/a.xz"), core(1));
        Path b = compressed(dir.resolve("in/b.xz"), core(2));
        Path c = compressed(dir.resolve("in/c.xz"), core(3));
        Path entryA;
        Path entryB;
        try (ElfCore core = open(a, twoFit)) {
            entryA = core.path();
        }
        try (ElfCore core = open(b, twoFit)) {
            entryB = core.path();
        }
        Files.setLastModifiedTime(entryA, FileTime.from(Instant.parse("2001-01-01T00:00:00Z")));
        Files.setLastModifiedTime(entryB, FileTime.from(Instant.parse("2002-01-01T00:00:00Z")));
        open(a, twoFit).close(); // a used again: b is now the least recently used
        Path entryC;
        try (ElfCore core = open(c, twoFit)) {
            entryC = core.path();
            assertThat(core.readByte(A)).isEqualTo((byte) 3);
        }
        assertThat(entryB).doesNotExist();
        assertThat(entryA).exists();
        assertThat(entryC).exists();
    }

    @Test
    void aFileBeingWrittenIsNoEntryAndIsNeverEvicted() throws IOException {
        long size = core(1).length;
        Path partial = Files.write(Files.createDirectories(cacheFolder()).resolve("0".repeat(64) + ".core.123.partial"),
                new byte[(int) size]);
        Files.setLastModifiedTime(partial, FileTime.from(Instant.parse("2001-01-01T00:00:00Z")));
        open(compressed(dir.resolve("in/a.xz"), core(1)), cache(size)).close();
        assertThat(partial).exists();
    }

    @Test
    void aCoreLargerThanTheWholeBoundGoesToATemporaryFileRemovedWhenClosed() throws IOException {
        Path xz = compressedCore("core.xz");
        Path mapped;
        try (ElfCore core = open(xz, cache(100))) {
            mapped = core.path();
            assertThat(mapped).exists();
            assertThat(mapped.getParent()).isNotEqualTo(cacheFolder()).isNotEqualTo(xz.getParent());
            assertThat(core.readByte(A)).isEqualTo((byte) 5);
        }
        assertThat(mapped).doesNotExist();
        assertThat(InProgressFiles.isRegistered(mapped)).isFalse();
        assertThat(notes).singleElement().asString().contains(mapped.toString(), "more than the cache's whole bound");
        assertThat(names(cacheFolder())).isEmpty();
    }

    @Test
    void withoutACacheTheCoreIsATemporaryFileRegisteredForCtrlCAndRemovedWhenClosed() throws IOException {
        Path xz = compressedCore("core.xz");
        Path mapped;
        try (ElfCore core = open(xz, CoreCache.temporary())) {
            mapped = core.path();
            assertThat(InProgressFiles.isRegistered(mapped)).as("deleted by the exit hook if never closed").isTrue();
        }
        assertThat(mapped).doesNotExist();
        assertThat(notes).singleElement().asString().contains("--no-cache");
        assertThat(names(xz.getParent())).containsExactly("core.xz");
    }

    @Test
    void aCacheFolderThatCannotBeCreatedFallsBackToATemporaryFileSayingWhy() throws IOException {
        Path xz = compressedCore("core.xz");
        Path notAFolder = Files.writeString(dir.resolve("file"), "a file where the cache folder should be");
        Path mapped;
        try (ElfCore core = open(xz, CoreCache.inFolder(notAFolder.resolve("cores"), MIB))) {
            mapped = core.path();
            assertThat(core.readByte(A)).isEqualTo((byte) 5);
        }
        assertThat(mapped).doesNotExist();
        assertThat(notes).singleElement().asString().contains("the cache folder " + notAFolder.resolve("cores") + " cannot be created");
    }

    @Test
    void aCorruptXzFileIsADumpFormatExceptionAndLeavesNothing() throws IOException {
        Path xz = compressedCore("core.xz");
        byte[] bytes = Files.readAllBytes(xz);
        bytes[bytes.length / 2] ^= 0x55;
        Files.write(xz, bytes);
        assertThatThrownBy(() -> open(xz, cache(MIB)))
                .isInstanceOf(DumpFormatException.class)
                .hasMessageContaining(xz.toString())
                .hasMessageContaining("0x");
        assertThat(names(xz.getParent())).containsExactly("core.xz");
        assertThat(names(cacheFolder())).as("no partial file left").isEmpty();
    }

    @Test
    void aPlainCoreNamedXzIsReadAsItIs() throws IOException {
        Path plain = Files.write(dir.resolve("plain.xz"), new TestCoreWriter().load(A, TestCoreWriter.pattern(16, 3)).build());
        try (ElfCore core = open(plain, cache(MIB))) {
            assertThat(core.path()).isEqualTo(plain); // the content says what it is, not the name
            assertThat(core.readByte(A)).isEqualTo((byte) 3);
        }
        assertThat(notes).isEmpty();
    }

    @Test
    void anXzCoreNotNamedXzIsDecompressedAsWell() throws IOException {
        Path xz = compressedCore("core.gz");
        try (ElfCore core = open(xz, cache(MIB))) {
            assertThat(core.path().getParent()).isEqualTo(cacheFolder());
            assertThat(core.readByte(A)).isEqualTo((byte) 5);
        }
    }
}
