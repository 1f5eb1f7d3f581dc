package io.clrheap.walker.source.elf;

import io.clrheap.walker.source.CoreCache;
import io.clrheap.walker.source.DumpFormatException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/** An xz core is decompressed no further than its headers declare and the free space allows; nothing is left behind. */
class XzBoundsTest {

    private static final long A = 0x7f0000010000L;
    private static final long GIB = 1L << 30;
    /** One xz stream of 32 MiB of zeros (a few KiB): 64 copies make a 2 GiB bomb (concatenated streams are one xz file). */
    private static byte[] zeroStream;

    @TempDir
    Path dir;

    /** The cache folder: apart from {@link #dir}, whose files the tests list. */
    @TempDir
    Path cacheFolder;

    private ElfCore open(Path xz) throws IOException {
        return ElfCore.open(xz, note -> { }, ElfCoreLimits.DEFAULT, CoreCache.inFolder(cacheFolder, 1L << 40));
    }

    private List<String> cached() throws IOException {
        try (Stream<Path> list = Files.list(cacheFolder)) {
            return list.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static byte[] xz(byte[] data) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new XZOutputStream(bytes, new LZMA2Options(1))) {
            out.write(data);
        }
        return bytes.toByteArray();
    }

    private static synchronized byte[] zeroStream() throws IOException {
        if (zeroStream == null) {
            zeroStream = xz(new byte[32 << 20]);
        }
        return zeroStream;
    }

    /** {@code head} compressed, then {@code gib} GiB of zeros as further xz streams. */
    private Path bomb(String name, byte[] head, int gib) throws IOException {
        Path file = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(xz(head));
            for (int i = 0; i < gib * 32; i++) {
                out.write(zeroStream());
            }
        }
        return file;
    }

    private static byte[] core() {
        return new TestCoreWriter().prstatus(77, 0x1234, 0x5678).load(A, TestCoreWriter.pattern(0x3000, 5)).build();
    }

    private List<String> files() throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void anXzOfRandomBytesIsRefusedFromItsFirstBlockNotAfterDecompressingIt() throws IOException {
        byte[] random = new byte[4096];
        new Random(18).nextBytes(random);
        Path xz = bomb("x.clrheap.tar.xz", random, 2);
        long start = System.nanoTime();
        assertThatThrownBy(() -> open(xz))
                .isInstanceOf(DumpFormatException.class)
                .hasMessageStartingWith(xz + ": an xz file whose data are not an ELF core: they start with ")
                .hasMessageContaining(String.format("%02x %02x", random[0] & 0xff, random[1] & 0xff))
                .hasMessageContaining("refused before decompressing the rest");
        assertThat(System.nanoTime() - start).as("nanoseconds").isLessThan(3_000_000_000L);
        assertThat(files()).containsExactly("x.clrheap.tar.xz");
        assertThat(cached()).isEmpty();
    }

    @Test
    void aCoreFollowedByGigabytesOfZerosIsRefusedBeforeDecompressingPastItsHeaders() throws IOException {
        byte[] core = core();
        Path xz = bomb("core.xz", core, 2);
        long start = System.nanoTime();
        assertThatThrownBy(() -> open(xz))
                .isInstanceOf(DumpFormatException.class)
                .hasMessageContaining(String.format("the xz index records 0x%x decompressed bytes, but the core's headers "
                        + "declare a file of 0x%x bytes", core.length + 2 * GIB, core.length))
                .hasMessageContaining("program header 1's bytes end there");
        assertThat(System.nanoTime() - start).as("nanoseconds").isLessThan(3_000_000_000L);
        assertThat(files()).containsExactly("core.xz");
        assertThat(cached()).isEmpty();
    }

    @Test
    void aCoreThatDeclaresMoreThanTheFreeSpaceIsRefusedGivingBothNumbers() throws IOException {
        byte[] core = core();
        int ph = new TestCoreWriter().prstatus(77, 0x1234, 0x5678).load(A, new byte[1]).loadHeaderOffset(0);
        ByteBuffer.wrap(core).order(ByteOrder.LITTLE_ENDIAN).putLong(ph + 32, 1L << 50).putLong(ph + 40, 1L << 50);
        Path xz = dir.resolve("core.xz");
        Files.write(xz, xz(core));
        assertThatThrownBy(() -> open(xz))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("cannot decompress " + xz)
                .hasMessageMatching("(?s).*it needs \\d+ bytes, .* has \\d+ bytes free.*");
        assertThat(files()).containsExactly("core.xz");
    }

    @Test
    void headersCutShortAreRefusedWithTheOffsetTheyEndAt() throws IOException {
        byte[] core = core();
        Path xz = dir.resolve("core.xz");
        Files.write(xz, xz(java.util.Arrays.copyOf(core, 100))); // the ELF header and half a program header
        assertThatThrownBy(() -> open(xz))
                .isInstanceOf(DumpFormatException.class)
                .hasMessageContaining("the data end at 0x64 decompressed bytes, inside the core's headers");
        assertThat(files()).containsExactly("core.xz");
    }

    @Test
    void aStalePartialFileFromAKilledRunIsNotTakenForTheEntry() throws IOException {
        Path xz = dir.resolve("core.xz");
        Files.write(xz, xz(core()));
        String key = CachedCores.key(xz);
        Path stale = cacheFolder.resolve(key + ".core.123456.partial");
        Files.write(stale, new byte[core().length]); // the full size, all zeros: a run killed with SIGKILL
        try (ElfCore core = open(xz)) {
            assertThat(core.path()).isEqualTo(cacheFolder.resolve(key + ".core"));
            assertThat(core.readByte(A + 1)).isEqualTo((byte) 6);
        }
    }

    @Test
    void theEntryOfARealSizedCoreIsExactlyItsDeclaredSize() throws IOException {
        byte[] core = core();
        Path xz = dir.resolve("core.xz");
        Files.write(xz, xz(core));
        open(xz).close();
        assertThat(Files.size(cacheFolder.resolve(CachedCores.key(xz) + ".core"))).isEqualTo(core.length);
        assertThat(files()).containsExactly("core.xz");
        assertThat(cached()).hasSize(1);
    }
}
