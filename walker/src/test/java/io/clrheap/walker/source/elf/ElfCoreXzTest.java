package io.clrheap.walker.source.elf;

import io.clrheap.walker.source.DumpFormatException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

class ElfCoreXzTest {

    private static final long A = 0x7f0000010000L;

    @TempDir
    Path dir;

    private final List<String> notes = new ArrayList<>();

    private Path compressedCore(String name) throws IOException {
        byte[] core = new TestCoreWriter().prstatus(77, 0x1234, 0x5678)
                .load(A, TestCoreWriter.pattern(0x3000, 5)).build();
        Path xz = dir.resolve(name);
        try (OutputStream out = new XZOutputStream(Files.newOutputStream(xz), new LZMA2Options())) {
            out.write(core);
        }
        return xz;
    }

    @Test
    void anXzCoreIsDecompressedBesideItAndRead() throws IOException {
        Path xz = compressedCore("core.xz");
        try (ElfCore core = ElfCore.open(xz, notes::add)) {
            assertThat(core.path()).isEqualTo(dir.resolve("core.decompressed"));
            assertThat(core.describe()).isEqualTo("core.xz");
            assertThat(core.readLong(A + 0x2000)).isEqualTo(0x0c0b0a0908070605L);
            assertThat(core.threads()).extracting(CoreThread::tid, CoreThread::rip, CoreThread::rsp).containsExactly(tuple(77, 0x1234L, 0x5678L));
        }
        assertThat(notes).containsExactly("decompressing " + xz + " to " + dir.resolve("core.decompressed") + " (once)");
    }

    @Test
    void theSecondOpenReusesTheCacheWithoutDecompressing() throws IOException {
        Path xz = compressedCore("core.xz");
        ElfCore.open(xz, notes::add).close();
        FileTime written = Files.getLastModifiedTime(dir.resolve("core.decompressed"));
        try (ElfCore core = ElfCore.open(xz, notes::add)) {
            assertThat(core.readByte(A)).isEqualTo((byte) 5);
        }
        assertThat(notes).hasSize(1);
        assertThat(Files.getLastModifiedTime(dir.resolve("core.decompressed"))).isEqualTo(written);
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("core.xz", "core.decompressed");
        }
    }

    @Test
    void aCacheOlderThanTheXzIsDecompressedAgain() throws IOException {
        Path xz = compressedCore("core.xz");
        ElfCore.open(xz, notes::add).close();
        Files.setLastModifiedTime(dir.resolve("core.decompressed"), FileTime.from(Instant.parse("2001-01-01T00:00:00Z")));
        ElfCore.open(xz, notes::add).close();
        assertThat(notes).hasSize(2);
    }

    @Test
    void anIncompleteCacheIsDecompressedAgain() throws IOException {
        Path xz = compressedCore("core.xz");
        Files.write(dir.resolve("core.decompressed"), new byte[100]); // e.g. left by a copy that was cut short
        try (ElfCore core = ElfCore.open(xz, notes::add)) {
            assertThat(core.readByte(A + 1)).isEqualTo((byte) 6);
        }
        assertThat(notes).hasSize(1);
    }

    @Test
    void aDirectoryThatIsNotWritableSendsTheCacheToTheTempDirUnderAHashOfTheXz() throws IOException {
        Path xz = compressedCore("core.xz");
        Path tempRoot = dir.resolve("tmp-cache");
        XzCache cache = new XzCache(tempRoot);
        BasicFileAttributes attributes = Files.readAttributes(xz, BasicFileAttributes.class);
        Path file = cache.cacheFile(xz, attributes, false);
        assertThat(file.getParent()).isEqualTo(tempRoot);
        assertThat(file.getFileName().toString()).matches("[0-9a-f]{64}\\.core");
        assertThat(cache.cacheFile(xz, attributes, true)).isEqualTo(dir.resolve("core.decompressed"));
        Files.setLastModifiedTime(xz, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
        BasicFileAttributes touched = Files.readAttributes(xz, BasicFileAttributes.class);
        assertThat(cache.cacheFile(xz, touched, false)).isNotEqualTo(file); // a changed .xz gets a new cache
    }

    @Test
    void aCorruptXzFileIsADumpFormatException() throws IOException {
        Path xz = compressedCore("core.xz");
        byte[] bytes = Files.readAllBytes(xz);
        bytes[bytes.length / 2] ^= 0x55;
        Files.write(xz, bytes);
        assertThatThrownBy(() -> ElfCore.open(xz, notes::add))
                .isInstanceOf(DumpFormatException.class)
                .hasMessageContaining(xz.toString())
                .hasMessageContaining("0x");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("core.xz"); // no partial file left
        }
    }

    @Test
    void aPlainCoreNamedXzIsReadAsItIs() throws IOException {
        Path plain = Files.write(dir.resolve("plain.xz"), new TestCoreWriter().load(A, TestCoreWriter.pattern(16, 3)).build());
        try (ElfCore core = ElfCore.open(plain, notes::add)) {
            assertThat(core.path()).isEqualTo(plain); // the content says what it is, not the name
            assertThat(core.readByte(A)).isEqualTo((byte) 3);
        }
        assertThat(notes).isEmpty();
    }

    @Test
    void anXzCoreNotNamedXzIsDecompressedAsWell() throws IOException {
        Path xz = compressedCore("core.gz");
        try (ElfCore core = ElfCore.open(xz, notes::add)) {
            assertThat(core.path()).isEqualTo(dir.resolve("core.gz.decompressed"));
            assertThat(core.readByte(A)).isEqualTo((byte) 5);
        }
    }
}
