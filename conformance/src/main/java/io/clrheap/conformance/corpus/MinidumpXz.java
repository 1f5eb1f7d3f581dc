package io.clrheap.conformance.corpus;

import io.clrheap.generator.bundle.BundleWriter;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.SeekableFileInputStream;
import org.tukaani.xz.SeekableXZInputStream;
import org.tukaani.xz.XZ;
import org.tukaani.xz.XZInputStream;
import org.tukaani.xz.XZOutputStream;

/**
 * A Windows fixture's file: the minidump {@code clrheap generate} writes, xz-compressed the same way every time — one
 * stream of one block, CRC64, the bundles' preset ({@link BundleWriter#XZ_PRESET}), by the single-threaded encoder. The
 * xz format stores no time or file name and that encoder has no other input, so the compressed bytes change only when
 * the minidump's do (a multi-threaded encoder would split blocks by its thread count).
 */
final class MinidumpXz {

    /** What decompressing may use, in KiB: far above the 5 MiB preset 3 needs; a header that asks for more is corrupt. */
    private static final int MEMORY_LIMIT_KIB = 256 * 1024;
    private static final int BUFFER = 1 << 20;

    private MinidumpXz() {
    }

    /** Compresses the minidump {@code dump} into {@code xz} (replacing it). */
    static void compress(Path dump, Path xz) throws IOException {
        try (InputStream in = Files.newInputStream(dump);
             OutputStream file = Files.newOutputStream(xz);
             XZOutputStream out = new XZOutputStream(new BufferedOutputStream(file, BUFFER), new LZMA2Options(BundleWriter.XZ_PRESET), XZ.CHECK_CRC64)) {
            in.transferTo(out);
        }
    }

    /** The decompressed minidump, streamed. */
    static InputStream open(Path xz) throws IOException {
        return new XZInputStream(new BufferedInputStream(Files.newInputStream(xz), BUFFER), MEMORY_LIMIT_KIB);
    }

    /** The minidump's size, from the xz index at the end of the file (nothing is decompressed). */
    static long decompressedSize(Path xz) throws IOException {
        try (SeekableXZInputStream in = new SeekableXZInputStream(new SeekableFileInputStream(xz.toFile()), MEMORY_LIMIT_KIB)) {
            return in.length();
        }
    }
}
